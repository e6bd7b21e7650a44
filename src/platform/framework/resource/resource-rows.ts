import { columnFields, quoteIdentifier, ResourceDefinition, ResourceRow } from './resource-definition';

/**
 * The SELECT list of a resource's table under `alias`, each column under its own name. Numeric,
 * bigint, date and timestamp columns travel as text so that no value is rounded or shifted by a time zone.
 * With `only`, just `id` and those of the named columns the table has.
 */
export function selectList(definition: ResourceDefinition, alias: string, only?: readonly string[]): string {
  const wanted = only ? new Set(only) : undefined;
  const selected = (column: string) => !wanted || wanted.has(column);
  const parts = [`${alias}.id AS id`];
  const standard = definition.standardAttributes;
  if (standard.created && selected(standard.created))
    parts.push(`${isoTimestamp(`${alias}.${quoteIdentifier(standard.created)}`)} AS ${quoteIdentifier(standard.created)}`);
  if (standard.lastUpdated && selected(standard.lastUpdated)) {
    parts.push(`${isoTimestamp(`${alias}.${quoteIdentifier(standard.lastUpdated)}`)} AS ${quoteIdentifier(standard.lastUpdated)}`);
  }
  if (standard.customFields && selected('custom_field_data')) parts.push(`${alias}.custom_field_data AS custom_field_data`);
  for (const { field, column } of columnFields(definition)) {
    if (!selected(column)) continue;
    const source = `${alias}.${quoteIdentifier(column)}`;
    const asText =
      field.kind === 'decimal' ||
      field.kind === 'date' ||
      (field.kind === 'integer' && field.big) ||
      (field.kind === 'text' && !!field.columnType);
    const expression = field.kind === 'datetime' ? isoTimestamp(source) : asText ? `${source}::text` : source;
    parts.push(`${expression} AS ${quoteIdentifier(column)}`);
  }
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.kind !== 'generic' || !selected(`${name}_id`)) continue;
    parts.push(`${alias}.${quoteIdentifier(`${name}_type_id`)} AS ${quoteIdentifier(`${name}_type_id`)}`);
    parts.push(`${alias}.${quoteIdentifier(`${name}_id`)} AS ${quoteIdentifier(`${name}_id`)}`);
  }
  return parts.join(', ');
}

/**
 * A timestamp as ISO 8601 text in UTC with microseconds, as NetBox writes them: a JS Date would
 * drop the microseconds, and the value read back would no longer select its own row in a filter.
 */
function isoTimestamp(expression: string): string {
  return `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * Converts what the driver returned into JSON-ready values (numbers for decimals and bigints),
 * leaving out the column `omit` names. (Copied key by key rather than deleted: an object a key was
 * deleted from turns into a slow dictionary for every later read.)
 */
export function normalizeRow(definition: ResourceDefinition, raw: Record<string, unknown>, omit?: string): ResourceRow {
  const row: Record<string, unknown> = {};
  for (const key in raw) if (key !== omit) row[key] = raw[key];
  row.id = Number(raw.id);
  for (const column of numericTextColumns(definition)) {
    const value = row[column];
    if (value !== null && value !== undefined) row[column] = Number(value);
  }
  return row as ResourceRow;
}

/** Columns read as text (see selectList) that the API answers as numbers. */
function numericTextColumns(definition: ResourceDefinition): readonly string[] {
  let columns = numericTextColumnsByDefinition.get(definition);
  if (!columns) {
    columns = columnFields(definition)
      .filter(({ field }) => field.kind === 'decimal' || (field.kind === 'integer' && field.big))
      .map(({ column }) => column);
    numericTextColumnsByDefinition.set(definition, columns);
  }
  return columns;
}
const numericTextColumnsByDefinition = new WeakMap<ResourceDefinition, readonly string[]>();
