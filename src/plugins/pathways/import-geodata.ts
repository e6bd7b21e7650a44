import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/**
 * `import-geodata`: loads a GIS layer (a GeoJSON FeatureCollection in WGS84) into the pathways
 * models through the REST API, mapped by a YAML schema (as NetBox's plugin's `import_geodata`
 * command): every object is validated, permission-checked and change-logged as any API write.
 *
 *   PLATFORM_TOKEN=<key> node dist/src/plugins/pathways/import-geodata.js data.geojson --schema schema.yaml \
 *     [--url http://127.0.0.1:8000] [--dry-run] [--update] [--limit N] [--batch-size N]
 *
 * Schema keys: `model` (structure, conduit_bank, conduit, aerial_span, direct_buried, innerduct,
 * circuit_geometry, pathway), `fields` (source property → target field, or `{to, transform,
 * null_values, map, default}`), `defaults` (target field → value), `name_template` (`"MH-{ID}"`, the
 * name or label from the properties), `filters` / `exclude` (property → value or list: features
 * kept / left out), `match_on` (the target field that finds an existing object for `--update`).
 */

const MODELS: Readonly<Record<string, { path: string; geometry: string; name: string }>> = {
  structure: { path: 'structures', geometry: 'geometry', name: 'name' },
  conduit_bank: { path: 'conduit-banks', geometry: 'path', name: 'label' },
  conduit: { path: 'conduits', geometry: 'path', name: 'label' },
  aerial_span: { path: 'aerial-spans', geometry: 'path', name: 'label' },
  direct_buried: { path: 'direct-buried', geometry: 'path', name: 'label' },
  innerduct: { path: 'innerducts', geometry: 'path', name: 'label' },
  circuit_geometry: { path: 'circuit-geometries', geometry: 'path', name: 'provider_reference' },
  pathway: { path: 'pathways', geometry: 'path', name: 'label' },
};

const TRANSFORMS: Readonly<Record<string, (value: unknown) => unknown>> = {
  year_to_date: (value) => (value && Number(value) > 0 ? `${String(Number(value)).padStart(4, '0')}-01-01` : null),
  to_int: (value) => (value === null ? null : Math.trunc(Number(value))),
  to_float: (value) => (value === null ? null : Number(value)),
  to_bool: (value) => (value === null ? false : Boolean(Number(value))),
  boolean_flag: (value) => (value === null ? false : Boolean(Number(value))),
  to_str: (value) => (value === null ? '' : String(value)),
  lower: (value) => (value === null ? null : String(value).toLowerCase()),
};

interface FieldSpec {
  to: string;
  transform?: string;
  null_values?: unknown[];
  map?: Record<string, unknown>;
  default?: unknown;
}

export interface ImportSchema {
  model: string;
  fields?: Record<string, string | FieldSpec>;
  defaults?: Record<string, unknown>;
  name_template?: string;
  filters?: Record<string, unknown>;
  exclude?: Record<string, unknown>;
  match_on?: string;
}

interface Feature {
  type: 'Feature';
  geometry: unknown;
  properties: Record<string, unknown> | null;
}

/** The schema's problems, each naming its key (empty when it can be used). */
export function schemaProblems(schema: ImportSchema): string[] {
  const problems: string[] = [];
  if (!MODELS[schema.model]) problems.push(`model: one of ${Object.keys(MODELS).join(', ')} (got ${JSON.stringify(schema.model)})`);
  for (const [source, spec] of Object.entries(schema.fields ?? {})) {
    if (typeof spec === 'string') continue;
    if (typeof spec !== 'object' || spec === null || typeof spec.to !== 'string')
      problems.push(`fields.${source}: a field name or {to: …}`);
    else if (spec.transform !== undefined && !TRANSFORMS[spec.transform])
      problems.push(`fields.${source}.transform: one of ${Object.keys(TRANSFORMS).join(', ')}`);
  }
  return problems;
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : [value]);
const same = (a: unknown, b: unknown) => a === b || (a !== null && b !== null && String(a) === String(b));

/** Whether a value counts as absent: null, or one of the field's `null_values` (numerically when both are numbers). */
function isNullValue(value: unknown, nullValues: readonly unknown[] = []): boolean {
  if (value === null || value === undefined) return true;
  return nullValues.some((nullValue) =>
    Number.isFinite(Number(value)) && Number.isFinite(Number(nullValue)) && String(value).trim() !== ''
      ? Number(value) === Number(nullValue)
      : String(value).trim() === String(nullValue),
  );
}

/** The API body of one feature under the schema, or null when the schema's filters leave it out. */
export function bodyOf(schema: ImportSchema, feature: Feature): Record<string, unknown> | null {
  const properties = feature.properties ?? {};
  for (const [key, wanted] of Object.entries(schema.filters ?? {}))
    if (!asList(wanted).some((value) => same(properties[key], value))) return null;
  for (const [key, unwanted] of Object.entries(schema.exclude ?? {}))
    if (asList(unwanted).some((value) => same(properties[key], value))) return null;
  const model = MODELS[schema.model];
  const body: Record<string, unknown> = { ...(schema.defaults ?? {}) };
  for (const [source, raw] of Object.entries(schema.fields ?? {})) {
    const spec: FieldSpec = typeof raw === 'string' ? { to: raw } : raw;
    let value: unknown = properties[source] ?? null;
    if (isNullValue(value, spec.null_values)) value = null;
    if (value !== null && spec.map) value = Object.hasOwn(spec.map, String(value)) ? spec.map[String(value)] : value;
    if (spec.transform) value = TRANSFORMS[spec.transform](value);
    if (value === null && spec.default !== undefined) value = spec.default;
    if (value !== null || !Object.hasOwn(body, spec.to)) body[spec.to] = value;
  }
  if (schema.name_template)
    body[model.name] = schema.name_template.replace(/\{(\w+)\}/g, (_, key: string) => String(properties[key] ?? ''));
  body[model.geometry] = feature.geometry;
  return body;
}

/** The features of a GeoJSON file: a FeatureCollection, or one Feature. */
export function readGeoJson(text: string): Feature[] {
  const document = JSON.parse(text) as { type?: string; features?: Feature[]; crs?: unknown };
  if (document.crs !== undefined)
    throw new Error(
      'the file names a "crs": RFC 7946 GeoJSON is WGS84 only; reproject it first (ogr2ogr -t_srs EPSG:4326 -f GeoJSON out.geojson in)',
    );
  if (document.type === 'FeatureCollection' && Array.isArray(document.features)) return document.features as Feature[];
  if (document.type === 'Feature') return [document as unknown as Feature];
  throw new Error('expected a GeoJSON FeatureCollection or Feature');
}

interface Options {
  file: string;
  schema: string;
  url: string;
  token: string;
  dryRun: boolean;
  update: boolean;
  limit: number | null;
  batchSize: number;
}

function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options {
  const options: Partial<Options> = {
    url: env.PLATFORM_URL ?? 'http://127.0.0.1:8000',
    dryRun: false,
    update: false,
    limit: null,
    batchSize: 100,
  };
  const rest = [...argv];
  while (rest.length > 0) {
    const argument = rest.shift()!;
    const value = () => {
      const next = rest.shift();
      if (next === undefined) throw new Error(`${argument} needs a value`);
      return next;
    };
    const count = (name: string) => {
      const number = Number(value());
      if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a positive integer`);
      return number;
    };
    if (argument === '--schema') options.schema = value();
    else if (argument === '--url') options.url = value();
    else if (argument === '--dry-run') options.dryRun = true;
    else if (argument === '--update') options.update = true;
    else if (argument === '--limit') options.limit = count('--limit');
    else if (argument === '--batch-size') options.batchSize = count('--batch-size');
    else if (argument.startsWith('--')) throw new Error(`unknown option ${argument}`);
    else if (options.file === undefined) options.file = argument;
    else throw new Error(`one data file only (got ${argument} too)`);
  }
  if (!options.file || !options.schema)
    throw new Error(
      'usage: import-geodata <data.geojson> --schema <schema.yaml> [--dry-run] [--update] [--limit N] [--batch-size N] [--url URL]',
    );
  options.token = env.PLATFORM_TOKEN ?? '';
  if (!options.dryRun && !options.token) throw new Error('PLATFORM_TOKEN must hold a platform API token (write enabled)');
  return options as Options;
}

interface ApiAnswer {
  status: number;
  /** A list's `{count, results}`, an object, or a 400's `{field: [messages]}`. */
  body: { count?: number; results?: Array<{ id: number }> } | null;
}

async function call(options: Options, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const response = await fetch(`${options.url.replace(/\/$/, '')}/api/plugins/pathways/${path}`, {
    method,
    headers: { authorization: `Token ${options.token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as ApiAnswer['body']) : null };
}

/** Runs the import; answers the counts, and writes a line per problem to `log`. */
export async function importGeodata(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<{ created: number; updated: number; skipped: number; failed: number }> {
  const options = readOptions(argv, env);
  const schema = parseYaml(readFileSync(options.schema, 'utf8')) as ImportSchema;
  const problems = schemaProblems(schema ?? ({} as ImportSchema));
  if (problems.length > 0) throw new Error(`schema ${options.schema}: ${problems.join('; ')}`);
  const model = MODELS[schema.model];
  const features = readGeoJson(readFileSync(options.file, 'utf8')).slice(0, options.limit ?? undefined);
  const counts = { created: 0, updated: 0, skipped: 0, failed: 0 };
  const bodies: Array<{ index: number; body: Record<string, unknown> }> = [];
  for (const [index, feature] of features.entries()) {
    const body = bodyOf(schema, feature);
    if (body) bodies.push({ index, body });
    else counts.skipped += 1;
  }
  if (options.dryRun) {
    for (const { index, body } of bodies) log(`feature ${index}: ${JSON.stringify(body)}`);
    return { ...counts, created: 0 };
  }
  const creating: typeof bodies = [];
  for (const entry of bodies) {
    const key = schema.match_on ?? model.name;
    const matchValue = entry.body[key];
    if (options.update && matchValue !== undefined && matchValue !== null && matchValue !== '') {
      const found = await call(
        options,
        'GET',
        `${model.path}/?${encodeURIComponent(key)}=${encodeURIComponent(String(matchValue))}&brief=true`,
      );
      if (found.status === 200 && found.body?.count === 1 && found.body.results) {
        const patched = await call(options, 'PATCH', `${model.path}/${found.body.results[0].id}/`, entry.body);
        if (patched.status === 200) counts.updated += 1;
        else {
          counts.failed += 1;
          log(`feature ${entry.index}: ${patched.status} ${JSON.stringify(patched.body)}`);
        }
        continue;
      }
    }
    creating.push(entry);
  }
  for (let start = 0; start < creating.length; start += options.batchSize) {
    const batch = creating.slice(start, start + options.batchSize);
    const response = await call(
      options,
      'POST',
      `${model.path}/`,
      batch.map((entry) => entry.body),
    );
    if (response.status === 201) {
      counts.created += batch.length;
      continue;
    }
    // A bulk create is atomic: a refused batch is sent again one by one, so the good features still load.
    for (const entry of batch) {
      const single = await call(options, 'POST', `${model.path}/`, entry.body);
      if (single.status === 201) counts.created += 1;
      else {
        counts.failed += 1;
        log(`feature ${entry.index}: ${single.status} ${JSON.stringify(single.body)}`);
      }
    }
  }
  return counts;
}

if (require.main === module) {
  importGeodata(process.argv.slice(2), process.env, (line) => process.stderr.write(`${line}\n`)).then(
    (counts) => {
      process.stdout.write(`${JSON.stringify(counts)}\n`);
      process.exitCode = counts.failed > 0 ? 1 : 0;
    },
    (error: Error) => {
      process.stderr.write(`import-geodata: ${error.message}\n`);
      process.exitCode = 2;
    },
  );
}
