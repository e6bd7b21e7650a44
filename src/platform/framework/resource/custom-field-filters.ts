import { FilterFieldType, FilterSet } from '../query/filter-fields';
import { quoteLiteral } from './resource-definition';
import { ROW_ALIAS } from './resource-filters';
import type { CustomFieldDefinition } from './resource-serializer';

/**
 * `cf_<name>` filters: each custom field read out of the row's JSON, cast to its type. Values were
 * validated on write, so the casts cannot fail. Multi-valued and JSON fields are not filterable.
 */
export function customFieldFilterSet(fields: readonly CustomFieldDefinition[]): FilterSet {
  const filterSet: FilterSet = {};
  for (const field of fields) {
    const text = `(${ROW_ALIAS}.custom_field_data ->> ${quoteLiteral(field.name)})`;
    const typed = filterTypeOf(field);
    if (!typed) continue;
    filterSet[field.name] = { column: typed.cast ? `${text}::${typed.cast}` : text, type: typed.type };
  }
  return filterSet;
}

function filterTypeOf(field: CustomFieldDefinition): { type: FilterFieldType; cast?: string } | undefined {
  switch (field.type) {
    case 'text':
    case 'longtext':
    case 'url':
      return { type: { kind: 'string' } };
    case 'select':
      return { type: { kind: 'choice', choices: field.choices } };
    case 'integer':
      return { type: { kind: 'integer', big: true }, cast: 'numeric' };
    case 'decimal':
      return { type: { kind: 'decimal' }, cast: 'numeric' };
    case 'boolean':
      return { type: { kind: 'boolean' }, cast: 'boolean' };
    case 'date':
      return { type: { kind: 'date' }, cast: 'date' };
    case 'datetime':
      return { type: { kind: 'datetime' }, cast: 'timestamptz' };
    case 'object':
      return { type: { kind: 'relation' }, cast: 'integer' };
    default:
      return undefined;
  }
}
