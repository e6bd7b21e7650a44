import { boolean, json, relation, text } from '../framework/resource/fields';
import type { MapLayer } from '../framework/resource/resource-declaration';
import { defineResource } from '../framework/resource/resource-definition';
import { publishedMapLayer } from './map-layers';

const Target = defineResource({
  appLabel: 'probe',
  model: 'target',
  path: 'targets',
  verboseName: 'target',
  table: 'probe_target',
  fields: { name: text({ maxLength: 10 }) },
  display: (row) => String(row.name),
  brief: ['name'],
  ordering: ['name'],
});

/** A model with a relation to place its features by, declaring `mapLayer`. */
const sourceWith = (model: string, mapLayer: MapLayer) =>
  defineResource({
    appLabel: 'probe',
    model,
    path: `${model}s`,
    verboseName: model,
    table: `probe_${model}`,
    fields: {
      place: relation(() => Target, { onDelete: 'CASCADE' }),
      name: text({ maxLength: 10 }),
      flag: boolean({ default: false }),
      data: json(),
    },
    display: (row) => String(row.name),
    brief: ['name'],
    ordering: ['name'],
    mapLayer,
  });

describe('map layers declared with their model', () => {
  it('finds a declared layer by name, with its model as the source', () => {
    const Source = sourceWith('source', {
      name: 'probe-sources',
      geometry: { field: 'place', via: 'structure' },
      featureFields: ['name', 'flag'],
    });
    const layer = publishedMapLayer('probe-sources');
    expect(layer?.source).toBe(Source);
    expect(layer?.featureFields).toEqual(['name', 'flag']);
    expect(publishedMapLayer('nothing')).toBeUndefined();
  });

  it.each([
    ['p0', { name: 'probe-sources' }, /another model declares a layer of that name/],
    ['p1', { name: 'Bad_Name' }, /lowercase words/],
    ['p2', { name: 'p2', geometry: { field: 'name', via: 'structure' } }, /geometry field name is not a relation of probe.p2/],
    ['p3', { name: 'p3', geometry: [] }, /needs a geometry source/],
    ['p4', { name: 'p4', featureFields: ['missing'] }, /feature field missing is not a field of probe.p4/],
    ['p5', { name: 'p5', featureFields: ['name'], colorField: 'flag' }, /color field flag is not one of the feature fields/],
  ])('refuses the declaration of model %s with %j', (model, override, message) => {
    expect(() => sourceWith(model, { geometry: { field: 'place', via: 'structure' }, ...override } as MapLayer)).toThrow(message);
    // A refused declaration declares nothing: the model's name stays free.
    expect(() => sourceWith(model, { name: `${model}-free`, geometry: { field: 'place', via: 'structure' } })).not.toThrow();
  });
});
