import type { DataSource } from 'typeorm';
import { relation, text } from './fields';
import { defineResource, resourceOf } from './resource-definition';
import type { ResourceDeclaration } from './resource-declaration';
import { ResourceRegistry } from './resource-registry';

const declaration = (appLabel: string, model: string, fields: ResourceDeclaration['fields'] = {}): ResourceDeclaration => ({
  appLabel,
  model,
  path: `${model}s`,
  verboseName: model,
  table: `${appLabel}_${model}`,
  fields: { name: text({ maxLength: 50 }), ...fields },
  display: (row) => String(row.name),
  brief: ['name'],
  ordering: ['name'],
});

describe('relations by object type', () => {
  // Declared before its target: the object type is looked up when the target is first needed.
  const Shelf = defineResource(declaration('test', 'shelf', { room: relation('test.room', { onDelete: 'CASCADE' }) }));
  const Room = defineResource(declaration('test', 'room'));

  it('resolve to the declaration of that object type, whatever the order of declaration', () => {
    expect(resourceOf('test.room')).toBe(Room);
    const field = Shelf.fields.room;
    expect(field.kind === 'relation' && field.target()).toBe(Room);
  });

  it('name an unknown object type when it is looked up, and refuse a second declaration of one', () => {
    expect(() => resourceOf('test.attic')).toThrow('no model declares object type test.attic');
    expect(() => defineResource(declaration('test', 'room'))).toThrow('object type test.room is declared twice');
  });

  it('are checked at boot: every relation of a stored model reaches a stored model', () => {
    const dataSource = {} as DataSource;
    expect(() => new ResourceRegistry([Shelf, Room], [Shelf, Room], dataSource)).not.toThrow();
    expect(() => new ResourceRegistry([Shelf], [Shelf], dataSource)).toThrow(
      'test.shelf.room refers to test.room, which is neither a platform model nor one of an available plugin',
    );
    const Lamp = defineResource(declaration('test', 'lamp', { shade: relation('test.shade', { onDelete: 'SET NULL' }) }));
    expect(() => new ResourceRegistry([Lamp], [Lamp], dataSource)).toThrow('test.lamp.shade: no model declares object type test.shade');
  });
});

describe('generatedWith', () => {
  it('names a CASCADE relation: rows generated with an object go with it', () => {
    defineResource(declaration('gen', 'reel'));
    expect(() =>
      defineResource({
        ...declaration('gen', 'strand', { reel: relation('gen.reel', { onDelete: 'CASCADE' }) }),
        generatedWith: 'reel',
      }),
    ).not.toThrow();
    for (const [model, fields, generatedWith] of [
      ['loose', { reel: relation('gen.reel', { onDelete: 'SET NULL' }) }, 'reel'],
      ['named', { reel: relation('gen.reel', { onDelete: 'CASCADE' }) }, 'name'],
      ['missing', {}, 'reel'],
    ] as const) {
      expect(() => defineResource({ ...declaration('gen', model, fields), generatedWith })).toThrow(
        `gen.${model}: generatedWith must name a CASCADE relation`,
      );
    }
  });
});
