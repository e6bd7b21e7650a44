import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PASSWORD } from './support/api-client';
import {
  FuzzRequest,
  Json,
  mutationsOf,
  OpenApiDocument,
  Operation,
  operationsOf,
  parametersOf,
  pickRequests,
  querySweep,
  referencedSchemaName,
  requestBodyOf,
  resolveSchema,
  Schema,
  seededRandom,
} from './support/openapi-fuzz';
import { provisionToken } from './support/platform-client';
import { SeededApp, startSeededApp } from './support/seeded-app';

/**
 * Every operation of both committed OpenAPI documents, under four roles (no permission,
 * constrained, read-only, superuser), with the documented request and deterministic mutations of
 * it (bad path ids, bad filter values, bad body fields): no answer may be a 5xx, none may hang.
 * The documents are read as data, so a new route is fuzzed without touching this file.
 *
 * Roles. Platform API: tokens of four users of their own — one without permission, one with every
 * action on every other object type but only objects with id ≤ 2, one with view on every type, a
 * superuser. PKI API: a user without organization, org1's admin (everything, within the
 * organization), org1's plain user (reads), the superuser.
 *
 * The seed makes one object of every model its schema describes (references resolved through the
 * read schemas' `Brief…` refs, {@link EXTRA_FIELDS} where a rule needs more, {@link SEED_STEPS} where a
 * model needs more than one object of another), so detail routes hit
 * real ids; deletes run last, dependents first. `FUZZ_SEED` changes the sample of mutations
 * (default fixed, so a failure reproduces); `FUZZ_VERBOSE=1` prints the seed's gaps, the request
 * count and slow answers.
 */

const document = (name: string) => JSON.parse(readFileSync(join(__dirname, '..', 'docs', name), 'utf8')) as OpenApiDocument;
const PKI_DOCUMENT = document('openapi.json');
const PLATFORM_DOCUMENT = document('platform-openapi.json');

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_611);
const REQUEST_TIMEOUT_MS = 15_000;

const ROLES = ['none', 'readOnly', 'constrained', 'superuser'] as const;
type Role = (typeof ROLES)[number];

/**
 * Requests per operation and role: most for the superuser, whom no permission check stops early.
 * With the superuser's query sweep ({@link querySweep}), about 33 000 requests: some 70 s on a
 * PostgreSQL server and 2¼ minutes on PGlite (2 cores). `FUZZ_SCALE` multiplies the sampled ones
 * for a deeper run.
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const BUDGET: Record<Role, number> = { none: 2 * SCALE, readOnly: 3 * SCALE, constrained: 4 * SCALE, superuser: 10 * SCALE };

/** Operations not fuzzed here, with the reason (`METHOD path`). None today: every one answers in-process (no streaming, no long poll). */
const SKIPPED: Record<string, string> = {};

/** Models of which the seed makes no object (so their detail routes see only bad ids), with the reason. */
const UNSEEDED: Record<string, string> = {
  '/api/plugins/wdm/wdm-wavelength-paths/': 'read-only: made when a circuit’s channels are stitched end to end',
  '/api/vpn/ipsec-proposals/': 'an encryption or an authentication algorithm: a cross-field rule the schema does not state',
  '/api/vpn/ipsec-profiles/': 'needs an IPSec policy, whose proposals the seed may not have made',
  '/api/vpn/tunnel-terminations/': 'an interface of an allowed type: a cross-field rule the schema does not state',
  '/api/vpn/l2vpn-terminations/': 'an object of an allowed type: a cross-field rule the schema does not state',
  '/api/plugins/routing/bgp-settings/':
    'a routing object to hang on and a value typed by its key: cross-field rules the schema does not state',
};

interface Principal {
  role: Role;
  headers: Record<string, string>;
  /** True when its credential still works (a fuzzed logout or password change may end it). */
  valid(): Promise<boolean>;
  renew(): Promise<void>;
}

interface Failure {
  role: Role;
  operation: string;
  request: string;
  mutation: string;
  status: number;
  body: string;
}

/** A response; a request that got none within {@link REQUEST_TIMEOUT_MS} counts as status 599, a failure like a 5xx. */
interface Answer {
  status: number;
  text: string;
}

let base = '';

async function send(request: FuzzRequest, headers: Record<string, string>): Promise<Answer> {
  const query = new URLSearchParams(request.query).toString();
  const url = `${base}${request.path}${query ? `?${query}` : ''}`;
  const all: Record<string, string> = { ...headers };
  if (request.body) all['content-type'] = request.body.contentType;
  try {
    const response = await fetch(url, {
      method: request.method,
      headers: all,
      body: request.body?.text,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError') return { status: 599, text: `no answer within ${REQUEST_TIMEOUT_MS} ms` };
    throw error;
  }
}

function describeRequest(request: FuzzRequest): string {
  const query = new URLSearchParams(request.query).toString();
  const body = request.body
    ? ` ${request.body.contentType} ${request.body.text.length > 300 ? `${request.body.text.slice(0, 300)}…` : request.body.text}`
    : '';
  return `${request.method} ${request.path}${query ? `?${query.length > 300 ? `${query.slice(0, 300)}…` : query}` : ''}${body}`;
}

/** Values for required fields that their name decides, where the type alone gives an invalid one. */
function stringFor(name: string, n: number): string | undefined {
  const octets = `${(n >> 8) & 255}.${n & 255}`;
  if (name === 'address') return `10.${octets}.1/24`;
  if (name === 'prefix') return `10.${octets}.0/24`;
  if (name === 'color') return 'aa1122';
  if (/url|endpoint/.test(name)) return 'http://127.0.0.1:9/';
  if (name.startsWith('email_from') || name === 'email') return `fuzz${n}@example.com`;
  if (name === 'start' || name === 'email_received') return '2030-01-01T00:00:00Z';
  if (name === 'end') return '2030-01-02T00:00:00Z';
  if (name === 'subject_dn') return `CN=fuzz ${n},O=Fuzz`;
  if (name === 'username') return `fuzz_user_${n}`;
  if (name === 'password') return 'fuzz-password-123';
  if (name === 'common_name') return `fuzz${n}.example.com`;
  if (name === 'slug') return `fuzz-${n}`;
  if (name === 'name') return `fuzz_${n}`;
  return undefined;
}

function integerFor(name: string, schema: Schema, n: number): number {
  if (name === 'asn') return 64_512 + n;
  if (name === 'vid') return 1 + (n % 4000);
  if (name === 'wavelength_nm') return 1550;
  if (name === 'fiber_count' || name === 'strand_count') return 12;
  if (name === 'sequence') return 10 + n;
  if (name === 'max_validity_days' || name === 'valid_days') return 30;
  return typeof schema.minimum === 'number' ? Math.max(1, schema.minimum) : 1;
}

/** Fields a request should set when the schema allows them, to keep the documented request cheap. */
const PREFERRED: Record<string, Json> = { key_type: 'ecdsa-p256' };

/**
 * Polymorphic references (`<prefix>_type`/`<prefix>_content_type`/`<prefix>_object_type` with
 * `<prefix>_id`/`<prefix>_object_id`), by prefix: the object type and the list its id is taken from.
 */
const POLYMORPHIC: Record<string, [string, string]> = {
  assigned: ['dcim.interface', '/api/dcim/interfaces/'],
  interface: ['dcim.interface', '/api/dcim/interfaces/'],
  member: ['circuits.circuit', '/api/circuits/circuits/'],
  parent: ['dcim.device', '/api/dcim/devices/'],
  pathway: ['pathways.conduit', '/api/plugins/pathways/conduits/'],
  action: ['extras.webhook', '/api/extras/webhooks/'],
  event: ['notices.maintenance', '/api/plugins/notices/maintenance/'],
};
const DEFAULT_POLYMORPHIC: [string, string] = ['dcim.site', '/api/dcim/sites/'];
const POLYMORPHIC_TYPE = /^(?:(.+?)_)?(?:content_type|object_type|type)$/;
const POLYMORPHIC_ID = /^(?:(.+?)_)?(?:object_id|id)$/;

const LINE = {
  type: 'LineString',
  coordinates: [
    [7.1, 50.7],
    [7.2, 50.8],
  ],
};
const byDeviceType = (id: (listPath: string) => number | undefined) => ({ device_type: id('/api/dcim/device-types/') ?? null });
/**
 * Fields a model needs beyond what its schema requires (rules between fields, geometry), by list
 * path: the seed and the documented requests of that model use them. `null`: no seeded object yet.
 */
const EXTRA_FIELDS: Record<string, (id: (listPath: string) => number | undefined) => Record<string, Json>> = {
  '/api/dcim/rear-port-templates/': byDeviceType,
  '/api/dcim/front-port-templates/': byDeviceType,
  '/api/plugins/wdm/wdm-profiles/': byDeviceType,
  '/api/dcim/port-template-mappings/': byDeviceType,
  '/api/dcim/console-port-templates/': byDeviceType,
  '/api/dcim/console-server-port-templates/': byDeviceType,
  '/api/dcim/power-port-templates/': byDeviceType,
  '/api/dcim/power-outlet-templates/': byDeviceType,
  '/api/dcim/interface-templates/': byDeviceType,
  '/api/dcim/module-bay-templates/': byDeviceType,
  '/api/dcim/rack-reservations/': () => ({ units: [1] }),
  '/api/dcim/mac-addresses/': () => ({ mac_address: '02:00:5e:10:00:01' }),
  '/api/plugins/routing/communities/': () => ({ community: '65000:100' }),
  '/api/ipam/ip-ranges/': () => ({ start_address: '10.250.0.1/24', end_address: '10.250.0.20/24' }),
  '/api/ipam/service-templates/': () => ({ ports: [22] }),
  '/api/ipam/services/': () => ({ ports: [22] }),
  '/api/virtualization/virtual-machines/': (id) => ({ site: id('/api/dcim/sites/') ?? null }),
  '/api/plugins/pathways/pathways/': () => ({ path: LINE }),
  '/api/plugins/pathways/pathway-locations/': (id) => ({ site: id('/api/dcim/sites/') ?? null }),
  '/api/plugins/fms/cable-types/': () => ({ mark_unit: 'm' }),
  '/api/dcim/cables/': (id): Record<string, Json> => {
    const [a, b] = [id('/api/dcim/interfaces/'), id('/api/dcim/rear-ports/')];
    return a === undefined || b === undefined
      ? { a_terminations: null }
      : {
          a_terminations: [{ object_type: 'dcim.interface', object_id: a }],
          b_terminations: [{ object_type: 'dcim.rearport', object_id: b }],
        };
  },
  '/api/plugins/pathways/structures/': () => ({ geometry: { type: 'Point', coordinates: [7.1, 50.7] } }),
  '/api/plugins/pathways/conduit-banks/': () => ({ path: LINE }),
  '/api/plugins/pathways/conduits/': () => ({ path: LINE }),
  '/api/plugins/pathways/aerial-spans/': () => ({ path: LINE }),
  '/api/plugins/pathways/direct-buried/': () => ({ path: LINE }),
  '/api/plugins/pathways/circuit-geometries/': () => ({ path: LINE }),
};

/** What a {@link SEED_STEPS} step may use: a seeded object's id by list path, and a superuser POST answering the new object's id. */
interface SeedTools {
  id: (listPath: string) => number | undefined;
  create: (listPath: string, body: Record<string, Json>) => Promise<number>;
}

/**
 * Models whose object needs more than the one object per model the seed makes (two ports of a
 * closure's tray, two wireless interfaces, a conduit ending at a structure, a second structure): after
 * that seed, each step makes what it needs and answers the body its model is seeded with.
 */
const SEED_STEPS: Record<string, (tools: SeedTools) => Promise<Record<string, Json>>> = {
  // Users are listed, not seeded through the platform API: the reservation's user is the first listed.
  '/api/dcim/rack-reservations/': async ({ id }) => ({
    rack: id('/api/dcim/racks/')!,
    user: id('/api/users/users/')!,
    units: [1],
    description: 'fuzz',
  }),
  '/api/plugins/fms/splice-plan-entries/': async ({ id, create }) => {
    // The seeded plan's closure is the seeded device, which holds the seeded module (its tray).
    const [device, tray] = [id('/api/dcim/devices/'), id('/api/dcim/modules/')];
    const port = (name: string) => create('/api/dcim/front-ports/', { device: device!, module: tray!, name, type: 'splice' });
    return {
      plan: id('/api/plugins/fms/splice-plans/')!,
      tray: tray!,
      fiber_a: await port('fuzz-splice-a'),
      fiber_b: await port('fuzz-splice-b'),
    };
  },
  // Device bays (and their templates) need a device type whose subdevice role is parent.
  '/api/dcim/device-bay-templates/': async ({ id, create }) => ({
    device_type: await create('/api/dcim/device-types/', {
      manufacturer: id('/api/dcim/manufacturers/')!,
      model: 'fuzz-chassis-template',
      slug: 'fuzz-chassis-template',
      subdevice_role: 'parent',
    }),
    name: 'fuzz-bay-template',
  }),
  '/api/dcim/device-bays/': async ({ id, create }) => {
    const chassisType = await create('/api/dcim/device-types/', {
      manufacturer: id('/api/dcim/manufacturers/')!,
      model: 'fuzz-chassis',
      slug: 'fuzz-chassis',
      subdevice_role: 'parent',
    });
    const chassis = await create('/api/dcim/devices/', {
      name: 'fuzz-chassis',
      device_type: chassisType,
      role: id('/api/dcim/device-roles/')!,
      site: id('/api/dcim/sites/')!,
    });
    return { device: chassis, name: 'fuzz-bay' };
  },
  '/api/wireless/wireless-links/': async ({ id, create }) => {
    const radio = (name: string) => create('/api/dcim/interfaces/', { device: id('/api/dcim/devices/')!, name, type: 'ieee802.11ac' });
    return { interface_a: await radio('fuzz-radio-a'), interface_b: await radio('fuzz-radio-b') };
  },
  '/api/plugins/pathways/junctions/': async ({ id, create }) => {
    const structure = id('/api/plugins/pathways/structures/')!;
    // The seeded structure stands at the line's first point.
    const trunk = await create('/api/plugins/pathways/conduits/', { label: 'fuzz-trunk', start_structure: structure, path: LINE });
    return {
      trunk_conduit: trunk,
      branch_conduit: id('/api/plugins/pathways/conduits/')!,
      towards_structure: structure,
      position_on_trunk: 0.5,
    };
  },
  '/api/plugins/pathways/planned-routes/': async ({ id, create }) => {
    const end = await create('/api/plugins/pathways/structures/', {
      name: 'fuzz-route-end',
      geometry: { type: 'Point', coordinates: [7.2, 50.8] },
    });
    return { name: 'fuzz-route', start_structure: id('/api/plugins/pathways/structures/')!, end_structure: end };
  },
};

/** The documented request of the operations of one document: required fields filled from the schema, ids of seeded objects. */
class RequestBuilder {
  private counter = 0;

  constructor(
    private readonly document: OpenApiDocument,
    /** The seeded id for a field or path parameter, or undefined when there is none. */
    private readonly idFor: (name: string, readSchemaRef: string | undefined) => number | undefined,
    private readonly stringForPath: (name: string) => string | undefined,
    /** {@link EXTRA_FIELDS} of the model an operation writes, with its ids resolved. */
    private readonly extraFor: (path: string) => Record<string, Json> = () => ({}),
  ) {}

  next(): number {
    return ++this.counter;
  }

  /**
   * The body, or `{ unresolved }` naming a required reference with no seeded object (`lenient`: id 1
   * instead); `ownId` fills a required `id` (bulk routes). A body without a model's read schema
   * (an action's) also gets its optional references that name a seeded object, to reach past
   * "give one of …" checks.
   */
  body(
    schema: Schema,
    readSchema: Schema | undefined,
    ownId?: number,
    path = '',
    lenient = false,
  ): { value: Json } | { unresolved: string } {
    if (schema.oneOf) return this.body(resolveSchema(this.document, schema.oneOf[0]), readSchema, ownId, path, lenient);
    if (schema.type === 'array') {
      const item = this.body(resolveSchema(this.document, schema.items), readSchema, ownId, path, lenient);
      return 'value' in item ? { value: [item.value] } : item;
    }
    const n = this.next();
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const extras = this.extraFor(path);
    // A field the model's extras give is theirs, whatever the schema would make of it.
    const required = new Set<string>((schema.required ?? []).filter((name: string) => !(name in extras)));
    const value: Record<string, Json> = {};
    for (const [name, preferred] of Object.entries(PREFERRED)) if (name in properties) value[name] = preferred;
    for (const name of required) {
      const property = resolveSchema(this.document, properties[name]);
      if (name === 'id' && ownId !== undefined) {
        value.id = ownId;
        continue;
      }
      const typeOf = POLYMORPHIC_TYPE.exec(name);
      if (typeOf && property.type === 'string' && !property.enum) {
        value[name] = (POLYMORPHIC[typeOf[1] ?? ''] ?? DEFAULT_POLYMORPHIC)[0];
        continue;
      }
      const idOf = POLYMORPHIC_ID.exec(name);
      const prefix = idOf?.[1] ?? '';
      if (
        idOf &&
        property.type === 'integer' &&
        Object.keys(properties).some((other) => POLYMORPHIC_TYPE.exec(other)?.[1] === idOf[1] && other !== name)
      ) {
        const id = this.idFor(`list:${(POLYMORPHIC[prefix] ?? DEFAULT_POLYMORPHIC)[1]}`, undefined);
        if (id === undefined) return { unresolved: name };
        value[name] = id;
        continue;
      }
      const example = this.example(name, property, readSchema?.properties?.[name], n);
      if (example === undefined && !lenient) return { unresolved: name };
      value[name] = example ?? 1;
    }
    if (!readSchema)
      for (const [name, property] of Object.entries(properties)) {
        if (name in value) continue;
        const resolved = resolveSchema(this.document, property);
        const items = resolveSchema(this.document, resolved.items);
        const isReference =
          resolved.type === 'integer' || resolved.type === 'number' || items.type === 'integer' || items.type === 'number';
        const id = isReference ? this.idFor(name, undefined) : undefined;
        if (id !== undefined) value[name] = resolved.type === 'array' ? [id] : id;
      }
    for (const [name, extra] of Object.entries(extras)) {
      if (extra === null) return { unresolved: name };
      value[name] = extra;
    }
    return { value };
  }

  private example(name: string, schema: Schema, readProperty: Schema | undefined, n: number): Json | undefined {
    if (schema.example !== undefined) return schema.example as Json;
    if (schema.enum) return schema.enum[0] as Json;
    const reference = referencedSchemaName(readProperty);
    if (schema.type === 'integer' || schema.type === 'number') {
      if (reference || /_id$/.test(name)) return this.idFor(name, reference);
      return integerFor(name, schema, n);
    }
    if (schema.type === 'boolean') return false;
    if (schema.type === 'array') {
      const items = resolveSchema(this.document, schema.items);
      if (name === 'object_types') return ['dcim.site'];
      if (name === 'actions') return ['view'];
      if (name === 'event_types') return ['object_created'];
      if (items.type === 'integer' || items.type === 'number') {
        const id = this.idFor(name, reference);
        return id === undefined ? undefined : [id];
      }
      const item = this.example(name, items, undefined, n);
      return item === undefined ? [] : [item];
    }
    if (schema.type === 'object' || schema.type === undefined) return {};
    if (schema.format === 'date') return '2030-01-01';
    if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
    const text = stringFor(name, n) ?? `fuzz-${name}-${n}`;
    return typeof schema.maxLength === 'number' ? text.slice(0, schema.maxLength) : text;
  }

  /** The documented request of an operation: its path ids, its required query parameters and its body. */
  documented(operation: Operation, readSchema: Schema | undefined, ownId: number | undefined) {
    const pathValues: Record<string, string> = {};
    for (const parameter of parametersOf(operation, 'path'))
      pathValues[parameter.name] = this.stringForPath(parameter.name) ?? String(ownId ?? 1);
    const query: Array<[string, string]> = [];
    for (const parameter of parametersOf(operation, 'query').filter((p) => p.required))
      query.push([parameter.name, String(this.idFor(parameter.name, undefined) ?? 1)]);
    const requestBody = requestBodyOf(this.document, operation);
    let body: Json | undefined;
    if (requestBody) {
      const built = this.body(requestBody.schema, readSchema, ownId ?? 1, operation.method === 'DELETE' ? '' : operation.path, true);
      body = 'value' in built ? built.value : {};
    }
    return { pathValues, query, body, contentType: requestBody?.contentType };
  }
}

describe('route fuzz: every documented operation, four roles, no 5xx', () => {
  let seeded: SeededApp;

  beforeAll(async () => {
    seeded = await startSeededApp({
      AUTH_RATE_LIMIT: '100000/minute',
      AUTH_ADDRESS_RATE_LIMIT: '100000/minute',
      AUTH_USERNAME_RATE_LIMIT: '100000/hour',
      // The seeded webhook and IRR source point at a closed loopback port.
      EGRESS_ALLOW: '127.0.0.1',
    });
    base = seeded.testApp.baseUrl;
  });

  afterAll(async () => {
    await seeded.db.end();
    await seeded.testApp.close();
  });

  // Thousands of requests: minutes on a quiet machine, several times that at load 20.
  it('answers every fuzzed request below 500 and in time', async () => {
    const started = Date.now();
    const { api, w } = seeded;
    const root = w.root.token;

    // --- PKI side: an object of each kind in org1, principals at four levels.
    const created = async (path: string, body: unknown, token = root) => {
      const response = await api.post(path, body, token);
      if (response.status !== 201) throw new Error(`seeding ${path}: ${response.status} ${response.text}`);
      return response.body;
    };
    const victim = await created('/users/', {
      username: 'fuzz_victim',
      email: 'victim@example.com',
      password: PASSWORD,
      role: 'user',
      organization_id: w.org1.id,
    });
    // A CA belongs to its creator's organization: org1's admin makes it.
    const ca = await created('/cas/', { name: 'fuzz-ca', subject_dn: 'CN=Fuzz CA', key_type: 'ecdsa-p256' }, w.admin1.token);
    const certificate = (
      await api.request('POST', `/certificates/?ca_id=${ca.id}`, {
        token: w.admin1.token,
        json: { common_name: 'fuzz.example.com', certificate_type: 'server', key_type: 'ecdsa-p256', san_dns_names: ['fuzz.example.com'] },
      })
    ).body;
    const serviceAccount = await created('/service-accounts/', { name: 'fuzz-sa', organization_id: w.org1.id });
    const serviceToken = await created(`/service-accounts/${serviceAccount.id}/tokens`, { name: 'fuzz-token' });
    await api.put(`/service-accounts/${serviceAccount.id}/policy`, { max_validity_days: 30 }, root);
    const pkiIds: Record<string, number | string | undefined> = {
      user_id: victim.id,
      organization_id: w.org1.id,
      ca_id: ca.id,
      parent_ca_id: ca.id,
      cert_id: certificate?.id,
      id: serviceAccount.id,
      token_id: serviceToken?.id,
      serial: certificate?.serial_number,
      file: ca.slug ?? ca.name,
      allowed_ca_ids: ca.id,
    };
    const pkiPrincipal = (role: Role, username: string): Principal => {
      const principal: Principal = {
        role,
        headers: {},
        valid: async () =>
          (await send({ method: 'GET', path: '/api/v1/users/me', query: [], mutation: '' }, principal.headers)).status === 200,
        renew: async () => {
          principal.headers = { authorization: `Bearer ${await api.token(username, PASSWORD)}` };
        },
      };
      return principal;
    };
    const pkiPrincipals = [
      pkiPrincipal('none', w.loner.username),
      pkiPrincipal('readOnly', w.user1.username),
      pkiPrincipal('constrained', w.admin1.username),
      pkiPrincipal('superuser', 'root'),
    ];

    // --- Platform side: principals of their own, so a fuzzed PKI logout cannot end them.
    const platformUsers: Record<Role, { id: number; username: string }> = {} as never;
    for (const role of ROLES) {
      const username = `fuzz_platform_${role}`;
      const user = await created('/users/', {
        username,
        email: `${username}@example.com`,
        password: PASSWORD,
        role: role === 'superuser' ? 'superuser' : 'user',
      });
      platformUsers[role] = { id: user.id, username };
    }
    const platformPrincipal = (role: Role): Principal => {
      const principal: Principal = {
        role,
        headers: {},
        valid: async () =>
          (await send({ method: 'GET', path: '/api/dcim/sites/', query: [['limit', '1']], mutation: '' }, principal.headers)).status ===
          200,
        renew: async () => {
          principal.headers = { authorization: `Token ${await provisionToken(api, platformUsers[role].username, PASSWORD)}` };
        },
      };
      return principal;
    };
    const platformPrincipals = ROLES.map(platformPrincipal);
    for (const principal of [...pkiPrincipals, ...platformPrincipals]) await principal.renew();
    const superuser = platformPrincipals[3];
    const platformCall = async (method: string, path: string, body?: unknown) => {
      const answer = await send(
        {
          method,
          path,
          query: [],
          body: body === undefined ? undefined : { contentType: 'application/json', text: JSON.stringify(body) },
          mutation: '',
        },
        superuser.headers,
      );
      return { status: answer.status, body: answer.text ? JSON.parse(answer.text) : undefined, text: answer.text };
    };

    // Permissions: read-only views every object type; constrained may do anything on every other
    // object type, to objects with id ≤ 2 only; none has no permission.
    const objectTypes = (await platformCall('GET', '/api/core/object-types/?limit=1000')).body.results.map(
      (type: { app_label: string; model: string }) => `${type.app_label}.${type.model}`,
    ) as string[];
    expect(objectTypes.length).toBeGreaterThan(50);
    const grant = async (name: string, role: Role, types: string[], actions: string[], constraints?: unknown) => {
      const response = await platformCall('POST', '/api/users/permissions/', {
        name,
        object_types: types,
        actions,
        users: [platformUsers[role].id],
        ...(constraints ? { constraints } : {}),
      });
      if (response.status !== 201) throw new Error(`granting ${name}: ${response.status} ${response.text}`);
    };
    await grant('fuzz read-only', 'readOnly', objectTypes, ['view']);
    await grant(
      'fuzz constrained',
      'constrained',
      objectTypes.filter((_type, index) => index % 2 === 0),
      ['view', 'add', 'change', 'delete'],
      { id__lte: 2 },
    );

    // Seed: one object of every model that can be made from its schema, in dependency order.
    const listPathBySchema = new Map<string, string>();
    const readSchemaByListPath = new Map<string, Schema>();
    for (const [path, item] of Object.entries(PLATFORM_DOCUMENT.paths)) {
      const listRef = referencedSchemaName(item.get?.responses?.['200']?.content?.['application/json']?.schema);
      const model = listRef?.match(/^Paginated(.+)List$/)?.[1];
      if (!model || path.includes('{')) continue;
      listPathBySchema.set(model, path);
      readSchemaByListPath.set(path, resolveSchema(PLATFORM_DOCUMENT, { $ref: `#/components/schemas/${model}` }));
    }
    const seededIds = new Map<string, number>();
    const seedOrder: string[] = [];
    const listPathForName = (name: string): string | undefined => {
      const stem = name
        .replace(/_ids?$/, '')
        .replace(/s$/, '')
        .replace(/_/g, '-');
      const lists = [...listPathBySchema.values()];
      const endings = [`/${stem}s/`, `/${stem}es/`, `/${stem}/`, `-${stem}s/`, `-${stem}/`];
      for (const ending of endings) {
        const found = lists.find((path) => path.endsWith(ending));
        if (found) return found;
      }
      return undefined;
    };
    const platformIdFor = (name: string, reference: string | undefined): number | undefined => {
      if (name.startsWith('list:')) return seededIds.get(name.slice(5));
      const path = reference ? listPathBySchema.get(reference.replace(/^Brief/, '')) : listPathForName(name);
      return path ? seededIds.get(path) : undefined;
    };
    const platformPathValue = (name: string): string | undefined => {
      if (name === 'name') return 'fuzz';
      const id = platformIdFor(name, undefined);
      return id === undefined ? undefined : String(id);
    };
    const listPathOf = (path: string) =>
      [...readSchemaByListPath.keys()].filter((list) => path.startsWith(list)).sort((a, b) => b.length - a.length)[0];
    const platformBuilder = new RequestBuilder(PLATFORM_DOCUMENT, platformIdFor, platformPathValue, (path) => {
      const listPath = listPathOf(path) ?? '';
      const extra = path === listPath || path === `${listPath}{id}/` ? EXTRA_FIELDS[listPath] : undefined;
      return extra ? extra((list) => seededIds.get(list)) : {};
    });
    const seedable = operationsOf(PLATFORM_DOCUMENT, 'platform').filter(
      (operation) => operation.method === 'POST' && !operation.path.includes('{') && readSchemaByListPath.has(operation.path),
    );
    const seedErrors = new Map<string, string>();
    for (let pass = 0; pass < 10; pass++) {
      let progress = false;
      for (const operation of seedable) {
        if (seededIds.has(operation.path)) continue;
        const body = platformBuilder.body(
          requestBodyOf(PLATFORM_DOCUMENT, operation)!.schema,
          readSchemaByListPath.get(operation.path),
          undefined,
          operation.path,
        );
        if ('unresolved' in body) {
          seedErrors.set(operation.path, `no seeded object for ${body.unresolved}`);
          continue;
        }
        const response = await platformCall('POST', operation.path, body.value);
        if (response.status === 201) {
          seededIds.set(operation.path, [response.body].flat()[0].id);
          seedOrder.push(operation.path);
          seedErrors.delete(operation.path);
          progress = true;
        } else seedErrors.set(operation.path, `${response.status} ${response.text.slice(0, 300)} for ${JSON.stringify(body.value)}`);
      }
      if (!progress) break;
    }
    // An inbound email is stored by the mail endpoint (raw RFC 822), not by a model's POST.
    const email = await send(
      {
        method: 'POST',
        path: '/api/plugins/notices/inbound-email/',
        query: [],
        body: {
          contentType: 'message/rfc822',
          text: 'From: noc@example.net\r\nSubject: fuzz\r\nMessage-ID: <fuzz@example.net>\r\n\r\nNothing.\r\n',
        },
        mutation: '',
      },
      superuser.headers,
    );
    if (email.status >= 300) seedErrors.set('/api/plugins/notices/inbound-emails/', `${email.status} ${email.text.slice(0, 300)}`);
    // Lists the API does not create through (object types, changes, strands of a cable…): their first row.
    for (const path of readSchemaByListPath.keys()) {
      if (seededIds.has(path)) continue;
      const first = (await platformCall('GET', `${path}?limit=1`)).body?.results?.[0]?.id;
      if (typeof first === 'number') seededIds.set(path, first);
    }
    const seedTools: SeedTools = {
      id: (listPath) => seededIds.get(listPath),
      create: async (listPath, body) => {
        const response = await platformCall('POST', listPath, body);
        if (response.status !== 201) throw new Error(`seeding ${listPath}: ${response.status} ${response.text.slice(0, 300)}`);
        return response.body.id as number;
      },
    };
    for (const [path, step] of Object.entries(SEED_STEPS)) {
      if (seededIds.has(path)) continue;
      let body: Record<string, Json>;
      try {
        body = await step(seedTools);
      } catch (error) {
        seedErrors.set(path, (error as Error).message);
        continue;
      }
      const response = await platformCall('POST', path, body);
      if (response.status === 201) {
        seededIds.set(path, response.body.id);
        seedOrder.push(path);
        seedErrors.delete(path);
      } else seedErrors.set(path, `${response.status} ${response.text.slice(0, 300)} for ${JSON.stringify(body)}`);
    }
    if (process.env.FUZZ_VERBOSE) console.log(`seeded ${seededIds.size} of ${seedable.length}`, Object.fromEntries(seedErrors));

    const unseeded = [...readSchemaByListPath.keys()].filter((path) => !seededIds.has(path) && !UNSEEDED[path]);

    // --- The fuzz.
    const random = seededRandom(SEED);
    const failures: Failure[] = [];
    let requests = 0;
    const slow: string[] = [];
    const pkiBuilder = new RequestBuilder(
      PKI_DOCUMENT,
      (name) => {
        const id = pkiIds[name];
        return typeof id === 'number' ? id : undefined;
      },
      (name) => (pkiIds[name] === undefined ? undefined : String(pkiIds[name])),
    );
    const platformReadSchema = (operation: Operation) => readSchemaByListPath.get(listPathOf(operation.path) ?? '');
    const ownIdOf = (operation: Operation) => (operation.api === 'platform' ? seededIds.get(listPathOf(operation.path) ?? '') : undefined);
    const plans = [
      ...operationsOf(PKI_DOCUMENT, 'pki').map((operation) => ({
        operation,
        principals: pkiPrincipals,
        builder: pkiBuilder,
        readSchema: undefined as Schema | undefined,
      })),
      ...operationsOf(PLATFORM_DOCUMENT, 'platform').map((operation) => ({
        operation,
        principals: platformPrincipals,
        builder: platformBuilder,
        readSchema: platformReadSchema(operation),
      })),
    ].filter(({ operation }) => !SKIPPED[`${operation.method} ${operation.path}`]);
    // Deletes last, dependents before what they depend on, so the rest of the run has its objects.
    const deleteRank = (operation: Operation) => -seedOrder.indexOf(listPathOf(operation.path) ?? '');
    const ordered = [
      ...plans.filter(({ operation }) => operation.method !== 'DELETE'),
      ...plans.filter(({ operation }) => operation.method === 'DELETE').sort((a, b) => deleteRank(a.operation) - deleteRank(b.operation)),
    ];
    const touchesCredentials = (path: string) => /\/auth\/|\/users/.test(path);

    for (const { operation, principals, builder, readSchema } of ordered) {
      const documentFor = operation.api === 'pki' ? PKI_DOCUMENT : PLATFORM_DOCUMENT;
      for (const principal of principals) {
        const mutations = mutationsOf(operation, builder.documented(operation, readSchema, ownIdOf(operation)), documentFor);
        const picked = pickRequests(mutations, BUDGET[principal.role], random);
        if (principal.role === 'superuser') picked.push(...querySweep(mutations).filter((request) => !picked.includes(request)));
        // A delete's documented request removes the object: the mutations go first.
        if (operation.method === 'DELETE') picked.push(picked.shift()!);
        for (const request of picked) {
          const sent = Date.now();
          const answer = await send(request, principal.headers);
          requests++;
          const took = Date.now() - sent;
          if (took > 1000) slow.push(`${took} ms ${principal.role} ${describeRequest(request).slice(0, 200)}`);
          if (answer.status >= 500)
            failures.push({
              role: principal.role,
              operation: `${operation.method} ${operation.path}`,
              request: describeRequest(request),
              mutation: request.mutation,
              status: answer.status,
              body: answer.text.slice(0, 300),
            });
        }
        if (touchesCredentials(operation.path)) for (const each of principals) if (!(await each.valid())) await each.renew();
      }
    }

    if (process.env.FUZZ_VERBOSE) console.log(`${requests} requests in ${Math.round((Date.now() - started) / 1000)} s`, { slow });
    expect({
      unseeded: unseeded.map((path) => `${path}: ${seedErrors.get(path) ?? 'nothing to list'}`),
      failures: failures.map((failure) => `${failure.status} ${failure.role} ${failure.request} (${failure.mutation}) → ${failure.body}`),
    }).toEqual({ unseeded: [], failures: [] });
  }, 1_800_000);
});
