import { boolean, json, relation, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { publishedMapLayer, publishMapLayer } from './map-layers';

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
const Source = defineResource({
  appLabel: 'probe',
  model: 'source',
  path: 'sources',
  verboseName: 'source',
  table: 'probe_source',
  fields: {
    place: relation(() => Target, { onDelete: 'CASCADE' }),
    name: text({ maxLength: 10 }),
    flag: boolean({ default: false }),
    data: json(),
  },
  display: (row) => String(row.name),
  brief: ['name'],
  ordering: ['name'],
});

describe('map layers published by plugins', () => {
  it('publishes a well-formed layer and finds it by name', () => {
    publishMapLayer({
      name: 'probe-sources',
      source: Source,
      geometry: { field: 'place', via: 'structure' },
      featureFields: ['name', 'flag'],
    });
    expect(publishedMapLayer('probe-sources')?.source).toBe(Source);
    expect(publishedMapLayer('nothing')).toBeUndefined();
  });

  it.each([
    [{ name: 'probe-sources' }, /already published/],
    [{ name: 'Bad_Name' }, /lowercase words/],
    [{ name: 'p1', geometry: { field: 'name', via: 'structure' } }, /geometry field name is not a relation/],
    [{ name: 'p2', geometry: [] }, /needs a geometry source/],
    [{ name: 'p3', featureFields: ['missing'] }, /feature field missing is not a field/],
    [{ name: 'p4', featureFields: ['name'], colorField: 'flag' }, /color field flag is not one of the feature fields/],
  ])('refuses %j', (override, message) => {
    expect(() =>
      publishMapLayer({ source: Source, geometry: { field: 'place', via: 'structure' }, ...override } as Parameters<
        typeof publishMapLayer
      >[0]),
    ).toThrow(message);
  });
});
