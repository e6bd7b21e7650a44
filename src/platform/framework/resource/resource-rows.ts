import { columnFields, quoteIdentifier, ResourceDefinition, ResourceRow } from './resource-definition';

/**
 * The SELECT list of a resource's table under `alias`, each column under its own name. Numeric,
 * bigint and date columns travel as text so that no value is rounded or shifted by a time zone.
 */
export function selectList(definition: ResourceDefinition, alias: string): string {
  const parts = [`${alias}.id AS id`];
  const standard = definition.standardAttributes;
  if (standard.created) parts.push(`${alias}.${quoteIdentifier(standard.created)} AS ${quoteIdentifier(standard.created)}`);
  if (standard.lastUpdated) parts.push(`${alias}.${quoteIdentifier(standard.lastUpdated)} AS ${quoteIdentifier(standard.lastUpdated)}`);
  if (standard.customFields) parts.push(`${alias}.custom_field_data AS custom_field_data`);
  for (const { field, column } of columnFields(definition)) {
    const source = `${alias}.${quoteIdentifier(column)}`;
    const asText = field.kind === 'decimal' || field.kind === 'date' || (field.kind === 'integer' && field.big);
    parts.push(`${asText ? `${source}::text` : source} AS ${quoteIdentifier(column)}`);
  }
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.kind !== 'generic') continue;
    parts.push(`${alias}.${quoteIdentifier(`${name}_type_id`)} AS ${quoteIdentifier(`${name}_type_id`)}`);
    parts.push(`${alias}.${quoteIdentifier(`${name}_id`)} AS ${quoteIdentifier(`${name}_id`)}`);
  }
  return parts.join(', ');
}

/** Converts what the driver returned into JSON-ready values (numbers for decimals and bigints). */
export function normalizeRow(definition: ResourceDefinition, raw: Record<string, unknown>): ResourceRow {
  const row: Record<string, unknown> = { ...raw, id: Number(raw.id) };
  for (const { field, column } of columnFields(definition)) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    if (field.kind === 'decimal' || (field.kind === 'integer' && field.big)) row[column] = Number(value);
  }
  return row as ResourceRow;
}
