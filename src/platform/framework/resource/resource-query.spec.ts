import { AVAILABLE_PLUGINS } from '../../../plugins';
import { PLATFORM_RESOURCE_DEFINITIONS } from '../../platform-resources';
import { orderingColumnsOf } from './resource-filters';
import { ResourceQuery } from './resource-query';
import { ResourceRegistry } from './resource-registry';
import { ResourceSerializer } from './resource-serializer';

const queries = new ResourceQuery({} as ResourceRegistry, {} as ResourceSerializer);
const definitions = [...PLATFORM_RESOURCE_DEFINITIONS, ...AVAILABLE_PLUGINS.flatMap((plugin) => plugin.resources)];

describe('list ordering of every model', () => {
  // The list's query builder keeps one direction per column: a column named twice takes its last
  // direction, so `-id` followed by the `id` tie-break listed ascending.
  it.each(definitions.map((definition) => [definition.objectType, definition] as const))(
    '%s: `-<field>` sorts by that field descending first, each column named once',
    (_, definition) => {
      for (const [name, column] of Object.entries(orderingColumnsOf(definition))) {
        for (const [ordering, direction] of [
          [`-${name}`, 'DESC'],
          [name, 'ASC'],
          [`-${name},id`, 'DESC'],
        ] as const) {
          const terms = queries.ordering(definition, { ordering });
          expect({ ordering, first: terms[0] }).toEqual({ ordering, first: { column, direction } });
          expect(new Set(terms.map((term) => term.column)).size).toBe(terms.length);
        }
      }
      const fallback = queries.ordering(definition, {});
      expect(new Set(fallback.map((term) => term.column)).size).toBe(fallback.length);
      expect(fallback.map((term) => term.column)).toContain(orderingColumnsOf(definition).id);
    },
  );
});
