import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { ApiClient, ApiResponse, PASSWORD } from './support/api-client';
import { PlatformClient } from './support/platform-client';
import { startSeededApp, World } from './support/seeded-app';
import { TestApp } from './support/test-app';

/**
 * Authentication and authorization on the NetBox-style platform API (`/api/…`): platform API tokens
 * (provisioning, storage, own-token management, expiry, read-only tokens), the PKI's JWTs and
 * service-account tokens on platform routes, and NetBox object permissions (constraints, groups,
 * enabled flag, superuser bypass) on dcim.site; `/api/users/users/` and `/api/users/groups/`.
 */

const KEY = /^[0-9a-f]{40}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const NOT_FOUND = { detail: 'Not found.' };
const NO_PERMISSION = { detail: 'You do not have permission to perform this action.' };

interface Provisioned {
  /** The 201 body, with the one-time `key`. */
  body: any;
  key: string;
  id: number;
}

describe('platform API authentication and object permissions', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  /** Platform client without credentials; `.as(…)` / `bearer(…)` / `tokenClient(…)` add them. */
  let anonymous: PlatformClient;
  /** The superuser, with its PKI JWT. */
  let root: PlatformClient;
  let seq = 0;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp());
    anonymous = new PlatformClient(testApp.baseUrl);
    root = bearer(w.root.token);
  });

  afterAll(async () => {
    await db?.end();
    await testApp?.close();
  });

  function bearer(jwt: string): PlatformClient {
    return anonymous.as(undefined, { authorization: `Bearer ${jwt}` });
  }

  function tokenClient(key: string): PlatformClient {
    return anonymous.as(key);
  }

  function withHeader(authorization: string): PlatformClient {
    return anonymous.as(undefined, { authorization });
  }

  async function provision(username: string, options: Record<string, unknown> = {}): Promise<Provisioned> {
    const response = await api.post('/api/users/tokens/provision/', { username, password: PASSWORD, ...options });
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return { body: response.body, key: response.body.key as string, id: response.body.id as number };
  }

  async function tokenRow(id: number): Promise<any> {
    return (await db.query('SELECT * FROM users_token WHERE id = $1', [id])).rows[0];
  }

  async function count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
    return (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params)).rows[0].n as number;
  }

  async function siteRow(id: number): Promise<any> {
    return (await db.query('SELECT * FROM dcim_site WHERE id = $1', [id])).rows[0];
  }

  /** The refusal NetBox gives to missing, bad or insufficient credentials: 403, `{"detail": …}`, no challenge. */
  function expectDenied(response: ApiResponse, detail: unknown = expect.any(String)): void {
    expect({ status: response.status, body: response.body, challenge: response.headers.get('www-authenticate') }).toEqual({
      status: 403,
      body: { detail },
      challenge: null,
    });
  }

  async function createSite(fields: Record<string, unknown> = {}, client: PlatformClient = root): Promise<any> {
    const name = `site-${++seq}`;
    const response = await client.post('/api/dcim/sites/', { name, slug: name, ...fields });
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  async function createTenant(): Promise<any> {
    const name = `tenant-${++seq}`;
    const response = await root.post('/api/tenancy/tenants/', { name, slug: name });
    expect(response.status).toBe(201);
    return response.body;
  }

  describe('API tokens', () => {
    it('provisions a token with username and password: a 40-hex key shown once, the rest as NetBox shows a token', async () => {
      const before = await count('users_token');
      const response = await api.post('/api/users/tokens/provision/', {
        username: 'user1',
        password: PASSWORD,
        description: 'provisioned',
        write_enabled: false,
        expires: '2999-01-01T00:00:00Z',
      });
      expect(response.status).toBe(201);
      const key = response.body.key as string;
      expect(key).toMatch(KEY);
      expect(response.body).toEqual({
        id: expect.any(Number),
        url: `${testApp.baseUrl}/api/users/tokens/${response.body.id}/`,
        display: `**********${key.slice(-4)}`,
        user: { id: w.user1.id, url: `${testApp.baseUrl}/api/users/users/${w.user1.id}/`, display: 'user1', username: 'user1' },
        created: expect.stringMatching(ISO),
        expires: '2999-01-01T00:00:00.000Z',
        last_used: null,
        write_enabled: false,
        description: 'provisioned',
        key,
      });
      expect(await count('users_token')).toBe(before + 1);
      const row = await tokenRow(response.body.id);
      expect(row).toMatchObject({
        user_id: w.user1.id,
        key_suffix: key.slice(-4),
        write_enabled: false,
        description: 'provisioned',
        last_used: null,
      });
      expect(row.expires.toISOString()).toBe('2999-01-01T00:00:00.000Z');
    });

    it('stores only a keyed digest and the last four characters: the key is in no table and no log line', async () => {
      const { key, id } = await provision('user2');
      const row = await tokenRow(id);
      expect(Object.keys(row).sort()).toEqual([
        'created',
        'description',
        'expires',
        'id',
        'key_digest',
        'key_suffix',
        'last_used',
        'user_id',
        'write_enabled',
      ]);
      expect(row.key_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(row.key_digest).not.toBe(key);
      // A keyed HMAC, not a bare hash anyone could recompute from a guessed key.
      expect(row.key_digest).not.toBe(createHash('sha256').update(key).digest('hex'));
      expect(row.key_suffix).toBe(key.slice(-4));
      // Use it once, so last_used, change logs and audit trails have had their chance to record it.
      expect((await tokenClient(key).get('/api/dcim/sites/')).status).toBe(200);

      const tables = await db.query<{ schema: string; name: string }>(
        `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
          WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
      );
      expect(tables.rows.length).toBeGreaterThan(10);
      const holding: string[] = [];
      for (const { schema, name } of tables.rows) {
        const found = await db.query(`SELECT 1 FROM "${schema}"."${name}" t WHERE strpos(lower(t::text), $1) > 0 LIMIT 1`, [key]);
        if (found.rows.length > 0) holding.push(`${schema}.${name}`);
      }
      expect(holding).toEqual([]);
      expect(testApp.logs.text()).not.toContain(key);

      // …and it is never shown again.
      const shown = await tokenClient(key).get(`/api/users/tokens/${id}/`);
      expect(shown.status).toBe(200);
      expect(shown.body).not.toHaveProperty('key');
      expect(shown.text).not.toContain(key);
      const listed = await tokenClient(key).get('/api/users/tokens/');
      expect(listed.text).not.toContain(key);
    });

    it('refuses a wrong password or unknown user with 403 and stores nothing', async () => {
      const before = await count('users_token');
      for (const body of [
        { username: 'user1', password: 'not-the-password' },
        { username: 'user1', password: `${PASSWORD} ` },
        { username: 'nobody-here', password: PASSWORD },
      ]) {
        const response = await api.post('/api/users/tokens/provision/', { ...body, write_enabled: true });
        expectDenied(response);
        expect(response.text).not.toContain('key');
      }
      expect(await count('users_token')).toBe(before);
    });

    it('answers 400 naming the missing credentials, storing nothing', async () => {
      const before = await count('users_token');
      const response = await api.post('/api/users/tokens/provision/', { username: 'user1' });
      expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { password: ['This field is required.'] } });
      const empty = await api.post('/api/users/tokens/provision/', {});
      expect({ status: empty.status, body: empty.body }).toEqual({
        status: 400,
        body: { username: ['This field is required.'], password: ['This field is required.'] },
      });
      expect(await count('users_token')).toBe(before);
    });

    it('lists, retrieves, updates and deletes own tokens; another user’s tokens do not exist; superusers see all', async () => {
      const mine = await provision('user1', { description: 'mine' });
      const other = await provision('user1', { description: 'other of mine' });
      const theirs = await provision('user2', { description: 'theirs' });
      const rootToken = await provision('root');
      const me = tokenClient(mine.key);

      const list = await me.get('/api/users/tokens/?limit=1000');
      expect(list.status).toBe(200);
      const ownIds = (await db.query('SELECT id FROM users_token WHERE user_id = $1 ORDER BY id', [w.user1.id])).rows.map((r) => r.id);
      expect(list.body.count).toBe(ownIds.length);
      expect(list.body.results.map((t: any) => t.id)).toEqual(ownIds);
      expect(list.body.results.every((t: any) => t.user.id === w.user1.id)).toBe(true);
      expect(list.body.results.map((t: any) => t.id)).toEqual(expect.arrayContaining([mine.id, other.id]));

      // The same user through a JWT sees the same list.
      const viaJwt = await bearer(w.user1.token).get('/api/users/tokens/?limit=1000');
      expect(viaJwt.body.results.map((t: any) => t.id)).toEqual(ownIds);

      const retrieved = await me.get(`/api/users/tokens/${other.id}/`);
      expect(retrieved.status).toBe(200);
      const { key: _key, ...withoutKey } = other.body;
      expect(retrieved.body).toEqual(withoutKey);

      const patched = await me.patch(`/api/users/tokens/${other.id}/`, { description: 'renamed', write_enabled: false });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id: other.id, description: 'renamed', write_enabled: false });
      expect(await tokenRow(other.id)).toMatchObject({ description: 'renamed', write_enabled: false });

      // Another user's token: 404 for every operation, and it stays as it was.
      const theirsBefore = await tokenRow(theirs.id);
      expect(await me.get(`/api/users/tokens/${theirs.id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await me.patch(`/api/users/tokens/${theirs.id}/`, { description: 'hijacked' })).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await me.put(`/api/users/tokens/${theirs.id}/`, { description: 'hijacked' })).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await me.delete(`/api/users/tokens/${theirs.id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await tokenRow(theirs.id)).toEqual(theirsBefore);
      expect(list.body.results.map((t: any) => t.id)).not.toContain(theirs.id);

      // A token cannot be moved to, or created for, another user by a non-superuser.
      expect(await me.patch(`/api/users/tokens/${other.id}/`, { user: w.user2.id })).toMatchObject({ status: 400 });
      expect((await tokenRow(other.id)).user_id).toBe(w.user1.id);
      const tokensBefore = await count('users_token');
      expectDenied(await me.post('/api/users/tokens/', { user: w.user2.id, description: 'for someone else' }));
      expect(await count('users_token')).toBe(tokensBefore);

      // Superusers see every token, by platform token and by JWT.
      const total = await count('users_token');
      for (const client of [tokenClient(rootToken.key), root]) {
        const all = await client.get('/api/users/tokens/?limit=1000');
        expect(all.status).toBe(200);
        expect(all.body.count).toBe(total);
        expect(all.body.results.map((t: any) => t.id)).toEqual(expect.arrayContaining([mine.id, other.id, theirs.id, rootToken.id]));
        expect(await client.get(`/api/users/tokens/${theirs.id}/`)).toMatchObject({
          status: 200,
          body: { id: theirs.id, user: { id: w.user2.id } },
        });
      }

      // Deleting one's own token: 204, the row is gone, the key no longer authenticates.
      const deleted = await me.delete(`/api/users/tokens/${other.id}/`);
      expect(deleted.status).toBe(204);
      expect(await tokenRow(other.id)).toBeUndefined();
      expect(await me.get(`/api/users/tokens/${other.id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      expectDenied(await tokenClient(other.key).get('/api/dcim/sites/'));
    });

    it('creates a token for oneself through POST /api/users/tokens/ (shown once), superusers for anyone', async () => {
      const me = bearer(w.user2.token);
      const created = await me.post('/api/users/tokens/', { description: 'via create' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        user: { id: w.user2.id },
        description: 'via create',
        write_enabled: true,
        key: expect.stringMatching(KEY),
      });
      expect((await tokenClient(created.body.key).get('/api/users/tokens/')).status).toBe(200);

      const forUser = await root.post('/api/users/tokens/', { user: w.loner.id, write_enabled: false });
      expect(forUser.status).toBe(201);
      expect(forUser.body).toMatchObject({ user: { id: w.loner.id }, write_enabled: false });
      expect((await tokenRow(forUser.body.id)).user_id).toBe(w.loner.id);
    });

    it('records last_used when a token authenticates', async () => {
      const token = await provision('user2');
      expect((await tokenRow(token.id)).last_used).toBeNull();
      const before = (await db.query('SELECT now() AS now')).rows[0].now as Date;
      expect((await tokenClient(token.key).get('/api/dcim/sites/')).status).toBe(200);
      const row = await tokenRow(token.id);
      expect(row.last_used).toBeInstanceOf(Date);
      expect(row.last_used.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      const shown = await root.get(`/api/users/tokens/${token.id}/`);
      expect(shown.body.last_used).toBe(row.last_used.toISOString());
    });

    it('refuses an expired token (403) and does not mark it used; a future expiry works', async () => {
      const expired = await provision('user1', { expires: '2001-01-01T00:00:00Z' });
      expectDenied(await tokenClient(expired.key).get('/api/dcim/sites/'));
      expectDenied(await tokenClient(expired.key).get('/api/users/tokens/'));
      expect((await tokenRow(expired.id)).last_used).toBeNull();

      const future = await provision('user1', { expires: '2999-01-01T00:00:00Z' });
      expect((await tokenClient(future.key).get('/api/dcim/sites/')).status).toBe(200);
      // Expiring it through the API (with another token of the same user) takes effect at once.
      const other = await provision('user1');
      const patched = await tokenClient(other.key).patch(`/api/users/tokens/${future.id}/`, { expires: '2002-02-02T00:00:00Z' });
      expect(patched).toMatchObject({ status: 200, body: { expires: '2002-02-02T00:00:00.000Z' } });
      expectDenied(await tokenClient(future.key).get('/api/dcim/sites/'));
    });

    it('refuses missing, malformed and unknown credentials with 403 and no challenge', async () => {
      const valid = await provision('user1');
      const headers = [
        undefined,
        'Token xyz',
        'Token',
        'Token ',
        `Token ${valid.key} extra`,
        `Token ${valid.key.toUpperCase()}`,
        `Token ${'0'.repeat(40)}`,
        `Token ${valid.key.slice(0, 39)}`,
        `Token ${valid.key}0`,
        `Basic ${Buffer.from(`user1:${PASSWORD}`).toString('base64')}`,
        `Bearer ${valid.key}`,
        'Bearer not-a-jwt',
        `Bearer ${w.user1.token}x`,
        valid.key,
      ];
      for (const header of headers) {
        const client = header === undefined ? anonymous : withHeader(header);
        for (const path of ['/api/dcim/sites/', '/api/users/tokens/', '/api/users/users/']) {
          const response = await client.get(path);
          expect({ header, path, status: response.status, challenge: response.headers.get('www-authenticate') }).toEqual({
            header,
            path,
            status: 403,
            challenge: null,
          });
          expect(response.body).toEqual({ detail: expect.any(String) });
        }
      }
      expect(await anonymous.get('/api/dcim/sites/')).toMatchObject({ body: { detail: 'Authentication credentials were not provided.' } });
      // The valid key itself still works, with the keyword in any case.
      expect((await withHeader(`Token ${valid.key}`).get('/api/dcim/sites/')).status).toBe(200);
      expect((await withHeader(`token ${valid.key}`).get('/api/dcim/sites/')).status).toBe(200);
    });

    it('accepts the PKI’s user JWTs as Bearer credentials on platform routes', async () => {
      for (const fixture of [w.root, w.user1, w.admin1]) {
        const response = await bearer(fixture.token).get('/api/dcim/sites/');
        expect({ who: fixture.username, status: response.status }).toEqual({ who: fixture.username, status: 200 });
        expect(response.body).toEqual({ count: expect.any(Number), next: null, previous: null, results: expect.any(Array) });
      }
      const created = await bearer(w.root.token).post('/api/tenancy/tenants/', { name: `jwt-tenant-${++seq}`, slug: `jwt-tenant-${seq}` });
      expect(created.status).toBe(201);
    });

    it('refuses a JWT whose session was logged out with 403 (not 401) on platform routes', async () => {
      const jwt = await api.token('user2', PASSWORD);
      expect((await bearer(jwt).get('/api/dcim/sites/')).status).toBe(200);
      expect((await api.post('/auth/logout', undefined, jwt)).status).toBe(204);
      expectDenied(await bearer(jwt).get('/api/dcim/sites/'));
    });

    it('does not accept platform tokens on the PKI API', async () => {
      const { key } = await provision('root');
      for (const authorization of [`Token ${key}`, `Bearer ${key}`]) {
        const response = await api.request('GET', '/users/me', { headers: { authorization } });
        expect({ authorization, status: response.status }).toEqual({ authorization, status: 401 });
      }
      expect((await api.get('/users/me', w.root.token)).status).toBe(200);
    });

    it('refuses a PKI service-account token on platform routes (as Bearer and as Token), though the PKI API accepts it', async () => {
      const account = await api.post('/service-accounts/', { name: `platform-robot-${++seq}` }, w.admin1.token);
      expect(account.status).toBe(201);
      const minted = await api.post(`/service-accounts/${account.body.id}/tokens`, { name: 'platform-probe' }, w.admin1.token);
      expect(minted.status).toBe(201);
      const saToken = minted.body.token as string;
      expect(saToken).toMatch(/^pki_sa_/);
      // It is a working credential on the PKI side…
      expect((await api.get('/cas/', saToken)).status).toBe(200);
      // …and nothing on the platform side.
      const tokensBefore = await count('users_token');
      for (const header of [`Bearer ${saToken}`, `Token ${saToken}`]) {
        for (const [method, path, body] of [
          ['GET', '/api/dcim/sites/', undefined],
          ['GET', '/api/users/tokens/', undefined],
          ['POST', '/api/users/tokens/', { description: 'robot' }],
          ['POST', '/api/tenancy/tenants/', { name: 'robot-tenant', slug: 'robot-tenant' }],
        ] as const) {
          const response = await withHeader(header).request(method, path, body);
          expectDenied(response);
        }
      }
      expect(await count('users_token')).toBe(tokensBefore);
      expect(await count('tenancy_tenant', 'slug = $1', ['robot-tenant'])).toBe(0);
    });

    it('refuses the tokens of a deactivated user, and refuses to provision one for it; reactivation does not revive them', async () => {
      const token = await provision('loner');
      expect((await tokenClient(token.key).get('/api/dcim/sites/')).status).toBe(200);
      const deactivated = await api.patch(`/users/${w.loner.id}`, { is_active: false }, w.root.token);
      expect(deactivated.status).toBe(200);
      try {
        expectDenied(await tokenClient(token.key).get('/api/dcim/sites/'));
        const before = await count('users_token');
        expectDenied(await api.post('/api/users/tokens/provision/', { username: 'loner', password: PASSWORD }));
        expect(await count('users_token')).toBe(before);
      } finally {
        expect((await api.patch(`/users/${w.loner.id}`, { is_active: true }, w.root.token)).status).toBe(200);
      }
      expectDenied(await tokenClient(token.key).get('/api/dcim/sites/'), 'Invalid token');
      expect(await count('users_token', 'id = $1', [token.id])).toBe(0);
    });
  });

  describe('API tokens and the PKI sessions of their user', () => {
    let serial = 0;

    async function freshUser(): Promise<{ id: number; username: string; jwt: string }> {
      const username = `holder-${++serial}`;
      const created = await api.post('/users/', { username, email: `${username}@example.com`, password: PASSWORD }, w.root.token);
      expect(created.status).toBe(201);
      return { id: created.body.id, username, jwt: await api.token(username, PASSWORD) };
    }

    async function expectRevoked(tokens: Provisioned[]): Promise<void> {
      for (const token of tokens) {
        expectDenied(await tokenClient(token.key).get('/api/dcim/sites/'), 'Invalid token');
        expect(await count('users_token', 'id = $1', [token.id])).toBe(0);
      }
    }

    it('revokes every inventory token of a user whose password changes, by self or by a superuser', async () => {
      for (const changer of ['self', 'superuser'] as const) {
        const user = await freshUser();
        const tokens = [await provision(user.username), await provision(user.username, { expires: '2999-01-01T00:00:00Z' })];
        const minted = await bearer(user.jwt).post('/api/users/tokens/', { description: 'minted' });
        expect(minted.status).toBe(201);
        tokens.push({ body: minted.body, key: minted.body.key, id: minted.body.id });
        const bystander = await provision('user2');
        const changed = await api.patch(
          `/users/${user.id}`,
          { password: 'another-long-password' },
          changer === 'self' ? user.jwt : w.root.token,
        );
        expect(changed.status).toBe(200);
        await expectRevoked(tokens);
        expect((await tokenClient(bystander.key).get('/api/dcim/sites/')).status).toBe(200);
      }
    });

    it('revokes them on POST /auth/invalidate, and keeps them on logout of one session', async () => {
      const user = await freshUser();
      const token = await provision(user.username);
      const logout = await api.request('POST', '/auth/logout', { token: user.jwt });
      expect(logout.status).toBe(204);
      expect((await tokenClient(token.key).get('/api/dcim/sites/')).status).toBe(200);

      const jwt = await api.token(user.username, PASSWORD);
      const invalidate = await api.request('POST', '/auth/invalidate', { token: jwt });
      expect(invalidate.status).toBe(204);
      await expectRevoked([token]);
    });

    it('gives tokens created without an expiry API_TOKEN_DEFAULT_EXPIRY_DAYS (90), and refuses expires: null', async () => {
      const user = await freshUser();
      const before = Date.now();
      const provisioned = await provision(user.username);
      const minted = await bearer(user.jwt).post('/api/users/tokens/', {});
      expect(minted.status).toBe(201);
      for (const body of [provisioned.body, minted.body]) {
        const expires = Date.parse(body.expires as string);
        expect(expires).toBeGreaterThanOrEqual(before + 90 * 86_400_000 - 1000);
        expect(expires).toBeLessThanOrEqual(Date.now() + 90 * 86_400_000 + 1000);
      }
      const refusal = { expires: ['Tokens must expire; leave it out for 90 days from now.'] };
      const tokensBefore = await count('users_token');
      const provisionNull = await api.post('/api/users/tokens/provision/', { username: user.username, password: PASSWORD, expires: null });
      expect({ status: provisionNull.status, body: provisionNull.body }).toEqual({ status: 400, body: refusal });
      const mintNull = await bearer(user.jwt).post('/api/users/tokens/', { expires: null });
      expect({ status: mintNull.status, body: mintNull.body }).toEqual({ status: 400, body: refusal });
      expect(await count('users_token')).toBe(tokensBefore);
      const patchNull = await bearer(user.jwt).patch(`/api/users/tokens/${minted.body.id}/`, { expires: null });
      expect({ status: patchNull.status, body: patchNull.body }).toEqual({ status: 400, body: refusal });
      expect((await tokenRow(minted.body.id)).expires).toBeInstanceOf(Date);
    });
  });

  describe('read-only tokens', () => {
    let readOnly: Provisioned;
    let writable: Provisioned;
    let permissionId: number;
    let site: any;

    beforeAll(async () => {
      readOnly = await provision('user1', { write_enabled: false });
      writable = await provision('user1', { write_enabled: true });
      const permission = await root.post('/api/users/permissions/', {
        name: `user1 sites and tenants ${++seq}`,
        object_types: ['dcim.site', 'tenancy.tenant', 'extras.tag'],
        actions: ['view', 'add', 'change', 'delete'],
        users: [w.user1.id],
      });
      expect(permission.status).toBe(201);
      permissionId = permission.body.id;
      site = await createSite({ status: 'active', description: 'read-only target' });
    });

    afterAll(async () => {
      expect((await root.delete(`/api/users/permissions/${permissionId}/`)).status).toBe(204);
    });

    it('lets a read-only token make every GET', async () => {
      const client = tokenClient(readOnly.key);
      for (const path of [
        '/api/dcim/sites/',
        `/api/dcim/sites/${site.id}/`,
        '/api/dcim/sites/?brief=true',
        '/api/tenancy/tenants/',
        '/api/extras/tags/',
        '/api/users/users/',
        '/api/users/groups/',
        '/api/users/permissions/',
        '/api/users/tokens/',
        `/api/users/tokens/${readOnly.id}/`,
      ]) {
        const response = await client.get(path);
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
      }
      const detail = await client.get(`/api/dcim/sites/${site.id}/`);
      expect(detail.body).toEqual(site);
    });

    it('refuses every write to sites with a read-only token (403) and writes nothing', async () => {
      const client = tokenClient(readOnly.key);
      const rowBefore = await siteRow(site.id);
      const sitesBefore = await count('dcim_site');
      const changesBefore = await count('core_objectchange');
      const attempts: Array<[string, string, unknown]> = [
        ['POST', '/api/dcim/sites/', { name: 'ro-new', slug: 'ro-new' }],
        ['POST', '/api/dcim/sites/', [{ name: 'ro-bulk', slug: 'ro-bulk' }]],
        ['PATCH', `/api/dcim/sites/${site.id}/`, { description: 'changed by read-only' }],
        ['PUT', `/api/dcim/sites/${site.id}/`, { name: site.name, slug: site.slug, description: 'changed by read-only' }],
        ['PATCH', '/api/dcim/sites/', [{ id: site.id, description: 'changed by read-only' }]],
        ['PUT', '/api/dcim/sites/', [{ id: site.id, name: site.name, slug: site.slug, description: 'changed by read-only' }]],
        ['DELETE', `/api/dcim/sites/${site.id}/`, undefined],
        ['DELETE', '/api/dcim/sites/', [{ id: site.id }]],
        ['POST', '/api/tenancy/tenants/', { name: 'ro-tenant', slug: 'ro-tenant' }],
        ['POST', '/api/extras/tags/', { name: 'ro-tag', slug: 'ro-tag' }],
      ];
      for (const [method, path, body] of attempts) {
        const response = await client.request(method, path, body);
        expect({ method, path, status: response.status, challenge: response.headers.get('www-authenticate') }).toEqual({
          method,
          path,
          status: 403,
          challenge: null,
        });
        expect(response.body).toEqual({ detail: expect.any(String) });
      }
      expect(await siteRow(site.id)).toEqual(rowBefore);
      expect(await count('dcim_site')).toBe(sitesBefore);
      expect(await count('core_objectchange')).toBe(changesBefore);
      expect(await count('tenancy_tenant', 'slug = $1', ['ro-tenant'])).toBe(0);
      expect(await count('extras_tag', 'slug = $1', ['ro-tag'])).toBe(0);
    });

    it('refuses token management writes with a read-only token', async () => {
      const client = tokenClient(readOnly.key);
      const before = await tokenRow(readOnly.id);
      const tokensBefore = await count('users_token');
      expectDenied(await client.patch(`/api/users/tokens/${readOnly.id}/`, { write_enabled: true }));
      expectDenied(await client.put(`/api/users/tokens/${readOnly.id}/`, { write_enabled: true }));
      expectDenied(await client.post('/api/users/tokens/', { description: 'escalate' }));
      expectDenied(await client.delete(`/api/users/tokens/${readOnly.id}/`));
      expect(await tokenRow(readOnly.id)).toEqual(before);
      expect(await count('users_token')).toBe(tokensBefore);
    });

    it('lets a write-enabled token of the same user write', async () => {
      const client = tokenClient(writable.key);
      const created = await client.post('/api/dcim/sites/', { name: 'rw-new', slug: 'rw-new', status: 'planned' });
      expect(created.status).toBe(201);
      expect((await siteRow(created.body.id)).status).toBe('planned');
      const patched = await client.patch(`/api/dcim/sites/${created.body.id}/`, { description: 'written' });
      expect(patched).toMatchObject({ status: 200, body: { description: 'written' } });
      expect((await siteRow(created.body.id)).description).toBe('written');
      const put = await client.put(`/api/dcim/sites/${created.body.id}/`, { name: 'rw-new', slug: 'rw-new', status: 'staging' });
      expect(put).toMatchObject({ status: 200, body: { status: { value: 'staging' } } });
      expect((await client.delete(`/api/dcim/sites/${created.body.id}/`)).status).toBe(204);
      expect(await siteRow(created.body.id)).toBeUndefined();
    });

    it('holds a superuser’s read-only token to reads too', async () => {
      const rootReadOnly = await provision('root', { write_enabled: false });
      const client = tokenClient(rootReadOnly.key);
      expect((await client.get('/api/dcim/sites/')).status).toBe(200);
      const before = await count('dcim_site');
      expectDenied(await client.post('/api/dcim/sites/', { name: 'root-ro', slug: 'root-ro' }));
      expectDenied(await client.delete(`/api/dcim/sites/${site.id}/`));
      expect(await count('dcim_site')).toBe(before);
    });
  });

  describe('object permissions', () => {
    let user1: PlatformClient;
    let tenantA: any;
    let tenantB: any;
    const fixture: Record<'amsActive' | 'amsPlanned' | 'fraActive' | 'fraPlanned' | 'lonRetired', any> = {} as any;
    /** Permissions and groups made by a test, removed after it. */
    const permissionIds: number[] = [];
    const groupIds: number[] = [];

    beforeAll(async () => {
      user1 = tokenClient((await provision('user1')).key);
      tenantA = await createTenant();
      tenantB = await createTenant();
      fixture.amsActive = await createSite({ name: 'ams-active', slug: 'ams-active', status: 'active', tenant: tenantA.id });
      fixture.amsPlanned = await createSite({ name: 'ams-planned', slug: 'ams-planned', status: 'planned', tenant: tenantA.id });
      fixture.fraActive = await createSite({ name: 'fra-active', slug: 'fra-active', status: 'active', tenant: tenantB.id });
      fixture.fraPlanned = await createSite({ name: 'fra-planned', slug: 'fra-planned', status: 'planned' });
      fixture.lonRetired = await createSite({ name: 'lon-retired', slug: 'lon-retired', status: 'retired' });
    });

    afterEach(async () => {
      for (const id of permissionIds.splice(0)) expect((await root.delete(`/api/users/permissions/${id}/`)).status).toBe(204);
      for (const id of groupIds.splice(0)) expect((await root.delete(`/api/users/groups/${id}/`)).status).toBe(204);
    });

    /** A permission made by the superuser (assigned to user1 unless `users`/`groups` say otherwise). */
    async function grant(body: Record<string, unknown>): Promise<any> {
      const response = await root.post('/api/users/permissions/', {
        name: `permission ${++seq}`,
        object_types: ['dcim.site'],
        users: [w.user1.id],
        ...body,
      });
      expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
        status: 201,
        body: undefined,
      });
      permissionIds.push(response.body.id);
      return response.body;
    }

    async function group(users: number[]): Promise<any> {
      const response = await root.post('/api/users/groups/', { name: `group ${++seq}`, users });
      expect(response.status).toBe(201);
      groupIds.push(response.body.id);
      return response.body;
    }

    /** Site ids matching a SQL condition, in the API's default order (name, then id). */
    async function siteIds(where: string, params: unknown[] = []): Promise<number[]> {
      return (await db.query(`SELECT id FROM dcim_site WHERE ${where} ORDER BY name, id`, params)).rows.map((row) => row.id as number);
    }

    /** What the client's site list shows: `count` and the ids of the results. */
    async function listed(client: PlatformClient, query = ''): Promise<{ count: number; ids: number[] }> {
      const response = await client.get(`/api/dcim/sites/?limit=1000${query}`);
      expect(response.status).toBe(200);
      return { count: response.body.count, ids: response.body.results.map((site: any) => site.id) };
    }

    async function expectListed(client: PlatformClient, ids: number[], query = ''): Promise<void> {
      expect(await listed(client, query)).toEqual({ count: ids.length, ids });
    }

    /** A refused write changes nothing: the rows, the site count and the change log stay as they were. */
    async function expectUnchanged(ids: number[], action: () => Promise<void>): Promise<void> {
      const snapshot = async () => {
        const rows: any[] = [];
        for (const id of ids) rows.push(await siteRow(id));
        return rows;
      };
      const rows = await snapshot();
      const sites = await count('dcim_site');
      const changes = await count('core_objectchange');
      await action();
      expect(await snapshot()).toEqual(rows);
      expect(await count('dcim_site')).toBe(sites);
      expect(await count('core_objectchange')).toBe(changes);
    }

    it('without any permission: empty list, 404 on detail, 403 on create, nothing written', async () => {
      for (const client of [user1, bearer(w.user1.token), bearer(w.admin1.token)]) {
        const list = await client.get('/api/dcim/sites/');
        expect({ status: list.status, body: list.body }).toEqual({
          status: 200,
          body: { count: 0, next: null, previous: null, results: [] },
        });
        expect(await client.get(`/api/dcim/sites/${fixture.amsActive.id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
        await expectUnchanged([fixture.amsActive.id], async () => {
          const created = await client.post('/api/dcim/sites/', { name: 'no-permission', slug: 'no-permission' });
          expect({ status: created.status, body: created.body }).toEqual({ status: 403, body: NO_PERMISSION });
          const patched = await client.patch(`/api/dcim/sites/${fixture.amsActive.id}/`, { description: 'no permission' });
          expect({ status: patched.status, body: patched.body }).toEqual({ status: 403, body: NO_PERMISSION });
          const deleted = await client.delete(`/api/dcim/sites/${fixture.amsActive.id}/`);
          expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 403, body: NO_PERMISSION });
        });
      }
    });

    it('view constrained to {"status": "active"} shows only active sites', async () => {
      await grant({ actions: ['view'], constraints: { status: 'active' } });
      const active = await siteIds(`status = 'active'`);
      expect(active).toEqual(expect.arrayContaining([fixture.amsActive.id, fixture.fraActive.id]));
      await expectListed(user1, active);
      // The JWT of the same user is restricted alike.
      await expectListed(bearer(w.user1.token), active);
      // Request filters narrow further, never widen.
      await expectListed(user1, [], '&status=planned');
      await expectListed(user1, [fixture.amsActive.id], '&name=ams-active');
      expect(await user1.get(`/api/dcim/sites/${fixture.amsActive.id}/`)).toMatchObject({
        status: 200,
        body: { id: fixture.amsActive.id },
      });
      expect(await user1.get(`/api/dcim/sites/${fixture.amsPlanned.id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await user1.get(`/api/dcim/sites/${fixture.lonRetired.id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      // Another user is not affected by user1's permission.
      await expectListed(bearer(w.user2.token), []);
    });

    it.each<[string, () => unknown, () => Promise<number[]>]>([
      ['{"name__istartswith": "AMS"}', () => ({ name__istartswith: 'AMS' }), () => siteIds(`name ILIKE 'ams%'`)],
      ['{"tenant": <id>}', () => ({ tenant: tenantA.id }), () => siteIds('tenant_id = $1', [tenantA.id])],
      ['{"tenant__slug": <slug>}', () => ({ tenant__slug: tenantB.slug }), () => siteIds('tenant_id = $1', [tenantB.id])],
      [
        '{"id__in": [...]}',
        () => ({ id__in: [fixture.fraPlanned.id, fixture.lonRetired.id] }),
        () => siteIds('id = ANY($1)', [[fixture.fraPlanned.id, fixture.lonRetired.id]]),
      ],
      ['{"tenant__isnull": true}', () => ({ tenant__isnull: true }), () => siteIds('tenant_id IS NULL')],
      ['two lookups in one object are AND', () => ({ status: 'active', tenant: tenantA.id }), async () => [fixture.amsActive.id]],
      [
        'a list of objects is OR',
        () => [{ status: 'planned' }, { name__istartswith: 'lon' }],
        () => siteIds(`status = 'planned' OR name ILIKE 'lon%'`),
      ],
      ['{} (no restriction)', () => ({}), () => siteIds('true')],
      ['[{"status": "retired"}, {}] (an empty set permits all)', () => [{ status: 'retired' }, {}], () => siteIds('true')],
    ])('view constrained by %s', async (_description, constraints, expected) => {
      await grant({ actions: ['view'], constraints: constraints() });
      const ids = await expected();
      expect(ids.length).toBeGreaterThan(0);
      await expectListed(user1, ids);
    });

    it('request filters with several parameters combine (AND) with multi-parameter constraints', async () => {
      await grant({
        actions: ['view'],
        constraints: [
          { status: 'planned', tenant: tenantA.id },
          { id__in: [fixture.fraActive.id, fixture.lonRetired.id] },
          { name__istartswith: 'fra-p' },
        ],
      });
      const query = '&status=planned&status=active&name__isw=a&name__isw=f&q=a';
      const expected = await siteIds(
        `((status = 'planned' AND tenant_id = $1) OR id = ANY($2) OR name ILIKE 'fra-p%')
         AND status IN ('planned', 'active') AND (name ILIKE 'a%' OR name ILIKE 'f%')
         AND (name ILIKE '%a%' OR facility ILIKE '%a%' OR description ILIKE '%a%' OR comments ILIKE '%a%')`,
        [tenantA.id, [fixture.fraActive.id, fixture.lonRetired.id]],
      );
      expect(expected).toEqual([fixture.amsPlanned.id, fixture.fraActive.id, fixture.fraPlanned.id]);
      await expectListed(user1, expected, query);
      const page = await user1.get(`/api/dcim/sites/?limit=1&offset=1${query}`);
      expect(page.body).toMatchObject({ count: 3, results: [{ id: fixture.fraActive.id }] });
    });

    it('several permissions add up (OR); an unconstrained one grants everything', async () => {
      await grant({ actions: ['view'], constraints: { status: 'retired' } });
      await grant({ actions: ['view'], constraints: { tenant: tenantB.id } });
      await expectListed(user1, await siteIds(`status = 'retired' OR tenant_id = $1`, [tenantB.id]));
      await grant({ actions: ['view'], constraints: null });
      await expectListed(user1, await siteIds('true'));
      expect((await listed(user1)).count).toBe(await count('dcim_site'));
    });

    it('add with constraints: outside → 403 and nothing written, inside → 201', async () => {
      await grant({ actions: ['view'] });
      await grant({ actions: ['add'], constraints: { status: 'planned', tenant: tenantA.id } });
      const outside: Array<Record<string, unknown>> = [
        { name: 'add-active', slug: 'add-active', status: 'active', tenant: tenantA.id },
        { name: 'add-default-status', slug: 'add-default-status', tenant: tenantA.id },
        { name: 'add-other-tenant', slug: 'add-other-tenant', status: 'planned', tenant: tenantB.id },
        { name: 'add-no-tenant', slug: 'add-no-tenant', status: 'planned' },
      ];
      await expectUnchanged([], async () => {
        for (const body of outside) {
          const response = await user1.post('/api/dcim/sites/', body);
          expect({ name: body.name, status: response.status }).toEqual({ name: body.name, status: 403 });
          expect(response.body).toEqual({ detail: expect.any(String) });
        }
        // Bulk create is atomic: one object outside, none written.
        const bulk = await user1.post('/api/dcim/sites/', [
          { name: 'add-bulk-ok', slug: 'add-bulk-ok', status: 'planned', tenant: tenantA.id },
          { name: 'add-bulk-bad', slug: 'add-bulk-bad', status: 'active', tenant: tenantA.id },
        ]);
        expect(bulk.status).toBe(403);
      });
      expect(await count('dcim_site', `slug LIKE 'add-%'`)).toBe(0);

      const created = await user1.post('/api/dcim/sites/', {
        name: 'add-inside',
        slug: 'add-inside',
        status: 'planned',
        tenant: tenantA.id,
      });
      expect(created).toMatchObject({
        status: 201,
        body: { name: 'add-inside', status: { value: 'planned' }, tenant: { id: tenantA.id } },
      });
      expect(await siteRow(created.body.id)).toMatchObject({ name: 'add-inside', status: 'planned', tenant_id: tenantA.id });
      const bulk = await user1.post('/api/dcim/sites/', [
        { name: 'add-bulk-1', slug: 'add-bulk-1', status: 'planned', tenant: tenantA.id },
        { name: 'add-bulk-2', slug: 'add-bulk-2', status: 'planned', tenant: tenantA.id },
      ]);
      expect(bulk.status).toBe(201);
      expect(await count('dcim_site', `slug IN ('add-bulk-1', 'add-bulk-2')`)).toBe(2);
    });

    it('change with constraints: checked before (404/403) and after (403) the change, the row left as it was', async () => {
      const planned = await createSite({ status: 'planned', description: 'before' });
      const planned2 = await createSite({ status: 'planned', description: 'before' });
      const active = await createSite({ status: 'active', description: 'before' });
      await grant({ actions: ['view'] });
      await grant({ actions: ['change'], constraints: { status: 'planned' } });

      // Inside before and after: allowed.
      const ok = await user1.patch(`/api/dcim/sites/${planned.id}/`, { description: 'changed' });
      expect(ok).toMatchObject({ status: 200, body: { description: 'changed', status: { value: 'planned' } } });
      expect((await siteRow(planned.id)).description).toBe('changed');

      await expectUnchanged([planned.id, planned2.id, active.id], async () => {
        // Outside before the change.
        const before = await user1.patch(`/api/dcim/sites/${active.id}/`, { description: 'changed' });
        expect([403, 404]).toContain(before.status);
        expect(before.body).toEqual({ detail: expect.any(String) });
        const beforeIntoScope = await user1.patch(`/api/dcim/sites/${active.id}/`, { status: 'planned' });
        expect([403, 404]).toContain(beforeIntoScope.status);
        // Moved outside by the change: 403, rolled back.
        const after = await user1.patch(`/api/dcim/sites/${planned.id}/`, { status: 'active', description: 'moved out' });
        expect({ status: after.status, body: after.body }).toEqual({ status: 403, body: { detail: expect.any(String) } });
        const afterPut = await user1.put(`/api/dcim/sites/${planned.id}/`, { name: planned.name, slug: planned.slug, status: 'retired' });
        expect(afterPut.status).toBe(403);
        // Bulk update is atomic: the one moved out refuses them all.
        const bulk = await user1.patch('/api/dcim/sites/', [
          { id: planned.id, description: 'bulk ok' },
          { id: planned2.id, status: 'active' },
        ]);
        expect(bulk.status).toBe(403);
      });
    });

    it('change of an object the caller may not even view is 404', async () => {
      const active = await createSite({ status: 'active' });
      await grant({ actions: ['view', 'change'], constraints: { status: 'planned' } });
      await expectUnchanged([active.id], async () => {
        expect(await user1.patch(`/api/dcim/sites/${active.id}/`, { description: 'x' })).toMatchObject({ status: 404, body: NOT_FOUND });
        expect(await user1.delete(`/api/dcim/sites/${active.id}/`)).toMatchObject({ status: 403, body: NO_PERMISSION });
      });
    });

    // NetBox restricts the queryset by the request's own action (PATCH/PUT → change, DELETE → delete;
    // netbox/api/viewsets BaseViewSet.initial): a write needs no view permission, and the view
    // constraints do not decide which objects may be changed or deleted.
    it('change needs no view permission: change-only permission edits objects inside its constraints', async () => {
      const planned = await createSite({ status: 'planned', description: 'before' });
      const active = await createSite({ status: 'active', description: 'before' });
      await grant({ actions: ['change'], constraints: { status: 'planned' } });
      await expectListed(user1, []);
      const patched = await user1.patch(`/api/dcim/sites/${planned.id}/`, { description: 'changed without view' });
      expect({ status: patched.status, description: patched.body?.description }).toEqual({
        status: 200,
        description: 'changed without view',
      });
      expect((await siteRow(planned.id)).description).toBe('changed without view');
      await expectUnchanged([active.id], async () => {
        expect(await user1.patch(`/api/dcim/sites/${active.id}/`, { description: 'x' })).toMatchObject({ status: 404, body: NOT_FOUND });
      });
    });

    it('change is decided by the change constraints, not the view constraints', async () => {
      const planned = await createSite({ status: 'planned', description: 'before' });
      await grant({ actions: ['view'], constraints: { status: 'active' } });
      await grant({ actions: ['change'] });
      expect(await user1.get(`/api/dcim/sites/${planned.id}/`)).toMatchObject({ status: 404 });
      const patched = await user1.patch(`/api/dcim/sites/${planned.id}/`, { description: 'changed outside view' });
      expect({ status: patched.status, description: patched.body?.description }).toEqual({
        status: 200,
        description: 'changed outside view',
      });
      expect((await siteRow(planned.id)).description).toBe('changed outside view');
    });

    it('delete needs no view permission: delete-only permission removes objects inside its constraints', async () => {
      const retired = await createSite({ status: 'retired' });
      const active = await createSite({ status: 'active' });
      await grant({ actions: ['delete'], constraints: { status: 'retired' } });
      await expectListed(user1, []);
      await expectUnchanged([active.id], async () => {
        expect(await user1.delete(`/api/dcim/sites/${active.id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      });
      const deleted = await user1.delete(`/api/dcim/sites/${retired.id}/`);
      expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 204, body: undefined });
      expect(await siteRow(retired.id)).toBeUndefined();
    });

    it('delete with constraints: outside → refused and kept, inside → 204 and gone', async () => {
      const retired = await createSite({ status: 'retired' });
      const retired2 = await createSite({ status: 'retired' });
      const active = await createSite({ status: 'active' });
      await grant({ actions: ['view'] });
      await grant({ actions: ['delete'], constraints: { status: 'retired' } });
      await expectUnchanged([retired.id, retired2.id, active.id], async () => {
        const single = await user1.delete(`/api/dcim/sites/${active.id}/`);
        expect([403, 404]).toContain(single.status);
        expect(single.body).toEqual({ detail: expect.any(String) });
        // Bulk delete is atomic.
        const bulk = await user1.delete('/api/dcim/sites/', [{ id: retired.id }, { id: active.id }]);
        expect([403, 404]).toContain(bulk.status);
      });
      expect((await user1.delete(`/api/dcim/sites/${retired.id}/`)).status).toBe(204);
      expect(await siteRow(retired.id)).toBeUndefined();
      expect(await siteRow(retired2.id)).toBeDefined();
    });

    it('grants through a group, and stops when the user leaves the group', async () => {
      const members = await group([w.user1.id]);
      await grant({ actions: ['view'], constraints: { status: 'retired' }, users: [], groups: [members.id] });
      await expectListed(user1, await siteIds(`status = 'retired'`));
      await expectListed(bearer(w.user2.token), []);
      const left = await root.patch(`/api/users/groups/${members.id}/`, { users: [w.user2.id] });
      expect(left.status).toBe(200);
      await expectListed(user1, []);
      await expectListed(bearer(w.user2.token), await siteIds(`status = 'retired'`));
    });

    it('a disabled permission grants nothing', async () => {
      const permission = await grant({ actions: ['view', 'add'], enabled: false });
      await expectListed(user1, []);
      await expectUnchanged([], async () => {
        expect(await user1.post('/api/dcim/sites/', { name: 'disabled-add', slug: 'disabled-add' })).toMatchObject({
          status: 403,
          body: NO_PERMISSION,
        });
      });
      expect((await root.patch(`/api/users/permissions/${permission.id}/`, { enabled: true })).status).toBe(200);
      expect((await listed(user1)).count).toBe(await count('dcim_site'));
    });

    it('a permission on another object type, or another action, does not leak to sites', async () => {
      await grant({ object_types: ['tenancy.tenant'], actions: ['view', 'add', 'change', 'delete'] });
      await grant({ actions: ['add'] });
      await expectListed(user1, []);
      expect(await user1.get(`/api/dcim/sites/${fixture.amsActive.id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      const tenants = await user1.get('/api/tenancy/tenants/?limit=1000');
      expect(tenants.body.count).toBe(await count('tenancy_tenant'));
      await expectUnchanged([fixture.amsActive.id], async () => {
        expect(await user1.patch(`/api/dcim/sites/${fixture.amsActive.id}/`, { description: 'leak' })).toMatchObject({
          status: 403,
          body: NO_PERMISSION,
        });
        expect(await user1.delete(`/api/dcim/sites/${fixture.amsActive.id}/`)).toMatchObject({ status: 403, body: NO_PERMISSION });
      });
    });

    it('superusers bypass object permissions, even constrained or disabled ones of their own', async () => {
      await grant({ actions: ['view'], constraints: { status: 'retired' }, users: [w.root.id] });
      await grant({ actions: ['view', 'add', 'change', 'delete'], enabled: false, users: [w.root.id] });
      const rootToken = tokenClient((await provision('root')).key);
      for (const client of [rootToken, root]) {
        expect((await listed(client)).count).toBe(await count('dcim_site'));
        expect((await client.get(`/api/dcim/sites/${fixture.amsPlanned.id}/`)).status).toBe(200);
      }
      const created = await createSite({ status: 'decommissioning' }, rootToken);
      expect((await rootToken.patch(`/api/dcim/sites/${created.id}/`, { status: 'active' })).status).toBe(200);
      expect((await rootToken.delete(`/api/dcim/sites/${created.id}/`)).status).toBe(204);
      expect(await siteRow(created.id)).toBeUndefined();
    });

    it('accepts custom action names such as "approve", which grant no standard action', async () => {
      const permission = await grant({ actions: ['approve'], constraints: { status: 'planned' } });
      expect(permission).toMatchObject({ actions: ['approve'], object_types: ['dcim.site'], constraints: { status: 'planned' } });
      const stored = await db.query('SELECT actions FROM users_objectpermission WHERE id = $1', [permission.id]);
      expect(stored.rows[0].actions).toEqual(['approve']);
      await expectListed(user1, []);

      const mixed = await root.patch(`/api/users/permissions/${permission.id}/`, { actions: ['view', 'approve'] });
      expect(mixed).toMatchObject({ status: 200, body: { actions: ['view', 'approve'] } });
      await expectListed(user1, await siteIds(`status = 'planned'`));

      for (const actions of [['Approve'], ['approve now'], [''], [], 'view', [1]]) {
        const before = await count('users_objectpermission');
        const refused = await root.post('/api/users/permissions/', { name: `bad actions ${++seq}`, object_types: ['dcim.site'], actions });
        expect({ actions, status: refused.status, body: refused.body }).toEqual({
          actions,
          status: 400,
          body: { actions: [expect.any(String)] },
        });
        expect(await count('users_objectpermission')).toBe(before);
      }
    });

    it('refuses constraints that are not an object or a list of objects with 400 {"constraints": [...]}', async () => {
      for (const constraints of ['status=active', 5, true, ['status'], [{ status: 'active' }, 'name=x'], [[{ status: 'active' }]]]) {
        const before = await count('users_objectpermission');
        const response = await root.post('/api/users/permissions/', {
          name: `bad constraints ${++seq}`,
          object_types: ['dcim.site'],
          actions: ['view'],
          constraints,
          users: [w.user1.id],
        });
        expect({ constraints, status: response.status, body: response.body }).toEqual({
          constraints,
          status: 400,
          body: { constraints: [expect.any(String)] },
        });
        expect(await count('users_objectpermission')).toBe(before);
      }
      // …also on update, leaving the stored constraints alone.
      const permission = await grant({ actions: ['view'], constraints: { status: 'active' } });
      const patched = await root.patch(`/api/users/permissions/${permission.id}/`, { constraints: 'status=planned' });
      expect({ status: patched.status, body: patched.body }).toEqual({ status: 400, body: { constraints: [expect.any(String)] } });
      const stored = await db.query('SELECT constraints FROM users_objectpermission WHERE id = $1', [permission.id]);
      expect(stored.rows[0].constraints).toEqual({ status: 'active' });
      await expectListed(user1, await siteIds(`status = 'active'`));
    });

    it('stores constraints as given (object, list, null) and returns them', async () => {
      const list = await grant({ actions: ['view'], constraints: [{ status: 'planned' }, { id__in: [fixture.lonRetired.id] }] });
      expect(list.constraints).toEqual([{ status: 'planned' }, { id__in: [fixture.lonRetired.id] }]);
      const none = await grant({ actions: ['view'], constraints: null });
      expect(none.constraints).toBeNull();
      const rows = await db.query('SELECT id, constraints FROM users_objectpermission WHERE id = ANY($1) ORDER BY id', [
        [list.id, none.id],
      ]);
      expect(rows.rows.map((row) => row.constraints)).toEqual([[{ status: 'planned' }, { id__in: [fixture.lonRetired.id] }], null]);
    });
  });

  describe('users and groups', () => {
    it('lists the users of the identity store to a superuser, in full and brief', async () => {
      const list = await root.get('/api/users/users/?limit=1000');
      expect(list.status).toBe(200);
      const users = (await db.query('SELECT id, username FROM users ORDER BY username, id')).rows;
      expect(list.body.count).toBe(users.length);
      expect(list.body.results.map((user: any) => [user.id, user.username])).toEqual(users.map((user) => [user.id, user.username]));
      expect(list.text).not.toMatch(/password|hash|argon/i);
      const one = list.body.results.find((user: any) => user.id === w.user1.id);
      expect(one).toMatchObject({
        id: w.user1.id,
        url: `${testApp.baseUrl}/api/users/users/${w.user1.id}/`,
        display: 'user1',
        username: 'user1',
        email: 'user1@example.com',
        is_active: true,
      });

      const brief = await root.get('/api/users/users/?brief=true&limit=1000');
      expect(brief.status).toBe(200);
      expect(brief.body.count).toBe(users.length);
      for (const user of brief.body.results) {
        expect(user).toEqual({
          id: expect.any(Number),
          url: `${testApp.baseUrl}/api/users/users/${user.id}/`,
          display: user.username,
          username: user.username,
        });
      }
      expect(await root.get(`/api/users/users/${w.user2.id}/?brief=true`)).toMatchObject({
        status: 200,
        body: { id: w.user2.id, url: `${testApp.baseUrl}/api/users/users/${w.user2.id}/`, display: 'user2', username: 'user2' },
      });
      expect(await root.get('/api/users/users/?username=user1')).toMatchObject({
        status: 200,
        body: { count: 1, results: [{ id: w.user1.id }] },
      });

      // Without a permission on users.user, a plain user sees none.
      expect(await bearer(w.user1.token).get('/api/users/users/')).toMatchObject({ status: 200, body: { count: 0, results: [] } });
    });

    it('does not create users through the platform API (read-only view)', async () => {
      const before = await count('users');
      const response = await root.post('/api/users/users/', { username: 'platform-made', password: PASSWORD, email: 'p@example.com' });
      expect([404, 405]).toContain(response.status);
      expect(await count('users')).toBe(before);
    });

    it('creates, reads, updates and deletes groups with their users', async () => {
      const created = await root.post('/api/users/groups/', { name: 'Operators', description: 'ops', users: [w.user1.id, w.user2.id] });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const nested = (fixture: { id: number; username: string }) => ({
        id: fixture.id,
        url: `${testApp.baseUrl}/api/users/users/${fixture.id}/`,
        display: fixture.username,
        username: fixture.username,
      });
      expect(created.body).toEqual({
        id,
        url: `${testApp.baseUrl}/api/users/groups/${id}/`,
        display: 'Operators',
        name: 'Operators',
        description: 'ops',
        users: expect.arrayContaining([nested(w.user1), nested(w.user2)]),
        created: expect.stringMatching(ISO),
        last_updated: expect.stringMatching(ISO),
      });
      expect(created.body.users).toHaveLength(2);
      const members = async () =>
        (await db.query('SELECT user_id FROM users_group_users WHERE group_id = $1 ORDER BY user_id', [id])).rows.map((row) => row.user_id);
      expect(await members()).toEqual([w.user1.id, w.user2.id].sort((a, b) => a - b));

      expect(await root.get(`/api/users/groups/${id}/`)).toMatchObject({ status: 200, body: created.body });
      expect(await root.get('/api/users/groups/?name=Operators')).toMatchObject({ status: 200, body: { count: 1, results: [{ id }] } });
      expect(await root.get(`/api/users/groups/${id}/?brief=true`)).toMatchObject({
        status: 200,
        body: { id, url: `${testApp.baseUrl}/api/users/groups/${id}/`, display: 'Operators', name: 'Operators', description: 'ops' },
      });

      const patched = await root.patch(`/api/users/groups/${id}/`, { users: [w.admin1.id] });
      expect(patched).toMatchObject({ status: 200, body: { name: 'Operators', users: [nested(w.admin1)] } });
      expect(await members()).toEqual([w.admin1.id]);

      const put = await root.put(`/api/users/groups/${id}/`, { name: 'Operators 2', users: [] });
      expect(put).toMatchObject({ status: 200, body: { name: 'Operators 2', users: [] } });
      expect(await members()).toEqual([]);

      const duplicate = await root.post('/api/users/groups/', { name: 'Operators 2' });
      expect({ status: duplicate.status, body: duplicate.body }).toEqual({ status: 400, body: { name: [expect.any(String)] } });
      const unknownUser = await root.patch(`/api/users/groups/${id}/`, { users: [w.user1.id, 999999] });
      expect({ status: unknownUser.status, body: unknownUser.body }).toEqual({
        status: 400,
        body: { users: [expect.stringContaining('999999')] },
      });
      expect(await members()).toEqual([]);
      const missingName = await root.post('/api/users/groups/', { users: [w.user1.id] });
      expect({ status: missingName.status, body: missingName.body }).toEqual({ status: 400, body: { name: ['This field is required.'] } });

      // A plain user without permissions sees no groups and may not create one.
      const plain = bearer(w.user1.token);
      expect(await plain.get('/api/users/groups/')).toMatchObject({ status: 200, body: { count: 0 } });
      const groupsBefore = await count('users_group');
      expect(await plain.post('/api/users/groups/', { name: 'Self-made', users: [w.user1.id] })).toMatchObject({
        status: 403,
        body: NO_PERMISSION,
      });
      expect(await count('users_group')).toBe(groupsBefore);

      await root.patch(`/api/users/groups/${id}/`, { users: [w.user1.id] });
      expect((await root.delete(`/api/users/groups/${id}/`)).status).toBe(204);
      expect(await count('users_group', 'id = $1', [id])).toBe(0);
      expect(await members()).toEqual([]);
      expect(await root.get(`/api/users/groups/${id}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
      // The users themselves are untouched.
      expect(await count('users', 'id = $1', [w.user1.id])).toBe(1);
    });
  });
});
