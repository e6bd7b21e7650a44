import { FieldSpec } from './fields';
import { ResourceDefinition } from './resource-definition';

/**
 * The answer to `OPTIONS` on a resource endpoint, as Django REST framework's SimpleMetadata writes
 * it: the writable fields with type, required, read-only, label and (for choice fields) choices.
 * pynetbox's `Endpoint.choices()` and Ansible's netbox modules read the choices from here.
 */
export function resourceMetadata(definition: ResourceDefinition, detail: boolean): Record<string, unknown> {
  const title = definition.verboseName.replace(/(^|\s)\S/g, (letter) => letter.toUpperCase());
  const fields: Record<string, unknown> = { id: { type: 'integer', required: false, read_only: true, label: 'ID' } };
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.writeOnly) continue;
    fields[name] = {
      type: metadataType(field),
      required: 'required' in field && field.required === true,
      read_only: field.readOnly === true,
      label: label(name),
      ...(field.kind === 'choice' ? { choices: field.choices.map((choice) => ({ value: choice.value, display_name: choice.label })) } : {}),
      ...(field.kind === 'string-list' && field.choices ? { choices: field.choices.map((value) => ({ value, display_name: value })) } : {}),
    };
  }
  return {
    name: detail ? `${title} Instance` : `${title} List`,
    description: '',
    renders: ['application/json'],
    parses: ['application/json'],
    actions: definition.readOnly ? {} : { [detail ? 'PUT' : 'POST']: fields },
  };
}

function metadataType(field: FieldSpec): string {
  switch (field.kind) {
    case 'text':
      return 'string';
    case 'integer':
      return 'integer';
    case 'decimal':
      return 'decimal';
    case 'boolean':
      return 'boolean';
    case 'choice':
      return 'choice';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'json':
      return 'json';
    case 'string-list':
      return 'list';
    case 'relation':
    case 'generic':
      return 'field';
    case 'many':
      return 'list';
  }
}

function label(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
