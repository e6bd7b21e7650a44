import { API_LICENSE } from '../../../common/openapi/api-license';
import { FieldSpec } from './fields';
import type { ResourceAction, ResourceCollectionAction } from './resource-declaration';
import { genericColumns, ResourceDefinition } from './resource-definition';
import { filterSetOf } from './resource-filters';
import { supportedLookups } from '../query/filter-fields';
import { OBJECT_TYPE_OBJECT } from './resource-serializer';

type Schema = Record<string, unknown>;

/** The platform's error answers, as every operation documents them. */
export const ERROR_RESPONSES = {
  '400': { description: 'Invalid input: `{"field": ["message"]}` or `{"non_field_errors": [...]}`', content: json({ type: 'object' }) },
  '403': { description: 'Missing or invalid credentials, or no permission', content: json(ref('Detail')) },
  '404': { description: 'Not found', content: json(ref('Detail')) },
};

/**
 * The platform API's OpenAPI 3.0 document, generated from the resource declarations (NetBox serves
 * its own at `/api/schema/`). Schemas per resource: the full object, the brief/nested form, the
 * writable request and the paginated list; operation ids `<app>_<path>_<action>`. `extraPaths` are
 * the paths of endpoints that belong to no model (plugins' routes).
 */
export function buildPlatformOpenApi(
  definitions: readonly ResourceDefinition[],
  version: string,
  extraPaths: Record<string, Schema> = {},
): Schema {
  const schemas: Record<string, Schema> = {
    Detail: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
    ChoiceValue: { type: 'object', properties: { value: { type: 'string' }, label: { type: 'string' }, color: { type: 'string' } } },
  };
  const paths: Record<string, Schema> = {};
  for (const definition of definitions) {
    const name = pascal(definition);
    schemas[name] = objectSchema(definition);
    schemas[`Brief${name}`] = briefSchema(definition);
    schemas[`Paginated${name}List`] = {
      type: 'object',
      required: ['count', 'next', 'previous', 'results'],
      properties: {
        count: { type: 'integer' },
        next: { type: 'string', format: 'uri', nullable: true },
        previous: { type: 'string', format: 'uri', nullable: true },
        results: { type: 'array', items: ref(name) },
      },
    };
    if (!definition.readOnly) schemas[`Writable${name}Request`] = writableSchema(definition);
    Object.assign(paths, resourcePaths(definition, name));
  }
  for (const [path, operations] of Object.entries(extraPaths)) paths[path] = { ...paths[path], ...operations };
  assertUniqueOperationIds(paths);
  return {
    openapi: '3.0.3',
    info: {
      title: 'Network inventory platform API',
      version,
      description: 'NetBox-style REST API of the inventory platform.',
      license: { ...API_LICENSE },
    },
    servers: [{ url: '/' }],
    security: [{ tokenAuth: [] }, { bearerAuth: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Token <key>`' },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  };
}

function resourcePaths(definition: ResourceDefinition, name: string): Record<string, Schema> {
  const base = `${definition.appLabel}_${definition.path.replace(/-/g, '_')}`;
  const tag = definition.appLabel;
  const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
  const noun = definition.verboseName;
  const list: Schema = {
    get: {
      operationId: `${base}_list`,
      summary: `List ${noun} objects`,
      tags: [tag],
      parameters: listParameters(definition),
      responses: { '200': { description: 'A page of objects', content: json(ref(`Paginated${name}List`)) }, ...ERROR_RESPONSES },
    },
  };
  const detail: Schema = {
    get: {
      operationId: `${base}_retrieve`,
      summary: `Retrieve one ${noun}`,
      tags: [tag],
      parameters: [idParameter, { name: 'brief', in: 'query', schema: { type: 'boolean' } }],
      responses: { '200': { description: 'The object', content: json(ref(name)) }, ...ERROR_RESPONSES },
    },
  };
  if (!definition.readOnly) {
    const writable = ref(`Writable${name}Request`);
    const bulkItem = { allOf: [writable, { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }] };
    const body = (schema: Schema) => ({ required: true, content: json(schema) });
    list.post = {
      operationId: `${base}_create`,
      summary: `Create one ${noun}, or several from a list`,
      tags: [tag],
      requestBody: body({ oneOf: [writable, { type: 'array', items: writable }] }),
      responses: {
        '201': {
          description: 'Created (a list for a bulk create)',
          content: json({ oneOf: [ref(name), { type: 'array', items: ref(name) }] }),
        },
        ...ERROR_RESPONSES,
      },
    };
    for (const [method, action, verb] of [
      ['put', 'bulk_update', 'Update'],
      ['patch', 'bulk_partial_update', 'Partially update'],
    ] as const) {
      list[method] = {
        operationId: `${base}_${action}`,
        summary: `${verb} ${noun} objects in bulk`,
        tags: [tag],
        requestBody: body({ type: 'array', items: bulkItem }),
        responses: { '200': { description: 'Updated objects', content: json({ type: 'array', items: ref(name) }) }, ...ERROR_RESPONSES },
      };
    }
    list.delete = {
      operationId: `${base}_bulk_destroy`,
      summary: `Delete ${noun} objects in bulk`,
      tags: [tag],
      requestBody: body({ type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } }),
      responses: {
        '204': { description: 'Deleted' },
        '409': { description: 'Protected by references', content: json(ref('Detail')) },
        ...ERROR_RESPONSES,
      },
    };
    for (const [method, action, verb] of [
      ['put', 'update', 'Update'],
      ['patch', 'partial_update', 'Partially update'],
    ] as const) {
      detail[method] = {
        operationId: `${base}_${action}`,
        summary: `${verb} one ${noun}`,
        tags: [tag],
        parameters: [idParameter],
        requestBody: body(writable),
        responses: { '200': { description: 'The updated object', content: json(ref(name)) }, ...ERROR_RESPONSES },
      };
    }
    detail.delete = {
      operationId: `${base}_destroy`,
      summary: `Delete one ${noun}`,
      tags: [tag],
      parameters: [idParameter],
      responses: {
        '204': { description: 'Deleted' },
        '409': { description: 'Protected by references', content: json(ref('Detail')) },
        ...ERROR_RESPONSES,
      },
    };
  }
  const paths: Record<string, Schema> = { [definition.listPath]: list, [`${definition.listPath}{id}/`]: detail };
  for (const action of definition.collectionActions ?? []) {
    const path = `${definition.listPath}${action.name}/`;
    paths[path] = {
      ...paths[path],
      [action.method.toLowerCase()]: actionOperation(
        action,
        `${base}_${snake(action.name)}_${action.method === 'GET' ? 'list' : 'create'}`,
        tag,
        [],
      ),
    };
  }
  for (const action of definition.actions ?? []) {
    const path = `${definition.listPath}{id}/${action.name}/`;
    paths[path] = {
      ...paths[path],
      [action.method.toLowerCase()]: actionOperation(
        action,
        `${base}_${snake(action.name)}_${action.method === 'GET' ? 'retrieve' : 'create'}`,
        tag,
        [idParameter],
      ),
    };
  }
  return paths;
}

/** A custom action's operation, from the schemas its declaration gives. */
function actionOperation(
  action: ResourceAction | ResourceCollectionAction,
  operationId: string,
  tag: string,
  pathParameters: Schema[],
): Schema {
  const documentation = action.openapi;
  const parameters = [
    ...pathParameters,
    ...(documentation.parameters ?? []).map((parameter) => ({
      name: parameter.name,
      in: 'query',
      description: parameter.description,
      schema: parameter.schema,
    })),
  ];
  return {
    operationId,
    summary: documentation.summary,
    description: `Needs the \`${action.permission}\` permission on the model${action.safePost ? '; read-only tokens may call it' : ''}.`,
    tags: [tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(action.method === 'POST' && documentation.request
      ? { requestBody: { required: false, content: json(documentation.request) } }
      : {}),
    responses: { [String(action.status ?? 200)]: { description: 'The result', content: json(documentation.response) }, ...ERROR_RESPONSES },
  };
}

/** Clients generate one method per operation id; two operations with one id are a declaration mistake. */
function assertUniqueOperationIds(paths: Record<string, Schema>): void {
  const seen = new Set<string>();
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations) as Array<{ operationId: string }>) {
      if (seen.has(operation.operationId)) throw new Error(`OpenAPI: operation id ${operation.operationId} is used twice`);
      seen.add(operation.operationId);
    }
  }
}

function snake(name: string): string {
  return name.replace(/-/g, '_');
}

function listParameters(definition: ResourceDefinition): Schema[] {
  return [
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 1000 } },
    { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
    { name: 'ordering', in: 'query', schema: { type: 'string' } },
    { name: 'brief', in: 'query', schema: { type: 'boolean' } },
    ...filterParameters(definition),
  ];
}

/** The filter parameters of a model's list: `q`, tags, its extra filters and every field filter with its lookups. */
export function filterParameters(definition: ResourceDefinition): Schema[] {
  const parameters: Schema[] = [{ name: 'q', in: 'query', schema: { type: 'string' } }];
  if (definition.standardAttributes.tags) {
    parameters.push({ name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true });
  }
  for (const param of Object.keys(definition.extraFilters ?? {})) {
    parameters.push({ name: param, in: 'query', schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true });
  }
  for (const [param, filter] of Object.entries(filterSetOf(definition))) {
    for (const lookup of supportedLookups(filter.type)) {
      const items: Schema =
        filter.type.kind === 'choice' && (lookup === 'exact' || lookup === 'n')
          ? { type: 'string', enum: [...filter.type.choices] }
          : { type: 'string' };
      parameters.push({
        name: lookup === 'exact' ? param : `${param}__${lookup}`,
        in: 'query',
        schema: { type: 'array', items },
        style: 'form',
        explode: true,
      });
    }
  }
  return parameters;
}

function objectSchema(definition: ResourceDefinition): Schema {
  const properties: Record<string, Schema> = {
    id: { type: 'integer', readOnly: true },
    url: { type: 'string', format: 'uri', readOnly: true },
    display: { type: 'string', readOnly: true },
  };
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.writeOnly) continue;
    Object.assign(properties, readProperties(name, field));
  }
  // Keys an extension shows (a cable's terminations, counts, a port's link peers): its schema, or any value.
  for (const extension of definition.extensions ?? []) {
    for (const key of extension.keys) properties[key] ??= extension.readSchema?.[key] ?? {};
  }
  const standard = definition.standardAttributes;
  if (standard.tags) properties.tags = { type: 'array', items: ref('BriefExtrasTag') };
  if (standard.customFields) properties.custom_fields = { type: 'object', additionalProperties: true };
  if (standard.created) properties.created = { type: 'string', format: 'date-time', nullable: true, readOnly: true };
  if (standard.lastUpdated) properties.last_updated = { type: 'string', format: 'date-time', nullable: true, readOnly: true };
  return { type: 'object', required: ['id', 'url', 'display'], properties };
}

function briefSchema(definition: ResourceDefinition): Schema {
  const properties: Record<string, Schema> = {
    id: { type: 'integer' },
    url: { type: 'string', format: 'uri' },
    display: { type: 'string' },
  };
  for (const name of definition.brief) {
    const field = definition.fields[name];
    // A generic relation appears in `?brief=true` answers only, not where the object is nested: never required.
    if (field && field.kind !== 'many') Object.assign(properties, readProperties(name, field));
    else if (!field) {
      const extension = definition.extensions?.find((candidate) => candidate.keys.includes(name));
      // An extension's key is in `?brief=true` answers only, not where the object is nested: never required.
      properties[name] = extension ? (extension.readSchema?.[name] ?? {}) : { type: 'string', nullable: true };
    }
  }
  return { type: 'object', required: ['id', 'url', 'display'], properties };
}

function writableSchema(definition: ResourceDefinition): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.readOnly) continue;
    if (field.kind === 'generic') {
      const columns = genericColumns(name);
      properties[`${name}_type`] = { type: 'string', description: '"app_label.model"' };
      properties[columns.id] = { type: 'integer' };
      if (field.required) required.push(`${name}_type`, columns.id);
      continue;
    }
    properties[name] = writeProperty(field);
    for (const [alias, target] of Object.entries(definition.inputAliases ?? {}))
      if (target === name)
        properties[alias] = { ...properties[name], writeOnly: true, description: `Another name of \`${name}\` (instead of it).` };
    if ('required' in field && field.required && !('default' in field && field.default !== undefined)) required.push(name);
  }
  if (definition.standardAttributes.tags) properties.tags = { type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'object' }] } };
  if (definition.standardAttributes.customFields) properties.custom_fields = { type: 'object', additionalProperties: true };
  if (definition.standardAttributes.changeLogged) properties.changelog_message = { type: 'string', maxLength: 200, writeOnly: true };
  for (const [name, schema] of Object.entries(definition.requestOnly ?? {})) properties[name] = { ...schema, writeOnly: true };
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function readProperties(name: string, field: FieldSpec): Record<string, Schema> {
  switch (field.kind) {
    case 'relation': {
      const target = field.target();
      if (target.objectType === OBJECT_TYPE_OBJECT) return { [name]: { type: 'string', nullable: !field.required } };
      return { [name]: { type: 'object', allOf: [ref(`Brief${pascal(target)}`)], nullable: !field.required } };
    }
    case 'many': {
      const target = field.target();
      return {
        [name]: { type: 'array', items: target.objectType === OBJECT_TYPE_OBJECT ? { type: 'string' } : ref(`Brief${pascal(target)}`) },
      };
    }
    case 'generic':
      return {
        [`${name}_type`]: { type: 'string', nullable: true },
        [`${name}_id`]: { type: 'integer', nullable: true },
        [name]: { type: 'object', nullable: true, readOnly: true },
      };
    case 'choice':
      return { [name]: { type: 'object', allOf: [ref('ChoiceValue')], nullable: true } };
    default:
      return { [name]: writeProperty(field) };
  }
}

function writeProperty(field: FieldSpec): Schema {
  switch (field.kind) {
    case 'text':
      return { type: 'string', ...(field.maxLength ? { maxLength: field.maxLength } : {}), ...(field.nullable ? { nullable: true } : {}) };
    case 'integer':
      return {
        type: 'integer',
        ...(field.min !== undefined ? { minimum: field.min } : {}),
        ...(field.max !== undefined ? { maximum: field.max } : {}),
        nullable: field.nullable ?? false,
      };
    case 'decimal':
      return { type: 'number', nullable: field.nullable ?? false };
    case 'boolean':
      return { type: 'boolean' };
    case 'choice':
      return { type: 'string', enum: [...field.choices.map((entry) => entry.value), ...(field.blank ? [''] : [])] };
    case 'date':
      return { type: 'string', format: 'date', nullable: true };
    case 'datetime':
      return { type: 'string', format: 'date-time', nullable: true };
    case 'json':
      // No type: any JSON value, null included (OpenAPI 3.0 ignores `nullable` without a type).
      return { description: 'Any JSON value' };
    case 'string-list':
      return { type: 'array', items: field.choices ? { type: 'string', enum: [...field.choices] } : { type: 'string' } };
    case 'relation':
      return field.target().objectType === OBJECT_TYPE_OBJECT
        ? { type: 'string', nullable: !field.required }
        : { type: 'integer', nullable: !field.required };
    case 'many':
      return { type: 'array', items: field.target().objectType === OBJECT_TYPE_OBJECT ? { type: 'string' } : { type: 'integer' } };
    case 'generic':
      return { type: 'object' };
  }
}

function pascal(definition: ResourceDefinition): string {
  return `${definition.appLabel}_${definition.model}`.replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) =>
    letter.toUpperCase(),
  );
}

function ref(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}

export function json(schema: Schema): Schema {
  return { 'application/json': { schema } };
}
