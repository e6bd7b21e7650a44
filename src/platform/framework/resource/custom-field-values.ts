import { isIsoDate, isIsoDateTime } from './field-input';
import type { CustomFieldDefinition } from './resource-serializer';

/**
 * Checks one custom-field value against its definition (type, choices, regex, bounds), as NetBox's
 * `CustomField.validate`. Returns the message, or undefined when the value is acceptable. Object
 * references are checked for existence by the caller, which has the database.
 */
export function customFieldProblem(field: CustomFieldDefinition, value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') {
    return field.required ? 'Required field cannot be empty.' : undefined;
  }
  switch (field.type) {
    case 'text':
    case 'longtext':
    case 'url':
      if (typeof value !== 'string') return 'Value must be a string.';
      if (field.type === 'url' && !/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value)) return 'Value must be a URL.';
      // Anchored at the start like Python's re.match, which NetBox uses.
      if (field.validation_regex && !new RegExp(`^(?:${field.validation_regex})`).test(value)) {
        return `Value must match regex '${field.validation_regex}'`;
      }
      return undefined;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return 'Value must be an integer.';
      return boundsProblem(field, value);
    case 'decimal':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Value must be a decimal.';
      return boundsProblem(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Value must be true or false.';
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? undefined : 'Date values must be in ISO 8601 format (YYYY-MM-DD).';
    case 'datetime':
      return typeof value === 'string' && isIsoDateTime(value)
        ? undefined
        : 'Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS).';
    case 'json':
      return undefined;
    case 'select':
      return typeof value === 'string' && field.choices.includes(value)
        ? undefined
        : `Invalid choice (${String(value)}). Available choices are: ${field.choices.join(', ')}`;
    case 'multiselect': {
      if (!Array.isArray(value)) return 'Value must be a list of choices.';
      const invalid: unknown = value.find((item: unknown) => typeof item !== 'string' || !field.choices.includes(item));
      return invalid === undefined ? undefined : `Invalid choice (${String(invalid)}). Available choices are: ${field.choices.join(', ')}`;
    }
    case 'object':
      return Number.isSafeInteger(value) && (value as number) > 0 ? undefined : 'Value must be an object ID.';
    case 'multiobject':
      return Array.isArray(value) && value.every((item) => Number.isSafeInteger(item) && item > 0)
        ? undefined
        : 'Value must be a list of object IDs.';
    default:
      return `Unsupported custom field type ${field.type}.`;
  }
}

function boundsProblem(field: CustomFieldDefinition, value: number): string | undefined {
  if (field.validation_minimum !== null && value < Number(field.validation_minimum)) {
    return `Value must be at least ${field.validation_minimum}`;
  }
  if (field.validation_maximum !== null && value > Number(field.validation_maximum)) {
    return `Value must not exceed ${field.validation_maximum}`;
  }
  return undefined;
}
