import { FilterFieldType, FilterSet } from '../query/filter-fields';
import { canonicalObjectType } from './app-label-aliases';
import { FieldSpec } from './fields';
import { OBJECT_TYPE_TABLE } from './resource-entities';
import { columnFields, genericColumns, quoteIdentifier, ResourceDefinition } from './resource-definition';

/** Alias of the resource's table in every generated query. */
export const ROW_ALIAS = 'o';

export function qualified(column: string): string {
  return `${ROW_ALIAS}.${quoteIdentifier(column)}`;
}

const filterSetCache = new WeakMap<ResourceDefinition, FilterSet>();

/**
 * NetBox's FilterSet for a resource: every scalar field with the lookups of its type,
 * `<relation>_id` plus `<relation>` by the target's slug (or name) or, declared `filterById`, by its
 * id, generic relations by type and
 * id, and the standard `id`, `created`, `last_updated`. Tags, `q` and `cf_*` are handled beside it.
 */
export function filterSetOf(definition: ResourceDefinition): FilterSet {
  const cached = filterSetCache.get(definition);
  if (cached) return cached;
  const filterSet: FilterSet = { id: { column: qualified('id'), type: { kind: 'integer' } } };
  const standard = definition.standardAttributes;
  if (standard.created) filterSet.created = { column: qualified(standard.created), type: { kind: 'datetime' } };
  if (standard.lastUpdated) filterSet.last_updated = { column: qualified(standard.lastUpdated), type: { kind: 'datetime' } };

  for (const { name, field, column } of columnFields(definition)) {
    if (field.noFilter || field.writeOnly) continue;
    if (field.kind === 'relation') {
      filterSet[`${name}_id`] = { column: qualified(column), type: { kind: 'relation' } };
      if (field.filterById) filterSet[name] = filterSet[`${name}_id`];
      const target = field.target();
      const label = naturalKeyOf(target);
      if (label) {
        const byLabel = {
          column: `(SELECT t.${quoteIdentifier(label)} FROM ${quoteIdentifier(target.table)} t WHERE t.id = ${qualified(column)})`,
          type: { kind: 'string' } as const,
        };
        // `tenant=acme` as NetBox filters; `tenant__slug` names the column for permission constraints.
        filterSet[name] ??= byLabel;
        filterSet[`${name}__${label}`] = byLabel;
      }
      continue;
    }
    const type = scalarFilterType(field);
    // Network columns compare as their text form (`10.0.0.1/24`), so the string lookups apply.
    const expression = field.kind === 'text' && field.columnType ? `${qualified(column)}::text` : qualified(column);
    if (type) filterSet[name] = { column: expression, type };
  }
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.kind !== 'generic') continue;
    const columns = genericColumns(name);
    filterSet[`${name}_type_id`] = { column: qualified(columns.type), type: { kind: 'relation' } };
    filterSet[`${name}_id`] = { column: qualified(columns.id), type: { kind: 'integer' } };
    filterSet[`${name}_type`] = {
      column: `(SELECT ot.app_label || '.' || ot.model FROM ${OBJECT_TYPE_TABLE} ot WHERE ot.id = ${qualified(columns.type)})`,
      type: { kind: 'string' },
      normalize: canonicalObjectType,
    };
  }
  filterSetCache.set(definition, filterSet);
  return filterSet;
}

/** The column that names an object in filters such as `tenant=acme`: the declared one, else slug, else name. */
export function naturalKeyOf(definition: ResourceDefinition): string | undefined {
  if (definition.naturalKey) return definition.naturalKey;
  if ('slug' in definition.fields) return 'slug';
  return 'name' in definition.fields ? 'name' : undefined;
}

function scalarFilterType(field: FieldSpec): FilterFieldType | undefined {
  switch (field.kind) {
    case 'text':
      return { kind: 'string' };
    case 'integer':
      return { kind: 'integer', big: field.big };
    case 'decimal':
      return { kind: 'decimal' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'choice':
      return { kind: 'choice', choices: field.choices.map((entry) => entry.value) };
    case 'date':
      return { kind: 'date' };
    case 'datetime':
      return { kind: 'datetime' };
    default:
      return undefined;
  }
}

/** Ordering names → SQL: every filterable scalar, `id`, `created`, `last_updated`, and relations by id. */
export function orderingColumnsOf(definition: ResourceDefinition): Record<string, string> {
  const allowed: Record<string, string> = { id: qualified('id') };
  const standard = definition.standardAttributes;
  if (standard.created) allowed.created = qualified(standard.created);
  if (standard.lastUpdated) allowed.last_updated = qualified(standard.lastUpdated);
  for (const { name, field, column } of columnFields(definition)) {
    if (field.writeOnly || field.kind === 'json' || field.kind === 'string-list') continue;
    allowed[name] = qualified(column);
  }
  return allowed;
}

/** Columns matched by `q`: the fields declared `search`, then the related objects' columns of `searchRelated`. */
export function searchColumnsOf(definition: ResourceDefinition): string[] {
  const own = columnFields(definition)
    .filter(({ field }) => field.search)
    .map(({ field, column }) => (field.kind === 'text' && field.columnType ? `${qualified(column)}::text` : qualified(column)));
  const related = (definition.searchRelated ?? []).map(({ relation, column }) => {
    const found = columnFields(definition).find(({ name }) => name === relation);
    if (!found || found.field.kind !== 'relation')
      throw new Error(`${definition.objectType}: searchRelated names ${relation}, which is not a relation`);
    const target = found.field.target();
    return `(SELECT r.${quoteIdentifier(column)}::text FROM ${quoteIdentifier(target.table)} r WHERE r.id = ${qualified(found.column)})`;
  });
  return [...own, ...related];
}
