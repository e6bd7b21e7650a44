/**
 * Requests built from an OpenAPI document: the documented request of an operation (required fields
 * filled from the schema) and deterministic mutations of it (bad path ids, bad query values, bad
 * body fields), for the route fuzz in `test/route-fuzz.e2e-spec.ts`.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = Record<string, any>;

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Operation {
  api: 'pki' | 'platform';
  method: string;
  /** The documented path template: `/api/dcim/sites/{id}/`. */
  path: string;
  spec: Record<string, any>;
}

/** One request to send: the path with its parameters filled, the query string and the body. */
export interface FuzzRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  /** `undefined`: no body. */
  body?: { contentType: string; text: string };
  /** What was changed from the documented request, for the report. */
  mutation: string;
  /** A mutation of the kinds that found failures before (ids beyond the database's integer, type confusion): sent first. */
  likely?: boolean;
}

/** A small deterministic PRNG (mulberry32), so a run can be repeated from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

export function operationsOf(document: OpenApiDocument, api: Operation['api']): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ api, method: method.toUpperCase(), path, spec: item[method] })),
  );
}

/** `$ref`s resolved and `allOf`s merged, one level (enough for these documents' shapes). */
export function resolveSchema(document: OpenApiDocument, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolveSchema(document, document.components?.schemas?.[String(schema.$ref).split('/').pop()!]);
  if (schema.allOf) {
    const merged: Schema = { ...schema };
    delete merged.allOf;
    for (const part of schema.allOf as Schema[]) {
      const resolved = resolveSchema(document, part);
      merged.properties = { ...merged.properties, ...resolved.properties };
      merged.required = [...(merged.required ?? []), ...(resolved.required ?? [])];
      if (resolved.type && !merged.type) merged.type = resolved.type;
    }
    return merged;
  }
  return schema;
}

/** The name of a `$ref`ed schema (`#/components/schemas/BriefDcimSite` → `BriefDcimSite`), directly or under `allOf`/`items`. */
export function referencedSchemaName(schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return String(schema.$ref).split('/').pop();
  if (schema.allOf) return (schema.allOf as Schema[]).map(referencedSchemaName).find(Boolean);
  if (schema.items) return referencedSchemaName(schema.items);
  return undefined;
}

/** The object schema of a body: itself, its first alternative, or the items of a list. */
export function objectSchemaOf(document: OpenApiDocument, schema: Schema): Schema {
  if (schema.oneOf) return objectSchemaOf(document, resolveSchema(document, schema.oneOf[0]));
  if (schema.type === 'array') return objectSchemaOf(document, resolveSchema(document, schema.items));
  return schema;
}

/** The request body's media type and schema, when the operation takes one. */
export function requestBodyOf(document: OpenApiDocument, operation: Operation): { contentType: string; schema: Schema } | undefined {
  const content = operation.spec.requestBody?.content as Record<string, { schema?: Schema }> | undefined;
  if (!content) return undefined;
  const [contentType, media] = Object.entries(content)[0];
  return { contentType, schema: resolveSchema(document, media.schema) };
}

export function parametersOf(operation: Operation, location: 'path' | 'query'): Array<{ name: string; schema: Schema; required: boolean }> {
  return ((operation.spec.parameters ?? []) as Array<Record<string, any>>)
    .filter((parameter) => parameter.in === location)
    .map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {}, required: Boolean(parameter.required) }));
}

/** Body values no route should answer with a 5xx, for any field. */
export const BAD_BODY_VALUES: ReadonlyArray<[string, Json]> = [
  ['null', null],
  ['empty string', ''],
  ['2^31', 2 ** 31],
  ['2^63', 2 ** 63],
  ['1e308', 1e308],
  ['-1', -1],
  ['fraction', 0.5],
  ['long string', 'x'.repeat(10_000)],
  ['NUL byte', 'a\u0000b'],
  ['unicode', '☃𝕏\u202e\ud800'],
  ['nested object', { nested: { deep: [1] } }],
  ['array', [1, 'two', null]],
  ['boolean', true],
  ['text', 'abc'],
  ['hex text', '0x10'],
  ['number text', '9999999999'],
];

/** Query values no filter should answer with a 5xx. */
export const BAD_QUERY_VALUES: readonly string[] = [
  '0x10',
  '-1',
  '9999999999',
  '2147483648',
  '9223372036854775808',
  '1e308',
  'abc',
  '',
  '[]',
  '__proto__',
  'a\u0000b',
  '☃',
  'x'.repeat(5_000),
];

/** Values of the likely kinds (see {@link FuzzRequest.likely}). */
const LIKELY_TEXT = new Set(['2147483648', '9223372036854775808', 'abc', '__proto__']);
const LIKELY_BODY = new Set(['null', '2^31', '2^63', 'nested object', 'array', 'unicode']);

/** Path ids no route should answer with a 5xx. */
export const BAD_PATH_VALUES: readonly string[] = ['0', '-1', '2147483648', '9223372036854775808', 'abc', '1e308', '%00'];

function encodeBody(contentType: string, value: Json | undefined): FuzzRequest['body'] {
  if (value === undefined) return undefined;
  if (contentType === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams();
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, item] of Object.entries(value)) form.append(key, typeof item === 'string' ? item : JSON.stringify(item));
    } else form.append('value', JSON.stringify(value));
    return { contentType, text: form.toString() };
  }
  if (contentType.startsWith('application/json')) return { contentType, text: JSON.stringify(value) };
  return { contentType, text: typeof value === 'string' ? value : JSON.stringify(value) };
}

/**
 * Every mutation of one operation's documented request, by kind: bad path ids, bad query values
 * (one filter at a time, and every filter at once), bad bodies. The documented request comes first.
 */
export function mutationsOf(
  operation: Operation,
  documented: { pathValues: Record<string, string>; query: Array<[string, string]>; body?: Json; contentType?: string },
  document: OpenApiDocument,
): { documented: FuzzRequest; byKind: FuzzRequest[][] } {
  const fill = (values: Record<string, string>) =>
    operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? '1').replace(/%2500/g, '%00'));
  const contentType = documented.contentType ?? 'application/json';
  const make = (mutation: string, over: Partial<FuzzRequest> & { bodyValue?: Json; noBody?: boolean } = {}): FuzzRequest => ({
    method: operation.method,
    path: over.path ?? fill(documented.pathValues),
    query: over.query ?? documented.query,
    body: over.noBody ? undefined : (over.body ?? encodeBody(contentType, 'bodyValue' in over ? over.bodyValue : documented.body)),
    mutation,
    likely: over.likely,
  });

  const paths: FuzzRequest[] = [];
  for (const parameter of parametersOf(operation, 'path'))
    for (const value of BAD_PATH_VALUES)
      paths.push(
        make(`path ${parameter.name}=${JSON.stringify(value)}`, {
          path: fill({ ...documented.pathValues, [parameter.name]: value }),
          likely: LIKELY_TEXT.has(value),
        }),
      );

  const queries: FuzzRequest[] = [];
  const queryParameters = parametersOf(operation, 'query');
  if (queryParameters.length > 0) {
    for (const value of BAD_QUERY_VALUES) {
      queries.push(
        make(`every query parameter=${JSON.stringify(value.slice(0, 20))}`, {
          query: queryParameters.map((p) => [p.name, value]),
          likely: true,
        }),
      );
    }
    for (const parameter of queryParameters) {
      for (const value of BAD_QUERY_VALUES)
        queries.push(
          make(`query ${parameter.name}=${JSON.stringify(value.slice(0, 20))}`, {
            query: [...documented.query, [parameter.name, value]],
            likely: LIKELY_TEXT.has(value),
          }),
        );
      queries.push(
        make(`query ${parameter.name} repeated`, { query: [...documented.query, [parameter.name, '1'], [parameter.name, 'abc']] }),
      );
    }
  }

  const bodies: FuzzRequest[] = [];
  const requestBody = requestBodyOf(document, operation);
  if (requestBody) {
    const base = documented.body;
    // A list body (bulk routes) is mutated in its first item.
    const listed = Array.isArray(base);
    const first = listed ? (base as Json[])[0] : base;
    const object = first !== null && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, Json>) : undefined;
    const wrap = (item: Json): Json => (listed ? [item] : item);
    const objectSchema = objectSchemaOf(document, requestBody.schema);
    bodies.push(make('no body', { noBody: true }));
    bodies.push(make('empty object', { bodyValue: {} }));
    bodies.push(make('body null', { bodyValue: null }));
    bodies.push(make('body a string', { bodyValue: 'abc' }));
    bodies.push(make('body a number', { bodyValue: 2 ** 63 }));
    bodies.push(make('body an array of the documented body', { bodyValue: [base ?? {}, base ?? {}] }));
    bodies.push(make('body an empty array', { bodyValue: [] }));
    bodies.push(make('body an array of scalars', { bodyValue: [1, 'a', null] }));
    bodies.push(make('malformed JSON', { body: { contentType, text: '{"a": ' } }));
    bodies.push(make('wrong content type', { body: { contentType: 'text/plain', text: JSON.stringify(base ?? {}) } }));
    if (object) {
      const rest = JSON.stringify(object).slice(1);
      const text = `{"__proto__": {"is_superuser": true}, "constructor": {"prototype": {"is_superuser": true}}${rest === '}' ? '' : ', '}${rest}`;
      if (contentType.startsWith('application/json')) bodies.push(make('prototype keys', { body: { contentType, text }, likely: true }));
      for (const name of (objectSchema.required ?? []) as string[]) {
        const rest = { ...object };
        delete rest[name];
        bodies.push(make(`body without required ${name}`, { bodyValue: wrap(rest), likely: true }));
      }
      for (const [name, property] of Object.entries((objectSchema.properties ?? {}) as Record<string, Schema>)) {
        for (const [label, value] of BAD_BODY_VALUES)
          bodies.push(make(`body ${name}=${label}`, { bodyValue: wrap({ ...object, [name]: value }), likely: LIKELY_BODY.has(label) }));
        if (resolveSchema(document, property).type === 'array')
          for (const [label, value] of BAD_BODY_VALUES)
            bodies.push(
              make(`body ${name}=[${label}]`, { bodyValue: wrap({ ...object, [name]: [value] }), likely: LIKELY_BODY.has(label) }),
            );
      }
      bodies.push(make('body with an unknown field', { bodyValue: wrap({ ...object, no_such_field: 1 }) }));
      bodies.push(make(listed ? 'documented item alone' : 'documented body in a list', { bodyValue: listed ? object : [object] }));
    }
  }

  return { documented: make('documented request'), byKind: [paths, queries, bodies] };
}

/** The value every query parameter gets alone in a sweep: one past PostgreSQL's integer, the commonest 500 of hand-written filters. */
export const SWEEP_QUERY_VALUE = '2147483648';

/** Each query parameter alone with {@link SWEEP_QUERY_VALUE}, not left to chance. */
export function querySweep(mutations: ReturnType<typeof mutationsOf>): FuzzRequest[] {
  return mutations.byKind[1].filter(
    (request) => request.mutation.startsWith('query ') && request.mutation.endsWith(`=${JSON.stringify(SWEEP_QUERY_VALUE)}`),
  );
}

/**
 * `budget` requests of one operation: the documented one, then the kinds taken in turn, each in an
 * order shuffled by `random`, its likely mutations first.
 */
export function pickRequests(mutations: ReturnType<typeof mutationsOf>, budget: number, random: () => number): FuzzRequest[] {
  const queues = mutations.byKind
    .map((kind) => [
      ...shuffled(
        kind.filter((request) => request.likely),
        random,
      ),
      ...shuffled(
        kind.filter((request) => !request.likely),
        random,
      ),
    ])
    .filter((kind) => kind.length > 0);
  const picked = [mutations.documented];
  while (picked.length < budget && queues.some((queue) => queue.length > 0))
    for (const queue of queues) if (queue.length > 0 && picked.length < budget) picked.push(queue.shift()!);
  return picked;
}
