/**
 * The generic REST/GraphQL contract of one model, as jest cases: what NetBox's `APIViewTestCases`
 * (Get/List/Create/Update/Delete/GraphQL) check for every model, so that a plugin's e2e file only
 * declares its models and keeps its own tests for its rules.
 *
 * One declaration per model, inside a describe whose app is started once:
 *
 * ```ts
 * import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';
 *
 * describe('routing plugin: the REST and GraphQL contract of each model', () => {
 *   const app = usePlatformApp();
 *
 *   describeResourceApi({
 *     app,
 *     path: '/api/plugins/routing/prefix-list-entries/',
 *     objectType: 'routing.prefixlistentry',
 *     graphqlName: 'routing_prefix_list_entry',
 *     // Made once, before this model's cases; every body below may use them.
 *     fixtures: async ({ api, unique }) => ({ list: await api.created('/api/plugins/routing/prefix-lists/', { name: unique('PL'), family: 'ipv4' }) }),
 *     create: (fx) => [
 *       { prefix_list: fx.list.id, sequence: 10, action: 'permit', prefix: '10.0.0.0/8' },
 *       { prefix_list: fx.list.id, sequence: 20, action: 'deny', prefix: '192.168.0.0/16', le: 24 },
 *       { prefix_list: fx.list.id, sequence: 30, action: 'permit', prefix: '0.0.0.0/0' },
 *     ],
 *     update: { action: 'deny', ge: 12 },
 *     bulkUpdate: { action: 'permit' },
 *     brief: ['id', 'url', 'display', 'sequence', 'action', 'prefix'],
 *     filters: { 'action=deny': [1], 'sequence__gte=20': [1, 2] },
 *     invalid: [{ body: (fx) => ({ prefix_list: fx.list.id, sequence: 40, action: 'permit', prefix: '10.0.0.1/8' }), field: 'prefix' }],
 *   });
 * });
 * ```
 *
 * Every case starts with none of the declared objects stored: a case that needs them creates the
 * three `create` bodies (one bulk POST) and every object a case creates is deleted after it, so the
 * bodies may use fixed unique names. Fixtures stay for the whole app: name them with `unique()`
 * where another model's declaration in the same app could make the same one. Lists and filters
 * are read restricted to the case's own objects (`?id=…`), so other rows of the table do not matter.
 *
 * The cases, per model:
 * - list: the `{count, next, previous, results}` envelope; limit/offset pages with absolute links;
 * - brief: `?brief=true` on list and detail gives exactly the `brief` keys;
 * - get: `url`, `display`, `id`, the same body as the list; 404 `{"detail": "Not found."}` for an unknown id;
 * - create: 201 echoing each field sent, GET answers the same body, the row is stored; bulk create
 *   (a list → 201 list); atomic: one bad item → 400 with one error object per item, nothing written;
 *   each `invalid` body → 400 naming its field, nothing written;
 * - update: PATCH → 200 echoing `update`, GET agrees; bulk PATCH of every object with `bulkUpdate`
 *   (when absent, of the first with `update`); atomic: an item without id → 400, nothing changed;
 * - delete: 204 then 404, the row gone; bulk delete;
 * - filters: each query selects exactly the objects at the given indexes of `create`;
 * - object permissions, for a non-superuser: nothing granted → empty list, 404, 403 on every write,
 *   nothing written; `view` → sees them, still 403 on writes; `view` constrained to one object's id
 *   → only that one; `add`/`change`/`delete` → may write;
 * - tokens: a read-only token reads but every write is 403; no credentials → 403 on reads and writes;
 * - change log: create, update and delete each record one change under the request's id
 *   (`/api/core/object-changes/?changed_object_type=…&changed_object_id=…`);
 * - actions: each declared `{id}/<name>/` answers the superuser and a holder of its permission alike,
 *   403 without it or without credentials, 404 with it constrained to another object;
 * - GraphQL: `<graphqlName>(id)` and `<graphqlName>_list(filters: {id: […]})` give the ids, display and
 *   the fields sent on create as REST does (relations as `{id}`, choices as their value); a
 *   non-superuser without permission gets null and an empty list.
 */
import type { ApiResponse } from './api-client';
import { PASSWORD } from './api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from './platform-client';
import type { SeededApp } from './seeded-app';
import { Factories, factories, unique } from './factories';

/** The running app a declaration tests against (what {@link startPlatformApp} answers). */
export interface PlatformAppContext {
  seeded: SeededApp;
  /** The superuser's client. */
  api: PlatformClient;
  /** `http://127.0.0.1:<port>` */
  base: string;
}

/** A request body; a value of `null` clears a field. */
export type Body = Record<string, unknown>;

/** A value given outright, or computed from the declaration's fixtures. */
export type FromFixtures<F, T> = T | ((fixtures: F) => T);

/** What a `fixtures` function may use to build related objects. */
export interface FixtureTools {
  /** The superuser's client: `await api.created(path, body)` answers the 201 body. */
  api: PlatformClient;
  app: PlatformAppContext;
  /** `<prefix>-<n>`, unique in the test process: names for fixtures that another declaration could also make. */
  unique(prefix: string): string;
  /** Fixture factories acting as the superuser (test/support/factories): `await factories.device()`. */
  factories: Factories;
}

/** One model's contract. `F` is what `fixtures` builds, handed to every body computed from it. */
export interface ResourceApiSpec<F> {
  /** The app, read when the cases run: the getter {@link usePlatformApp} answers, or `() => ctx` of a file's own beforeAll. */
  app: () => PlatformAppContext;
  /** The list URL path, with the trailing slash: `/api/plugins/routing/bfd-profiles/`. */
  path: string;
  /** `<app_label>.<model>`, as the change log and permissions name it. */
  objectType: string;
  /** The model's GraphQL query name: `<graphqlName>(id)` and `<graphqlName>_list`; null for a model a spec leaves out of GraphQL (no GraphQL cases). */
  graphqlName: string | null;
  /** false: `<graphqlName>_list` takes no `filters` (a spec that names none); its cases read the list and keep their own objects. */
  graphqlListFilters?: boolean;
  /**
   * Keys sent on create that the GraphQL type does not carry yet, left out of the GraphQL comparison:
   * a known gap, named at the declaration with why (the key stays checked over REST).
   */
  graphqlOmits?: readonly string[];
  /** Its table, for the database checks; `<app_label>_<model>` when not given. */
  table?: string;
  /** Related objects made once, before this model's cases. */
  fixtures?: (tools: FixtureTools) => Promise<F>;
  /** Three valid create bodies, valid together (distinct unique fields). */
  create: FromFixtures<F, [Body, Body, Body]>;
  /** A valid PATCH of the first object: each field it sends must come back as sent. */
  update: FromFixtures<F, Body>;
  /** A valid PATCH of all three at once (no unique field); when absent, bulk PATCH updates the first with `update`. */
  bulkUpdate?: FromFixtures<F, Body>;
  /** The keys of the brief representation, exactly: `['id', 'url', 'display', 'name', 'description']`. */
  brief: readonly string[];
  /** Query string → indexes (into `create`) of the objects it selects: `{'name=fast': [0], 'multiplier__gte=3': [1, 2]}`. */
  filters?: FromFixtures<F, Record<string, readonly number[]>>;
  /**
   * Custom actions on one object (`{id}/<name>/`, e.g. `trace`, `paths`, `elevation`): each answers
   * 200 on the first `create` object to the superuser (`check` may assert its body) and the same body
   * to a non-superuser holding `permission` (default `view`); 403 without it or without credentials,
   * 404 with it constrained to another object.
   */
  actions?: ReadonlyArray<ResourceActionSpec<F>>;
  /** Bodies refused with 400 naming `field`. The first is the bad item of the atomic bulk create; `{}` when none is given. */
  invalid?: ReadonlyArray<{ body: FromFixtures<F, Body>; field: string }>;
}

/** One custom action of a model, as {@link ResourceApiSpec.actions} checks it. */
export interface ResourceActionSpec<F> {
  name: string;
  method?: 'GET' | 'POST';
  /** The object permission the action needs; `view` when not given. */
  permission?: string;
  /** A POST's body. */
  body?: FromFixtures<F, unknown>;
  /** Asserts the superuser's answer for the object (the stored `create` object, as the API shows it). */
  check?: (body: any, object: Record<string, any>, fixtures: F) => void;
}

const NOT_FOUND = { detail: 'Not found.' };
const NO_PERMISSION = { detail: 'You do not have permission to perform this action.' };
const NO_CREDENTIALS = { detail: 'Authentication credentials were not provided.' };
const UNKNOWN_ID = 2_147_483_000;
const NON_SUPERUSER = 'user1';

export { unique };

/**
 * Starts the platform app (superuser client, seeded users) before the enclosing describe's cases
 * and closes it after them; answers the getter a {@link ResourceApiSpec} takes as `app`.
 */
export function usePlatformApp(env: Record<string, string> = {}): () => PlatformAppContext {
  let context: PlatformAppContext | undefined;
  beforeAll(async () => {
    context = await startPlatformApp(env);
  });
  afterAll(async () => {
    await context?.seeded.db.end();
    await context?.seeded.testApp.close();
  });
  return () => {
    if (!context) throw new Error('the platform app is not started (usePlatformApp must be called in the describe whose cases use it)');
    return context;
  };
}

/** Clients of a non-superuser and a read-only superuser token, provisioned once per app. */
const tokensByApp = new WeakMap<PlatformAppContext, Promise<{ user: PlatformClient; userId: number; readOnly: PlatformClient }>>();

function otherClients(app: PlatformAppContext) {
  let clients = tokensByApp.get(app);
  if (!clients) {
    const { api: identities, w } = app.seeded;
    clients = (async () => ({
      user: app.api.as(await provisionToken(identities, NON_SUPERUSER, PASSWORD)),
      userId: w.user1.id,
      readOnly: app.api.as(await provisionToken(identities, w.root.username, PASSWORD, { write_enabled: false })),
    }))();
    tokensByApp.set(app, clients);
  }
  return clients;
}

function resolve<F, T>(value: FromFixtures<F, T>, fixtures: F): T {
  return typeof value === 'function' ? (value as (fixtures: F) => T)(fixtures) : value;
}

/**
 * A response field reduced to the form it was sent in: a related object sent as an id (or `{id}`)
 * to its id, a choice sent as its value to its value; lists element by element.
 */
function asSent(sent: unknown, actual: unknown): unknown {
  if (Array.isArray(sent) && Array.isArray(actual)) return actual.map((item, index) => asSent(sent[index], item));
  if (actual === null || typeof actual !== 'object') return actual;
  const object = actual as Record<string, unknown>;
  if (typeof sent === 'number' && 'id' in object) return object.id;
  if ((typeof sent === 'string' || typeof sent === 'number') && 'value' in object && 'label' in object) return object.value;
  if (typeof sent === 'object' && sent !== null && !Array.isArray(sent)) {
    return Object.fromEntries(Object.entries(sent as Record<string, unknown>).map(([key, value]) => [key, asSent(value, object[key])]));
  }
  return actual;
}

/** Fails unless every field of `sent` comes back in `actual` as it was sent. */
function expectEcho(sent: Body, actual: Record<string, unknown>): void {
  const echoed = Object.fromEntries(Object.keys(sent).map((key) => [key, asSent(sent[key], actual[key])]));
  expect(echoed).toEqual(sent);
}

/** A related object's id; any other value as it is. */
function relatedId(value: unknown): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'id' in value ? (value as { id: unknown }).id : value;
}

/** A response's status and, unless it is the expected one, its body: a failure shows why. */
function outcome(response: ApiResponse, expected: number): { status: number; body?: unknown } {
  return response.status === expected ? { status: response.status } : { status: response.status, body: response.body };
}

/** A `next`/`previous` link as origin, path and sorted parameters: parameter order is not part of the contract. */
function link(url: string | null): { origin: string; path: string; params: string[][] } | null {
  if (url === null) return null;
  const parsed = new URL(url);
  return {
    origin: parsed.origin,
    path: parsed.pathname,
    params: [...parsed.searchParams.entries()].sort((a, b) => a.join(',').localeCompare(b.join(','))),
  };
}

/** The GraphQL selection and the REST object's value of one field sent on create; none for a null, no selection for an empty list (their kind is unknown). */
function graphqlField(key: string, rest: unknown): { selection: string; value: unknown } | undefined {
  if (rest === null || rest === undefined) return undefined;
  // An empty list does not tell a list of objects (`key { id }`) from a list of values: no selection of its own.
  if (Array.isArray(rest) && rest.length === 0) return { selection: '', value: [] };
  const related = (value: unknown) =>
    typeof value === 'object' && value !== null && 'id' in value ? { id: String((value as { id: unknown }).id) } : undefined;
  if (Array.isArray(rest)) {
    if (!rest.every((item) => related(item))) return { selection: key, value: rest };
    return { selection: `${key} { id }`, value: rest.map(related) };
  }
  if (related(rest)) return { selection: `${key} { id }`, value: related(rest) };
  // GraphQL answers every choice's value as a string (integer choices such as a rack's width too).
  if (typeof rest === 'object' && 'value' in rest && 'label' in rest)
    return { selection: key, value: String((rest as { value: unknown }).value) };
  return { selection: key, value: rest };
}

/** A REST query string, restricted to these ids, as a GraphQL `filters` argument (each parameter a list of strings). */
function graphqlFilters(query: string, ids: readonly number[]): string {
  const params = new Map<string, string[]>([['id', ids.map(String)]]);
  for (const [name, value] of new URLSearchParams(query)) params.set(name, [...(name === 'id' ? [] : (params.get(name) ?? [])), value]);
  return `{ ${[...params].map(([name, values]) => `${name}: [${values.map((value) => JSON.stringify(value)).join(', ')}]`).join(', ')} }`;
}

/**
 * Declares, in a describe named after the model, the generic jest cases of one model's REST and
 * GraphQL API (listed at the top of this file) against the app `spec.app()`.
 */
export function describeResourceApi<F = Record<string, never>>(spec: ResourceApiSpec<F>): void {
  const table = spec.table ?? spec.objectType.replace('.', '_');

  describe(`${spec.objectType} (${spec.path})`, () => {
    let app: PlatformAppContext;
    let api: PlatformClient;
    let fixtures: F;
    /** Ids of the objects this case created (through {@link stored} or a tracked write), deleted after it. */
    const createdIds = new Set<number>();
    /** Permissions this case granted, deleted after it. */
    const permissionIds: number[] = [];

    const objectUrl = (id: number) => `${app.base}${spec.path}${id}/`;
    const bodies = () => resolve(spec.create, fixtures);
    const idQuery = (ids: readonly number[]) => ids.map((id) => `id=${id}`).join('&');
    const rows = (ids: readonly number[]) => countRows(app.seeded.db, table, 'WHERE id = ANY($1)', [[...ids]]);
    const tableRows = () => countRows(app.seeded.db, table);
    const changeRows = () => countRows(app.seeded.db, 'core_objectchange');
    const graphql = (client: PlatformClient, query: string) => client.post('/graphql/', { query });
    /** The `_list` arguments that select these objects: an id filter, or the largest page where the list takes no filter. */
    const listArguments = (ids: readonly number[]) =>
      spec.graphqlListFilters === false ? '(pagination: { limit: 1000 })' : `(filters: { id: [${ids.map((id) => `"${id}"`).join(', ')}] })`;
    // A model outside GraphQL has no GraphQL cases; a list without filters has no filter cases.
    const skip = () => undefined;
    const describeGraphql = spec.graphqlName === null ? skip : describe;
    const itWithGraphqlFilters = spec.graphqlName === null || spec.graphqlListFilters === false ? skip : it;

    /** The three `create` objects, stored with one bulk POST, in the order of `create`. */
    async function stored(): Promise<Array<Record<string, any>>> {
      const response = await api.post(spec.path, bodies());
      expect(outcome(response, 201)).toEqual({ status: 201 });
      for (const object of response.body) createdIds.add(object.id);
      return response.body;
    }

    /** A tracked POST (created objects are deleted after the case). */
    async function post(client: PlatformClient, body: unknown): Promise<ApiResponse> {
      const response = await client.post(spec.path, body);
      if (response.status === 201) for (const object of [response.body].flat()) createdIds.add(object.id);
      return response;
    }

    /** The client's list restricted to these ids (and the query): `count` and the result ids. */
    async function listed(client: PlatformClient, ids: readonly number[], query = ''): Promise<{ count: number; ids: number[] }> {
      const response = await client.get(`${spec.path}?limit=1000&${idQuery(ids)}${query ? `&${query}` : ''}`);
      expect(outcome(response, 200)).toEqual({ status: 200 });
      return { count: response.body.count, ids: response.body.results.map((result: { id: number }) => result.id) };
    }

    async function changes(id: number, action: string): Promise<Array<Record<string, any>>> {
      const response = await api.get(
        `/api/core/object-changes/?limit=1000&changed_object_type=${spec.objectType}&changed_object_id=${id}&action=${action}`,
      );
      expect(outcome(response, 200)).toEqual({ status: 200 });
      return response.body.results;
    }

    async function grant(actions: string[], constraints?: unknown): Promise<void> {
      const { userId } = await otherClients(app);
      const response = await api.post('/api/users/permissions/', {
        name: unique(`kit ${spec.objectType} ${actions.join('+')}`),
        object_types: [spec.objectType],
        actions,
        users: [userId],
        ...(constraints === undefined ? {} : { constraints }),
      });
      expect(outcome(response, 201)).toEqual({ status: 201 });
      permissionIds.push(response.body.id);
    }

    /** A refused attempt writes nothing: the table, the given rows and the change log stay as they were. */
    async function expectNothingWritten(ids: readonly number[], attempt: () => Promise<void>): Promise<void> {
      const snapshot = async () => (await app.seeded.db.query(`SELECT * FROM ${table} WHERE id = ANY($1) ORDER BY id`, [[...ids]])).rows;
      const [before, count, changeCount] = [await snapshot(), await tableRows(), await changeRows()];
      await attempt();
      expect({ rows: await snapshot(), count: await tableRows(), changes: await changeRows() }).toEqual({
        rows: before,
        count,
        changes: changeCount,
      });
    }

    beforeAll(async () => {
      app = spec.app();
      api = app.api;
      fixtures = spec.fixtures ? await spec.fixtures({ api, app, unique, factories: factories(api) }) : ({} as F);
    });

    afterEach(async () => {
      for (const id of permissionIds.splice(0)) expect((await api.delete(`/api/users/permissions/${id}/`)).status).toBe(204);
      const ids = [...createdIds];
      createdIds.clear();
      if (ids.length === 0) return;
      const remaining = (await listed(api, ids)).ids;
      if (remaining.length > 0)
        expect(
          outcome(
            await api.delete(
              spec.path,
              remaining.map((id) => ({ id })),
            ),
            204,
          ),
        ).toEqual({ status: 204 });
    });

    describe('list and get', () => {
      it('lists with the {count, next, previous, results} envelope', async () => {
        const objects = await stored();
        const ids = objects.map((object) => object.id);
        const response = await api.get(`${spec.path}?${idQuery(ids)}`);
        expect(outcome(response, 200)).toEqual({ status: 200 });
        expect(Object.keys(response.body).sort()).toEqual(['count', 'next', 'previous', 'results']);
        expect({ count: response.body.count, next: response.body.next, previous: response.body.previous }).toEqual({
          count: 3,
          next: null,
          previous: null,
        });
        expect([...response.body.results].sort((a, b) => a.id - b.id)).toEqual([...objects].sort((a, b) => a.id - b.id));
      });

      it('pages with limit and offset, linking next and previous absolutely', async () => {
        const ids = (await stored()).map((object) => object.id);
        const ordered = (await listed(api, ids)).ids;
        const page = async (offset: number) => {
          const response = await api.get(`${spec.path}?${idQuery(ids)}&limit=1&offset=${offset}`);
          expect(outcome(response, 200)).toEqual({ status: 200 });
          return response.body;
        };
        const pageLink = (offset: number) => link(`${app.base}${spec.path}?${idQuery(ids)}&limit=1${offset ? `&offset=${offset}` : ''}`);
        const [first, second, last] = [await page(0), await page(1), await page(2)];
        expect([first, second, last].map((body) => body.count)).toEqual([3, 3, 3]);
        expect([first, second, last].map((body) => body.results.map((result: { id: number }) => result.id))).toEqual(
          ordered.map((id) => [id]),
        );
        expect([link(first.previous), link(first.next)]).toEqual([null, pageLink(1)]);
        expect([link(second.previous), link(second.next)]).toEqual([pageLink(0), pageLink(2)]);
        expect([link(last.previous), link(last.next)]).toEqual([pageLink(1), null]);
      });

      it('?brief=true gives exactly the brief fields, on the list and on one object', async () => {
        const [object] = await stored();
        const list = await api.get(`${spec.path}?brief=true&id=${object.id}`);
        expect(outcome(list, 200)).toEqual({ status: 200 });
        expect(list.body.results.map((result: object) => Object.keys(result).sort())).toEqual([[...spec.brief].sort()]);
        const one = await api.get(`${spec.path}${object.id}/?brief=true`);
        expect(outcome(one, 200)).toEqual({ status: 200 });
        expect(one.body).toEqual(list.body.results[0]);
        // A related object may be briefer still inside a brief object: compared by id.
        const reduced = (body: Record<string, unknown>) => Object.fromEntries(spec.brief.map((key) => [key, relatedId(body[key])]));
        expect(reduced(one.body)).toEqual(reduced(object));
      });

      it('gets one object with its id, absolute url and display, as listed', async () => {
        const objects = await stored();
        const listedBodies = (await api.get(`${spec.path}?${idQuery(objects.map((object) => object.id))}`)).body.results;
        for (const object of objects) {
          const response = await api.get(`${spec.path}${object.id}/`);
          expect(outcome(response, 200)).toEqual({ status: 200 });
          expect(response.body).toMatchObject({ id: object.id, url: objectUrl(object.id), display: expect.any(String) });
          expect(response.body.display).not.toBe('');
          expect(response.body).toEqual(listedBodies.find((listedBody: { id: number }) => listedBody.id === object.id));
        }
      });

      it('answers 404 {"detail": "Not found."} for an unknown id, on GET, PATCH and DELETE', async () => {
        const path = `${spec.path}${UNKNOWN_ID}/`;
        for (const response of [await api.get(path), await api.patch(path, resolve(spec.update, fixtures)), await api.delete(path)]) {
          expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: NOT_FOUND });
        }
      });
    });

    describe('create', () => {
      it('creates each object: 201 echoing what was sent, stored, and read back alike', async () => {
        for (const body of bodies()) {
          const response = await post(api, body);
          expect(outcome(response, 201)).toEqual({ status: 201 });
          expect(response.body).toMatchObject({ id: expect.any(Number), url: objectUrl(response.body.id) });
          expectEcho(body, response.body);
          expect(await rows([response.body.id])).toBe(1);
          expect((await api.get(`${spec.path}${response.body.id}/`)).body).toEqual(response.body);
        }
      });

      it('bulk create: a list answers 201 with the list, in order', async () => {
        const before = await tableRows();
        const response = await post(api, bodies());
        expect(outcome(response, 201)).toEqual({ status: 201 });
        expect(Array.isArray(response.body)).toBe(true);
        expect(response.body).toHaveLength(3);
        bodies().forEach((body, index) => expectEcho(body, response.body[index]));
        expect(await tableRows()).toBe(before + 3);
      });

      it('bulk create is atomic: one bad item → 400 with one error object per item, nothing written', async () => {
        const [first, second] = bodies();
        const bad = spec.invalid?.[0];
        await expectNothingWritten([], async () => {
          const response = await post(api, [first, bad ? resolve(bad.body, fixtures) : {}, second]);
          expect(response.status).toBe(400);
          expect(response.body).toEqual([{}, bad ? expect.objectContaining({ [bad.field]: expect.any(Array) }) : expect.any(Object), {}]);
          expect(Object.keys(response.body[1]).length).toBeGreaterThan(0);
        });
      });

      it('refuses each invalid body with 400 naming its field, writing nothing', async () => {
        const invalid = spec.invalid ?? [{ body: {}, field: '' }];
        await expectNothingWritten([], async () => {
          for (const { body, field } of invalid) {
            const response = await post(api, resolve(body, fixtures));
            expect({ status: response.status, fields: Object.keys(response.body ?? {}) }).toEqual({
              status: 400,
              fields: field ? expect.arrayContaining([field]) : expect.arrayContaining([expect.any(String)]),
            });
          }
        });
      });
    });

    describe('update', () => {
      it('PATCH changes the fields sent: 200 echoing them, read back alike', async () => {
        const [object] = await stored();
        const update = resolve(spec.update, fixtures);
        const response = await api.patch(`${spec.path}${object.id}/`, update);
        expect(outcome(response, 200)).toEqual({ status: 200 });
        expectEcho(update, response.body);
        expect(response.body.id).toBe(object.id);
        expect((await api.get(`${spec.path}${object.id}/`)).body).toEqual(response.body);
      });

      it('bulk PATCH updates each object listed by id', async () => {
        const objects = await stored();
        const changed = spec.bulkUpdate ? objects : objects.slice(0, 1);
        const update = resolve(spec.bulkUpdate ?? spec.update, fixtures);
        const response = await api.patch(
          spec.path,
          changed.map((object) => ({ id: object.id, ...update })),
        );
        expect(outcome(response, 200)).toEqual({ status: 200 });
        expect(response.body.map((object: { id: number }) => object.id)).toEqual(changed.map((object) => object.id));
        for (const object of response.body) {
          expectEcho(update, object);
          expect((await api.get(`${spec.path}${object.id}/`)).body).toEqual(object);
        }
      });

      it('bulk PATCH is atomic: an item without id → 400 per item, nothing changed', async () => {
        const objects = await stored();
        const update = resolve(spec.update, fixtures);
        await expectNothingWritten(
          objects.map((object) => object.id),
          async () => {
            const response = await api.patch(spec.path, [{ id: objects[0].id, ...update }, { ...update }]);
            expect({ status: response.status, body: response.body }).toEqual({
              status: 400,
              body: [{}, { id: ['This field is required.'] }],
            });
          },
        );
      });
    });

    describe('delete', () => {
      it('DELETE answers 204, then the object is 404 and its row gone', async () => {
        const [object] = await stored();
        const response = await api.delete(`${spec.path}${object.id}/`);
        expect(outcome(response, 204)).toEqual({ status: 204 });
        expect((await api.get(`${spec.path}${object.id}/`)).status).toBe(404);
        expect(await rows([object.id])).toBe(0);
      });

      it('bulk DELETE of a list of {id} deletes them all (204)', async () => {
        const ids = (await stored()).map((object) => object.id);
        const response = await api.delete(
          spec.path,
          ids.map((id) => ({ id })),
        );
        expect(outcome(response, 204)).toEqual({ status: 204 });
        expect(await rows(ids)).toBe(0);
        expect(await listed(api, ids)).toEqual({ count: 0, ids: [] });
      });
    });

    if (spec.filters) {
      describe('filters', () => {
        it('each filter selects exactly the objects it names', async () => {
          const ids = (await stored()).map((object) => object.id);
          for (const [query, indexes] of Object.entries(resolve(spec.filters ?? {}, fixtures))) {
            const selected = (await listed(api, ids, query)).ids.sort((a, b) => a - b);
            expect({ query, ids: selected }).toEqual({ query, ids: indexes.map((index) => ids[index]).sort((a, b) => a - b) });
          }
        });

        itWithGraphqlFilters('each filter, as a GraphQL list filter, selects the same objects', async () => {
          const ids = (await stored()).map((object) => object.id);
          for (const [query, indexes] of Object.entries(resolve(spec.filters ?? {}, fixtures))) {
            const response = await graphql(api, `{ list: ${spec.graphqlName}_list(filters: ${graphqlFilters(query, ids)}) { id } }`);
            expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 200, errors: undefined });
            const selected = response.body.data.list
              .map((object: { id: string }) => Number(object.id))
              .sort((a: number, b: number) => a - b);
            expect({ query, ids: selected }).toEqual({ query, ids: indexes.map((index) => ids[index]).sort((a, b) => a - b) });
          }
        });
      });
    }

    describe('object permissions (a non-superuser)', () => {
      it('without permission: an empty list, 404 on one object, 403 on every write, nothing written', async () => {
        const objects = await stored();
        const ids = objects.map((object) => object.id);
        const { user } = await otherClients(app);
        expect(await listed(user, ids)).toEqual({ count: 0, ids: [] });
        expect(await user.get(`${spec.path}${ids[0]}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
        await expectNothingWritten(ids, async () => {
          for (const response of [
            await post(user, bodies()[0]),
            await user.patch(`${spec.path}${ids[0]}/`, resolve(spec.update, fixtures)),
            await user.delete(`${spec.path}${ids[0]}/`),
          ]) {
            expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: NO_PERMISSION });
          }
        });
      });

      it('with view: sees every object as the superuser does, writes still 403', async () => {
        const objects = await stored();
        const ids = objects.map((object) => object.id);
        const { user } = await otherClients(app);
        await grant(['view']);
        expect(await listed(user, ids)).toEqual(await listed(api, ids));
        expect((await user.get(`${spec.path}${ids[1]}/`)).body).toEqual(objects[1]);
        await expectNothingWritten(ids, async () => {
          expect((await user.patch(`${spec.path}${ids[0]}/`, resolve(spec.update, fixtures))).status).toBe(403);
          expect((await user.delete(`${spec.path}${ids[0]}/`)).status).toBe(403);
        });
      });

      it('with view constrained to one object: sees only that one, 404 on the others', async () => {
        const ids = (await stored()).map((object) => object.id);
        const { user } = await otherClients(app);
        await grant(['view'], { id: ids[1] });
        expect(await listed(user, ids)).toEqual({ count: 1, ids: [ids[1]] });
        expect((await user.get(`${spec.path}${ids[1]}/`)).status).toBe(200);
        expect(await user.get(`${spec.path}${ids[0]}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      });

      it('with add, change and delete: creates, updates and deletes', async () => {
        const { user } = await otherClients(app);
        await grant(['view', 'add', 'change', 'delete']);
        const created = await post(user, bodies()[0]);
        expect(outcome(created, 201)).toEqual({ status: 201 });
        const update = resolve(spec.update, fixtures);
        const updated = await user.patch(`${spec.path}${created.body.id}/`, update);
        expect(outcome(updated, 200)).toEqual({ status: 200 });
        expectEcho(update, updated.body);
        expect(outcome(await user.delete(`${spec.path}${created.body.id}/`), 204)).toEqual({ status: 204 });
        expect(await rows([created.body.id])).toBe(0);
      });
    });

    for (const action of spec.actions ?? []) {
      describe(`action ${action.name}/`, () => {
        const call = (client: PlatformClient, id: number) =>
          action.method === 'POST'
            ? client.post(`${spec.path}${id}/${action.name}/`, resolve(action.body ?? {}, fixtures))
            : client.get(`${spec.path}${id}/${action.name}/`);

        it('answers the superuser (200) and, the same, a non-superuser holding its permission', async () => {
          const [object] = await stored();
          const answer = await call(api, object.id);
          expect(outcome(answer, 200)).toEqual({ status: 200 });
          action.check?.(answer.body, object, fixtures);
          const { user } = await otherClients(app);
          await grant([action.permission ?? 'view']);
          const granted = await call(user, object.id);
          expect({ status: granted.status, body: granted.body }).toEqual({ status: 200, body: answer.body });
        });

        it('is 403 without the permission or credentials, 404 with the permission constrained to another object', async () => {
          const [object, other] = await stored();
          const { user } = await otherClients(app);
          expect(await call(user, object.id)).toMatchObject({ status: 403, body: NO_PERMISSION });
          await grant([action.permission ?? 'view'], { id: other.id });
          expect(await call(user, object.id)).toMatchObject({ status: 404, body: NOT_FOUND });
          expect(await call(api.as(undefined), object.id)).toMatchObject({ status: 403, body: NO_CREDENTIALS });
          expect(outcome(await call(api, UNKNOWN_ID), 404)).toEqual({ status: 404 });
        });
      });
    }

    describe('tokens and credentials', () => {
      it('a read-only token reads, and every write is 403 with nothing written', async () => {
        const objects = await stored();
        const ids = objects.map((object) => object.id);
        const { readOnly } = await otherClients(app);
        expect((await readOnly.get(`${spec.path}${ids[0]}/`)).body).toEqual(objects[0]);
        await expectNothingWritten(ids, async () => {
          for (const response of [
            await post(readOnly, { ...bodies()[0] }),
            await readOnly.patch(`${spec.path}${ids[0]}/`, resolve(spec.update, fixtures)),
            await readOnly.patch(spec.path, [{ id: ids[0], ...resolve(spec.update, fixtures) }]),
            await readOnly.delete(`${spec.path}${ids[0]}/`),
            await readOnly.delete(spec.path, [{ id: ids[0] }]),
          ]) {
            expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { detail: expect.any(String) } });
          }
        });
      });

      it('without credentials, every read and write is 403', async () => {
        const [object] = await stored();
        const anonymous = api.as(undefined);
        await expectNothingWritten([object.id], async () => {
          for (const response of [
            await anonymous.get(spec.path),
            await anonymous.get(`${spec.path}${object.id}/`),
            await post(anonymous, bodies()[1]),
            await anonymous.patch(`${spec.path}${object.id}/`, resolve(spec.update, fixtures)),
            await anonymous.delete(`${spec.path}${object.id}/`),
          ]) {
            expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: NO_CREDENTIALS });
          }
        });
      });
    });

    describe('change log', () => {
      it('create, update and delete each record one change under the request id', async () => {
        const created = await post(api, bodies()[0]);
        expect(outcome(created, 201)).toEqual({ status: 201 });
        const id = created.body.id as number;
        const updated = await api.patch(`${spec.path}${id}/`, resolve(spec.update, fixtures));
        expect(outcome(updated, 200)).toEqual({ status: 200 });
        const deleted = await api.delete(`${spec.path}${id}/`);
        expect(outcome(deleted, 204)).toEqual({ status: 204 });
        const recorded = async (action: string) =>
          (await changes(id, action)).map((change) => ({
            action: change.action.value,
            request_id: change.request_id,
            changed_object_type: change.changed_object_type,
          }));
        for (const [action, response] of [
          ['create', created],
          ['update', updated],
          ['delete', deleted],
        ] as const) {
          expect(await recorded(action)).toEqual([
            { action, request_id: response.headers.get('x-request-id'), changed_object_type: spec.objectType },
          ]);
        }
        expect((await changes(id, 'create'))[0].object_repr).toBe(created.body.display);
      });
    });

    describeGraphql('GraphQL', () => {
      /**
       * The GraphQL selection of the fields sent on create (each whose kind one of the REST objects
       * shows by a value), and a REST object in the form GraphQL answers it.
       */
      function graphqlShape(objects: Array<Record<string, unknown>>): {
        fields: string;
        expected: (rest: Record<string, unknown>) => Record<string, unknown>;
      } {
        const selections = new Map<string, string>();
        const sent = new Set(bodies().flatMap((body) => Object.keys(body)));
        for (const key of [...sent].filter((name) => !spec.graphqlOmits?.includes(name))) {
          const shown = objects.map((object) => graphqlField(key, object[key])).find((field) => field?.selection);
          if (shown) selections.set(key, shown.selection);
        }
        const expected = (rest: Record<string, unknown>) => ({
          id: String(rest.id),
          display: rest.display,
          ...Object.fromEntries([...selections.keys()].map((key) => [key, graphqlField(key, rest[key])?.value ?? null])),
        });
        return { fields: ['id', 'display', ...selections.values()].join(' '), expected };
      }

      it(`<graphqlName>(id) and <graphqlName>_list answer what REST does`, async () => {
        const ids = (await stored()).map((object) => object.id);
        const rest: Array<Record<string, unknown>> = (await api.get(`${spec.path}?${idQuery(ids)}`)).body.results;
        const { fields, expected } = graphqlShape(rest);
        const response = await graphql(
          api,
          `{ one: ${spec.graphqlName}(id: ${ids[0]}) { ${fields} } missing: ${spec.graphqlName}(id: ${UNKNOWN_ID}) { id } list: ${spec.graphqlName}_list${listArguments(ids)} { ${fields} } }`,
        );
        expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 200, errors: undefined });
        const own = (list: Array<{ id: string }>) => list.filter((object) => ids.includes(Number(object.id)));
        expect({ ...response.body.data, list: own(response.body.data.list) }).toEqual({
          one: expected(rest.find((object) => object.id === ids[0])!),
          missing: null,
          list: rest.map(expected),
        });
      });

      it('a non-superuser without permission gets null and an empty list', async () => {
        const ids = (await stored()).map((object) => object.id);
        const { user } = await otherClients(app);
        const response = await graphql(
          user,
          `{ one: ${spec.graphqlName}(id: ${ids[0]}) { id } list: ${spec.graphqlName}_list${listArguments([ids[0]])} { id } }`,
        );
        expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { data: { one: null, list: [] } } });
      });
    });
  });
}
