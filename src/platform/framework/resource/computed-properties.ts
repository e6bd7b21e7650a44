import type { EntityManager } from 'typeorm';
import type { PropertySchema, ResourceExtension, ResourceRow } from './resource-declaration';

/**
 * Read-only properties computed from the database for a page of rows (counts, derived values such
 * as a splice plan's `plan_version`), shown in the full representation, documented in OpenAPI by
 * their schemas and served as GraphQL fields. A written value of them is ignored, as DRF ignores
 * read-only fields; they are not part of the change-log snapshot.
 */
export function computedProperties(
  schemas: Readonly<Record<string, PropertySchema>>,
  compute: (manager: EntityManager, rows: readonly ResourceRow[]) => Promise<Map<number, Record<string, unknown>>>,
): ResourceExtension {
  return {
    keys: Object.keys(schemas),
    readSchema: Object.fromEntries(Object.entries(schemas).map(([key, schema]) => [key, { ...schema, readOnly: true }])),
    computed: compute,
    represent: (manager, rows) => compute(manager, rows),
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}

/** `{<key>: number of rows of table whose column is the row's id}` for each row, one grouped query per count. */
export function countsOf(counts: Record<string, { table: string; column: string }>): ResourceExtension {
  const schemas = Object.fromEntries(Object.keys(counts).map((key) => [key, { type: 'integer' } as const]));
  return computedProperties(schemas, async (manager, rows) => {
    const ids = rows.map((row) => row.id);
    const result = new Map<number, Record<string, unknown>>(
      ids.map((id) => [id, Object.fromEntries(Object.keys(counts).map((key) => [key, 0]))]),
    );
    for (const [key, { table, column }] of Object.entries(counts)) {
      const found = (await manager.query(
        `SELECT "${column}" AS id, count(*)::int AS n FROM "${table}" WHERE "${column}" = ANY($1) GROUP BY "${column}"`,
        [ids],
      )) as Array<{
        id: number;
        n: number;
      }>;
      for (const { id, n } of found) result.get(id)![key] = n;
    }
    return result;
  });
}
