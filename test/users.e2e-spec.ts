import { Client } from 'pg';
import { ApiClient, createBootstrapSuperuser, PASSWORD } from './support/api-client';
import { startTestApp, TestApp } from './support/test-app';
import { problemLocations, startSeededApp, World } from './support/seeded-app';

const USER_FIELDS = [
  'can_create_ca',
  'can_create_cert',
  'can_delete_ca',
  'can_export_private_key',
  'can_revoke_cert',
  'created_at',
  'email',
  'id',
  'is_active',
  'organization_id',
  'role',
  'updated_at',
  'username',
];

const NO_CAPABILITIES = {
  can_create_ca: false,
  can_create_cert: false,
  can_revoke_cert: false,
  can_export_private_key: false,
  can_delete_ca: false,
};

describe('users', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  let counter = 0;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp());
  });

  afterAll(async () => {
    await db?.end();
    await testApp?.close();
  });

  /** A fresh user created by root, for tests that change or delete it; logged in when asked. */
  async function freshUser(options: { role?: string; organization_id?: number | null; login?: boolean } = {}) {
    counter += 1;
    const username = `fresh${counter}`;
    const created = await api.post(
      '/users/',
      {
        username,
        email: `${username}@example.com`,
        password: PASSWORD,
        role: options.role ?? 'user',
        organization_id: options.organization_id === undefined ? w.org1.id : options.organization_id,
      },
      w.root.token,
    );
    expect(created.status).toBe(201);
    const tokens = options.login === false ? undefined : await api.tokens(username, PASSWORD);
    return { id: created.body.id as number, username, token: tokens?.access_token ?? '', refresh: tokens?.refresh_token ?? '' };
  }

  async function dbUser(id: number) {
    const result = await db.query('SELECT * FROM users WHERE id = $1', [id]);
    return result.rows[0] as Record<string, unknown> | undefined;
  }

  describe('POST /users/', () => {
    it('lets the superuser create any role in any organization, with exactly the documented fields', async () => {
      const response = await api.post(
        '/users/',
        {
          username: 'made-by-root',
          email: 'Made.By.Root@Example.COM',
          password: PASSWORD,
          role: 'admin',
          organization_id: w.org2.id,
          can_create_ca: true,
        },
        w.root.token,
      );
      expect(response.status).toBe(201);
      expect(Object.keys(response.body).sort()).toEqual(USER_FIELDS);
      expect(response.body).toEqual({
        id: expect.any(Number),
        username: 'made-by-root',
        email: 'made.by.root@example.com',
        role: 'admin',
        is_active: true,
        organization_id: w.org2.id,
        ...NO_CAPABILITIES,
        can_create_ca: true,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(new Date(response.body.created_at).toISOString()).toBe(response.body.created_at);
      const row = await dbUser(response.body.id);
      expect(row).toMatchObject({ username: 'made-by-root', email: 'made.by.root@example.com', role: 'admin', organization_id: w.org2.id });
      expect(String(row!.password_hash)).toMatch(/^\$argon2id\$/);
      expect(row!.password_hash).not.toContain(PASSWORD);

      const superuser = await api.post(
        '/users/',
        { username: 'second-root', email: 'second-root@example.com', password: PASSWORD, role: 'superuser' },
        w.root.token,
      );
      expect(superuser.status).toBe(201);
      expect(superuser.body).toMatchObject({ role: 'superuser', organization_id: null, ...NO_CAPABILITIES });
    });

    it('defaults role to user and organization to none when the superuser omits them', async () => {
      const response = await api.post(
        '/users/',
        { username: 'plain-default', email: 'plain-default@example.com', password: PASSWORD },
        w.root.token,
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ role: 'user', organization_id: null, is_active: true, ...NO_CAPABILITIES });
    });

    it('rejects a duplicate username with 400', async () => {
      const response = await api.post('/users/', { username: 'user1', email: 'other-user1@example.com', password: PASSWORD }, w.root.token);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ detail: 'Username already registered' });
    });

    it('rejects a duplicate email in any letter case with 400', async () => {
      for (const email of ['user1@example.com', 'USER1@Example.Com']) {
        const response = await api.post('/users/', { username: 'not-user1', email, password: PASSWORD }, w.root.token);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ detail: 'Email already registered' });
      }
      const rows = await db.query("SELECT count(*)::int AS n FROM users WHERE username = 'not-user1'");
      expect(rows.rows[0].n).toBe(0);
    });

    it('rejects an unknown organization with 400 and creates nothing', async () => {
      const response = await api.post(
        '/users/',
        { username: 'orphan', email: 'orphan@example.com', password: PASSWORD, organization_id: 999999 },
        w.root.token,
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ detail: 'Organization with ID 999999 not found' });
      expect((await db.query("SELECT 1 FROM users WHERE username = 'orphan'")).rowCount).toBe(0);
    });

    it('rejects a password of 7 characters naming the password field', async () => {
      const response = await api.post('/users/', { username: 'shortpw', email: 'shortpw@example.com', password: '1234567' }, w.root.token);
      expect(response.status).toBe(400);
      expect(problemLocations(response.body)).toEqual([['body', 'password']]);
      const eight = await api.post('/users/', { username: 'eightpw', email: 'eightpw@example.com', password: '12345678' }, w.root.token);
      expect(eight.status).toBe(201);
    });

    it('rejects a malformed email naming the email field', async () => {
      const response = await api.post('/users/', { username: 'bademail', email: 'not-an-email', password: PASSWORD }, w.root.token);
      expect(response.status).toBe(400);
      expect(problemLocations(response.body)).toEqual([['body', 'email']]);
    });

    it('rejects unknown fields, including is_active, naming them', async () => {
      for (const extra of ['is_active', 'foo']) {
        const response = await api.post(
          '/users/',
          { username: `extra-${extra}`, email: `extra-${extra}@example.com`, password: PASSWORD, [extra]: true },
          w.root.token,
        );
        expect(response.status).toBe(400);
        expect(problemLocations(response.body)).toEqual([['body', extra]]);
      }
    });

    it('rejects a missing username, email or password', async () => {
      const response = await api.post('/users/', {}, w.root.token);
      expect(response.status).toBe(400);
      const locations = problemLocations(response.body);
      expect(locations).toEqual(
        expect.arrayContaining([
          ['body', 'username'],
          ['body', 'email'],
          ['body', 'password'],
        ]),
      );
    });

    it('refuses anonymous admin and superuser accounts after the first user', async () => {
      for (const role of ['admin', 'superuser']) {
        const response = await api.post('/users/', {
          username: `anon-${role}`,
          email: `anon-${role}@example.com`,
          password: PASSWORD,
          role,
        });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ detail: 'Not enough permissions to create admin or superuser accounts' });
      }
    });

    it('refuses anonymous registration of a plain user while registration is disabled', async () => {
      const response = await api.post('/users/', { username: 'anon-user', email: 'anon-user@example.com', password: PASSWORD });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ detail: 'Unauthenticated registration is disabled' });
      expect((await db.query("SELECT 1 FROM users WHERE username = 'anon-user'")).rowCount).toBe(0);
    });

    it('checks the registration gate before uniqueness, so existing usernames cannot be probed', async () => {
      const response = await api.post('/users/', { username: 'user1', email: 'user1@example.com', password: PASSWORD });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ detail: 'Unauthenticated registration is disabled' });
    });

    it('lets a logged-in plain user create a bare role-user account, and refuses more with a fitting message', async () => {
      const response = await api.post(
        '/users/',
        { username: 'by-user1', email: 'by-user1@example.com', password: PASSWORD },
        w.user1.token,
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ username: 'by-user1', role: 'user', organization_id: null, ...NO_CAPABILITIES });
      expect((await db.query("SELECT organization_id FROM users WHERE username = 'by-user1'")).rows).toEqual([{ organization_id: null }]);
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ role: 'admin' }, 'Only superusers can create admin or superuser accounts'],
        [{ role: 'superuser' }, 'Only superusers can create admin or superuser accounts'],
        [{ organization_id: w.org1.id }, 'Only admins and superusers can create users in an organization'],
        [{ can_create_cert: true }, 'Only admins and superusers can grant capabilities'],
      ];
      for (const [extra, detail] of refusals) {
        const refused = await api.post(
          '/users/',
          { username: 'by-user1x', email: 'by-user1x@example.com', password: PASSWORD, ...extra },
          w.user1.token,
        );
        expect({ extra, status: refused.status, body: refused.body }).toEqual({ extra, status: 403, body: { detail } });
      }
      expect((await db.query("SELECT 1 FROM users WHERE username = 'by-user1x'")).rowCount).toBe(0);
    });

    it('answers an invalid bearer token with 401 instead of treating the caller as anonymous', async () => {
      const response = await api.post('/users/', { username: 'badtoken', email: 'badtoken@example.com', password: PASSWORD }, 'not-a-jwt');
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect((await db.query("SELECT 1 FROM users WHERE username = 'badtoken'")).rowCount).toBe(0);
    });

    it('lets an admin create plain users in its own organization by default, with capability flags', async () => {
      const response = await api.post(
        '/users/',
        { username: 'by-admin1', email: 'by-admin1@example.com', password: PASSWORD, can_create_cert: true, can_revoke_cert: true },
        w.admin1.token,
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        username: 'by-admin1',
        role: 'user',
        organization_id: w.org1.id,
        ...NO_CAPABILITIES,
        can_create_cert: true,
        can_revoke_cert: true,
      });
      const explicit = await api.post(
        '/users/',
        { username: 'by-admin1b', email: 'by-admin1b@example.com', password: PASSWORD, organization_id: w.org1.id, role: 'user' },
        w.admin1.token,
      );
      expect(explicit.status).toBe(201);
      expect(explicit.body.organization_id).toBe(w.org1.id);
    });

    it('refuses an admin creating an admin or superuser', async () => {
      for (const role of ['admin', 'superuser']) {
        const response = await api.post(
          '/users/',
          { username: `a1-${role}`, email: `a1-${role}@example.com`, password: PASSWORD, role },
          w.admin1.token,
        );
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ detail: 'Only superusers can create admin or superuser accounts' });
      }
    });

    it('refuses an admin creating a user in another organization', async () => {
      const response = await api.post(
        '/users/',
        { username: 'a1-in-org2', email: 'a1-in-org2@example.com', password: PASSWORD, organization_id: w.org2.id },
        w.admin1.token,
      );
      expect(response.status).toBe(403);
      expect((await db.query("SELECT 1 FROM users WHERE username = 'a1-in-org2'")).rowCount).toBe(0);
    });
  });

  describe('GET /users/', () => {
    it('lists users for the superuser only', async () => {
      const response = await api.get('/users/', w.root.token);
      expect(response.status).toBe(200);
      const names = (response.body as Array<{ username: string }>).map((user) => user.username);
      expect(names).toEqual(expect.arrayContaining(['root', 'admin1', 'user1', 'admin2', 'user2', 'loner']));
      for (const user of response.body) expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
      expect((await api.get('/users/', w.admin1.token)).status).toBe(403);
      expect((await api.get('/users/', w.user1.token)).status).toBe(403);
      expect((await api.get('/users/', w.loner.token)).status).toBe(403);
    });

    it('requires a token', async () => {
      const response = await api.get('/users/');
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ detail: 'Not authenticated' });
    });

    it('paginates with skip and limit', async () => {
      const all = (await api.get('/users/?limit=1000', w.root.token)).body as Array<{ id: number }>;
      expect(all.length).toBeGreaterThanOrEqual(7);
      const firstTwo = await api.get('/users/?limit=2', w.root.token);
      expect(firstTwo.status).toBe(200);
      expect(firstTwo.body.map((user: { id: number }) => user.id)).toEqual(all.slice(0, 2).map((user) => user.id));
      const next = await api.get('/users/?skip=2&limit=3', w.root.token);
      expect(next.body.map((user: { id: number }) => user.id)).toEqual(all.slice(2, 5).map((user) => user.id));
      const beyond = await api.get(`/users/?skip=${all.length}`, w.root.token);
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual([]);
    });

    it('rejects out-of-range pagination with 400', async () => {
      for (const query of ['limit=0', 'limit=-1', 'limit=1001', 'skip=-1', 'limit=abc']) {
        const response = await api.get(`/users/?${query}`, w.root.token);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
        const parameter = query.split('=')[0];
        const locations = problemLocations(response.body);
        expect(locations.length).toBeGreaterThan(0);
        for (const location of locations) expect(location).toEqual(['query', parameter]);
      }
      expect((await api.get('/users/?limit=1000&skip=0', w.root.token)).status).toBe(200);
    });
  });

  describe('GET /users/me and /users/{id}', () => {
    it('returns the caller for /users/me', async () => {
      const response = await api.get('/users/me', w.user1.token);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(USER_FIELDS);
      expect(response.body).toMatchObject({
        id: w.user1.id,
        username: 'user1',
        email: 'user1@example.com',
        role: 'user',
        organization_id: w.org1.id,
      });
      expect((await api.get('/users/me', w.root.token)).body).toMatchObject({ id: w.root.id, role: 'superuser' });
      expect((await api.get('/users/me')).status).toBe(401);
    });

    it('lets users read themselves, admins their organization, superusers anyone', async () => {
      const self = await api.get(`/users/${w.user1.id}`, w.user1.token);
      expect(self.status).toBe(200);
      expect(self.body.username).toBe('user1');
      const byAdmin = await api.get(`/users/${w.user1.id}`, w.admin1.token);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.username).toBe('user1');
      const byRoot = await api.get(`/users/${w.user2.id}`, w.root.token);
      expect(byRoot.status).toBe(200);
      expect(byRoot.body.username).toBe('user2');
      expect((await api.get(`/users/${w.loner.id}`, w.loner.token)).status).toBe(200);
    });

    it('forbids a plain user reading another user of the same organization', async () => {
      const response = await api.get(`/users/${w.admin1.id}`, w.user1.token);
      expect(response.status).toBe(403);
      expect(response.body).not.toHaveProperty('username');
    });

    it('hides users of other organizations with 404', async () => {
      for (const [reader, target] of [
        [w.admin1, w.user2],
        [w.user1, w.user2],
        [w.admin2, w.admin1],
        [w.loner, w.user1],
        [w.loner, w.root],
        [w.admin1, w.loner],
      ]) {
        const response = await api.get(`/users/${target.id}`, reader.token);
        expect({ reader: reader.username, target: target.username, status: response.status }).toEqual({
          reader: reader.username,
          target: target.username,
          status: 404,
        });
        expect(response.body).toEqual({ detail: 'User not found' });
      }
    });

    it('answers an unknown id with 404 and a malformed id with 400', async () => {
      const unknown = await api.get('/users/999999', w.root.token);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'User not found' });
      for (const id of ['abc', '0', '-1', '1.5', '2147483648', '99999999999']) {
        const response = await api.get(`/users/${id}`, w.root.token);
        expect({ id, status: response.status }).toEqual({ id, status: 400 });
        expect(problemLocations(response.body)).toEqual([['path', 'user_id']]);
      }
      expect((await api.get('/users/2147483647', w.root.token)).status).toBe(404);
    });
  });

  describe('PATCH /users/{id}', () => {
    it('lets a user change its own email (stored lower-cased)', async () => {
      const fresh = await freshUser();
      const response = await api.patch(`/users/${fresh.id}`, { email: `New.${fresh.username}@Example.COM` }, fresh.token);
      expect(response.status).toBe(200);
      expect(response.body.email).toBe(`new.${fresh.username}@example.com`);
      expect((await dbUser(fresh.id))!.email).toBe(`new.${fresh.username}@example.com`);
    });

    it('lets the admin of the organization and the superuser change email and password', async () => {
      const fresh = await freshUser({ login: false });
      const byAdmin = await api.patch(
        `/users/${fresh.id}`,
        { email: `a-${fresh.username}@example.com`, password: 'admin-set-pw' },
        w.admin1.token,
      );
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.email).toBe(`a-${fresh.username}@example.com`);
      expect((await api.login(fresh.username, 'admin-set-pw')).status).toBe(200);
      const byRoot = await api.patch(
        `/users/${fresh.id}`,
        { email: `r-${fresh.username}@example.com`, password: 'root-set-pw' },
        w.root.token,
      );
      expect(byRoot.status).toBe(200);
      expect(byRoot.body.email).toBe(`r-${fresh.username}@example.com`);
      expect((await api.login(fresh.username, 'root-set-pw')).status).toBe(200);
    });

    it('forbids a plain user changing another user of its organization', async () => {
      const fresh = await freshUser({ login: false });
      for (const body of [{ email: 'hijack@example.com' }, { password: 'hijacked-pw' }]) {
        const response = await api.patch(`/users/${fresh.id}`, body, w.user1.token);
        expect(response.status).toBe(403);
      }
      expect((await dbUser(fresh.id))!.email).toBe(`${fresh.username}@example.com`);
      expect((await api.login(fresh.username, 'hijacked-pw')).status).toBe(401);
    });

    it("hides another organization's user from an admin with 404", async () => {
      const response = await api.patch(`/users/${w.user1.id}`, { email: 'stolen@example.com' }, w.admin2.token);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'User not found' });
      expect((await dbUser(w.user1.id))!.email).toBe('user1@example.com');
    });

    it('keeps role, is_active and organization_id to superusers', async () => {
      const fresh = await freshUser();
      const refusals: Array<[object, string]> = [
        [{ role: 'admin' }, 'Not allowed to change role'],
        [{ is_active: false }, 'Not allowed to change is_active'],
        [{ organization_id: w.org2.id }, 'Not allowed to change organization_id'],
        [{ organization_id: null }, 'Not allowed to change organization_id'],
      ];
      for (const [body, detail] of refusals) {
        const byAdmin = await api.patch(`/users/${fresh.id}`, body, w.admin1.token);
        expect(byAdmin.status).toBe(403);
        expect(byAdmin.body).toEqual({ detail });
        const bySelf = await api.patch(`/users/${fresh.id}`, body, fresh.token);
        expect(bySelf.status).toBe(403);
      }
      expect(await dbUser(fresh.id)).toMatchObject({ role: 'user', is_active: true, organization_id: w.org1.id });

      const byRoot = await api.patch(`/users/${fresh.id}`, { role: 'admin', organization_id: w.org2.id }, w.root.token);
      expect(byRoot.status).toBe(200);
      expect(byRoot.body).toMatchObject({ role: 'admin', organization_id: w.org2.id });
      expect(await dbUser(fresh.id)).toMatchObject({ role: 'admin', organization_id: w.org2.id });
    });

    it('lets the admin of the organization and the superuser set capability flags, not the user itself', async () => {
      const fresh = await freshUser();
      const bySelf = await api.patch(`/users/${fresh.id}`, { can_create_ca: true }, fresh.token);
      expect(bySelf.status).toBe(403);
      expect(bySelf.body).toEqual({ detail: 'Not allowed to change can_create_ca' });

      const byAdmin = await api.patch(`/users/${fresh.id}`, { can_create_ca: true, can_export_private_key: true }, w.admin1.token);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body).toMatchObject({ ...NO_CAPABILITIES, can_create_ca: true, can_export_private_key: true });

      const byRoot = await api.patch(`/users/${fresh.id}`, { can_create_ca: false, can_delete_ca: true }, w.root.token);
      expect(byRoot.status).toBe(200);
      expect(byRoot.body).toMatchObject({ ...NO_CAPABILITIES, can_export_private_key: true, can_delete_ca: true });
      expect(await dbUser(fresh.id)).toMatchObject({ can_create_ca: false, can_export_private_key: true, can_delete_ca: true });

      const otherAdmin = await api.patch(`/users/${fresh.id}`, { can_create_ca: true }, w.admin2.token);
      expect(otherAdmin.status).toBe(404);
    });

    it('forbids an admin changing a superuser of its own organization', async () => {
      const superInOrg1 = await freshUser({ role: 'superuser', organization_id: w.org1.id, login: false });
      for (const body of [{ can_create_ca: true }, { email: 'taken-over@example.com' }, { password: 'taken-over-pw' }]) {
        const response = await api.patch(`/users/${superInOrg1.id}`, body, w.admin1.token);
        expect(response.status).toBe(403);
      }
      expect(await dbUser(superInOrg1.id)).toMatchObject({ can_create_ca: false, email: `${superInOrg1.username}@example.com` });
    });

    it('forbids a superuser downgrading itself and anyone deactivating itself', async () => {
      const superuser = await freshUser({ role: 'superuser', organization_id: null });
      for (const role of ['admin', 'user']) {
        const response = await api.patch(`/users/${superuser.id}`, { role }, superuser.token);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ detail: 'Superusers cannot downgrade themselves' });
      }
      const deactivate = await api.patch(`/users/${superuser.id}`, { is_active: false }, superuser.token);
      expect(deactivate.status).toBe(403);
      const plain = await freshUser();
      expect((await api.patch(`/users/${plain.id}`, { is_active: false }, plain.token)).status).toBe(403);
      const adminSelf = await api.patch(`/users/${w.admin1.id}`, { is_active: false }, w.admin1.token);
      expect(adminSelf.status).toBe(403);
      expect(await dbUser(superuser.id)).toMatchObject({ role: 'superuser', is_active: true });
      expect(await dbUser(w.admin1.id)).toMatchObject({ is_active: true });
      expect((await api.get('/users/me', superuser.token)).status).toBe(200);
    });

    it('rejects a duplicate email, an unknown organization and a null email with 400', async () => {
      const fresh = await freshUser();
      const duplicate = await api.patch(`/users/${fresh.id}`, { email: 'USER2@example.com' }, w.root.token);
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ detail: 'Email already registered' });
      const selfDuplicate = await api.patch(`/users/${fresh.id}`, { email: 'admin1@example.com' }, fresh.token);
      expect(selfDuplicate.status).toBe(400);
      expect(selfDuplicate.body).toEqual({ detail: 'Email already registered' });

      const unknownOrg = await api.patch(`/users/${fresh.id}`, { organization_id: 999999 }, w.root.token);
      expect(unknownOrg.status).toBe(400);
      expect(unknownOrg.body).toEqual({ detail: 'Organization with ID 999999 not found' });

      const nullEmail = await api.patch(`/users/${fresh.id}`, { email: null }, w.root.token);
      expect(nullEmail.status).toBe(400);
      expect(problemLocations(nullEmail.body)).toContainEqual(['body', 'email']);

      const unknownField = await api.patch(`/users/${fresh.id}`, { username: 'renamed' }, w.root.token);
      expect(unknownField.status).toBe(400);
      expect(problemLocations(unknownField.body)).toEqual([['body', 'username']]);

      const shortPassword = await api.patch(`/users/${fresh.id}`, { password: '1234567' }, fresh.token);
      expect(shortPassword.status).toBe(400);
      expect(problemLocations(shortPassword.body)).toEqual([['body', 'password']]);

      expect(await dbUser(fresh.id)).toMatchObject({ email: `${fresh.username}@example.com`, organization_id: w.org1.id });
    });

    it('lets the superuser remove a user from its organization with organization_id null', async () => {
      const fresh = await freshUser();
      const response = await api.patch(`/users/${fresh.id}`, { organization_id: null }, w.root.token);
      expect(response.status).toBe(200);
      expect(response.body.organization_id).toBeNull();
      expect((await dbUser(fresh.id))!.organization_id).toBeNull();
      expect((await api.get(`/users/${fresh.id}`, w.admin1.token)).status).toBe(404);
    });

    it('answers 404 for an unknown user and 400 for a malformed id', async () => {
      expect((await api.patch('/users/999999', { email: 'x@example.com' }, w.root.token)).status).toBe(404);
      expect((await api.patch('/users/abc', { email: 'x@example.com' }, w.root.token)).status).toBe(400);
    });

    it('ends every session of a user whose password changes', async () => {
      const fresh = await freshUser();
      const second = await api.tokens(fresh.username, PASSWORD);
      const response = await api.patch(`/users/${fresh.id}`, { password: 'brand-new-password' }, fresh.token);
      expect(response.status).toBe(200);
      expect(response.text).not.toContain('brand-new-password');

      for (const token of [fresh.token, second.access_token]) {
        expect((await api.get('/users/me', token)).status).toBe(401);
      }
      for (const refresh_token of [fresh.refresh, second.refresh_token]) {
        const refreshed = await api.post('/auth/refresh', { refresh_token });
        expect(refreshed.status).toBe(401);
      }
      const oldLogin = await api.login(fresh.username, PASSWORD);
      expect(oldLogin.status).toBe(401);
      expect(oldLogin.body).toEqual({ detail: 'Incorrect username or password' });

      const newTokens = await api.tokens(fresh.username, 'brand-new-password');
      expect((await api.get('/users/me', newTokens.access_token)).body.id).toBe(fresh.id);
      expect((await api.post('/auth/refresh', { refresh_token: newTokens.refresh_token })).status).toBe(200);
    });

    it('ends sessions when an admin changes the password, too', async () => {
      const fresh = await freshUser();
      expect((await api.patch(`/users/${fresh.id}`, { password: 'admin-reset-pw' }, w.admin1.token)).status).toBe(200);
      expect((await api.get('/users/me', fresh.token)).status).toBe(401);
      expect((await api.post('/auth/refresh', { refresh_token: fresh.refresh })).status).toBe(401);
      expect((await api.login(fresh.username, 'admin-reset-pw')).status).toBe(200);
    });

    it('locks out a deactivated user and lets it back in when reactivated', async () => {
      const fresh = await freshUser();
      const deactivated = await api.patch(`/users/${fresh.id}`, { is_active: false }, w.root.token);
      expect(deactivated.status).toBe(200);
      expect(deactivated.body.is_active).toBe(false);
      expect((await dbUser(fresh.id))!.is_active).toBe(false);

      expect((await api.get('/users/me', fresh.token)).status).toBe(401);
      expect((await api.post('/auth/refresh', { refresh_token: fresh.refresh })).status).toBe(401);
      const login = await api.login(fresh.username, PASSWORD);
      expect(login.status).toBe(401);
      expect(login.body).toEqual({ detail: 'Incorrect username or password' });

      const reactivated = await api.patch(`/users/${fresh.id}`, { is_active: true }, w.root.token);
      expect(reactivated.status).toBe(200);
      expect(reactivated.body.is_active).toBe(true);
      const token = await api.token(fresh.username, PASSWORD);
      expect((await api.get('/users/me', token)).body).toMatchObject({ id: fresh.id, is_active: true });
    });
  });

  describe('DELETE /users/{id}', () => {
    it('lets the superuser delete a user, whose token then stops working', async () => {
      const fresh = await freshUser();
      const response = await api.delete(`/users/${fresh.id}`, w.root.token);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await api.get(`/users/${fresh.id}`, w.root.token)).status).toBe(404);
      expect(await dbUser(fresh.id)).toBeUndefined();
      expect((await api.get('/users/me', fresh.token)).status).toBe(401);
      expect((await api.post('/auth/refresh', { refresh_token: fresh.refresh })).status).toBe(401);
      expect((await api.delete(`/users/${fresh.id}`, w.root.token)).status).toBe(404);
    });

    it('lets exactly one of concurrent deletes succeed and audit; the rest get 404', async () => {
      const fresh = await freshUser({ login: false });
      const responses = await Promise.all(Array.from({ length: 8 }, () => api.delete(`/users/${fresh.id}`, w.root.token)));
      expect(responses.map((response) => response.status).sort()).toEqual([204, 404, 404, 404, 404, 404, 404, 404]);
      for (const response of responses.filter((r) => r.status === 404)) expect(response.body).toEqual({ detail: 'User not found' });
      const { rows } = await db.query("SELECT user_id, detail FROM audit_logs WHERE action = 'user_delete' AND resource_id = $1", [
        fresh.id,
      ]);
      expect(rows).toEqual([{ user_id: w.root.id, detail: `Deleted user '${fresh.username}'` }]);
    });

    it('refuses a superuser deleting itself', async () => {
      const response = await api.delete(`/users/${w.root.id}`, w.root.token);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ detail: 'Superusers cannot delete themselves' });
      expect(await dbUser(w.root.id)).toBeDefined();
    });

    it('refuses admins and users', async () => {
      const fresh = await freshUser({ login: false });
      expect((await api.delete(`/users/${fresh.id}`, w.admin1.token)).status).toBe(403);
      expect((await api.delete(`/users/${fresh.id}`, w.user1.token)).status).toBe(403);
      expect((await api.delete(`/users/${fresh.id}`)).status).toBe(401);
      expect(await dbUser(fresh.id)).toBeDefined();
    });

    it('answers 404 for an unknown user and 400 for a malformed id', async () => {
      const unknown = await api.delete('/users/999999', w.root.token);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'User not found' });
      expect((await api.delete('/users/abc', w.root.token)).status).toBe(400);
    });
  });

  it('never sends a password hash, a password or a token digest', () => {
    expect(api.seenBodies.length).toBeGreaterThan(50);
    for (const body of api.seenBodies) {
      expect(body).not.toContain('password_hash');
      expect(body).not.toContain('passwordHash');
      expect(body).not.toContain('$argon2');
      expect(body).not.toContain('token_hash');
      expect(body).not.toContain('tokens_invalidated_at');
      expect(body).not.toContain(PASSWORD);
    }
  });
});

describe('users: bootstrap on an empty database', () => {
  let testApp: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { AUTH_RATE_LIMIT: '1000/minute', AUTH_ADDRESS_RATE_LIMIT: '1000/minute' } });
    api = new ApiClient(testApp.baseUrl);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('lets an anonymous caller create the first user with any role, and nobody anonymous after that', async () => {
    const first = await api.post('/users/', { username: 'first-admin', email: 'First@Example.com', password: PASSWORD, role: 'admin' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ username: 'first-admin', email: 'first@example.com', role: 'admin', organization_id: null });
    expect((await api.get('/users/me', await api.token('first-admin', PASSWORD))).body.role).toBe('admin');

    const second = await api.post('/users/', { username: 'second', email: 'second@example.com', password: PASSWORD, role: 'admin' });
    expect(second.status).toBe(403);
    expect(second.body).toEqual({ detail: 'Not enough permissions to create admin or superuser accounts' });
    const plain = await api.post('/users/', { username: 'third', email: 'third@example.com', password: PASSWORD });
    expect(plain.status).toBe(403);
    expect(plain.body).toEqual({ detail: 'Unauthenticated registration is disabled' });

    const client = new Client({ connectionString: testApp.database.url });
    await client.connect();
    try {
      const rows = await client.query('SELECT username FROM users ORDER BY id');
      expect(rows.rows).toEqual([{ username: 'first-admin' }]);
    } finally {
      await client.end();
    }
    for (const body of api.seenBodies) expect(body).not.toContain('$argon2');
  });
});

describe('users: bootstrap with BOOTSTRAP_TOKEN', () => {
  const BOOTSTRAP_TOKEN = 'bootstrap-0123456789-secret';
  let testApp: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { BOOTSTRAP_TOKEN } });
    api = new ApiClient(testApp.baseUrl);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const first = { username: 'first', email: 'first@example.com', password: PASSWORD, role: 'superuser' };
  const createFirst = (headers?: Record<string, string>) => api.request('POST', '/users/', { json: first, headers });
  const userCount = async () => {
    const client = new Client({ connectionString: testApp.database.url });
    await client.connect();
    try {
      return (await client.query('SELECT count(*)::int AS n FROM users')).rows[0].n as number;
    } finally {
      await client.end();
    }
  };

  it('needs the token in X-Bootstrap-Token to create the first user: missing 401, wrong 403, right 201', async () => {
    const missing = await createFirst();
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 401,
      body: { detail: 'Creating the first user requires the X-Bootstrap-Token header' },
    });
    const wrong = await createFirst({ 'X-Bootstrap-Token': `${BOOTSTRAP_TOKEN}x` });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 403, body: { detail: 'Invalid bootstrap token' } });
    expect(await userCount()).toBe(0);
    const right = await createFirst({ 'X-Bootstrap-Token': BOOTSTRAP_TOKEN });
    expect(right.status).toBe(201);
    expect(right.body).toMatchObject({ username: 'first', role: 'superuser' });
  });

  it('is not needed once a user exists', async () => {
    const root = await api.token('first', PASSWORD);
    const created = await api.post('/users/', { username: 'second', email: 'second@example.com', password: PASSWORD }, root);
    expect(created.status).toBe(201);
    const anonymous = await api.post('/users/', { username: 'third', email: 'third@example.com', password: PASSWORD });
    expect({ status: anonymous.status, body: anonymous.body }).toEqual({
      status: 403,
      body: { detail: 'Unauthenticated registration is disabled' },
    });
  });
});

describe('users: open registration (ALLOW_UNAUTHENTICATED_REGISTRATION=true)', () => {
  let testApp: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { AUTH_RATE_LIMIT: '1000/minute', AUTH_ADDRESS_RATE_LIMIT: '1000/minute', ALLOW_UNAUTHENTICATED_REGISTRATION: 'true' },
    });
    api = new ApiClient(testApp.baseUrl);
    await createBootstrapSuperuser(api);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('lets anonymous callers register plain users without an organization', async () => {
    const response = await api.post('/users/', { username: 'self-made', email: 'Self-Made@Example.com', password: PASSWORD });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      username: 'self-made',
      email: 'self-made@example.com',
      role: 'user',
      organization_id: null,
      ...NO_CAPABILITIES,
    });
    const explicitRole = await api.post('/users/', {
      username: 'self-made2',
      email: 'self-made2@example.com',
      password: PASSWORD,
      role: 'user',
    });
    expect(explicitRole.status).toBe(201);
    const token = await api.token('self-made', PASSWORD);
    expect((await api.get('/users/me', token)).body.username).toBe('self-made');
  });

  it('still refuses anonymous admins, superusers, organizations and capabilities', async () => {
    for (const role of ['admin', 'superuser']) {
      const response = await api.post('/users/', { username: `open-${role}`, email: `open-${role}@example.com`, password: PASSWORD, role });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ detail: 'Not enough permissions to create admin or superuser accounts' });
    }
    const root = await api.token('root', PASSWORD);
    const org = await api.post('/organizations/', { name: 'Open Org' }, root);
    expect(org.status).toBe(201);
    const withOrg = await api.post('/users/', {
      username: 'open-org',
      email: 'open-org@example.com',
      password: PASSWORD,
      organization_id: org.body.id,
    });
    expect(withOrg.status).toBe(403);
    for (const flag of ['can_create_ca', 'can_create_cert', 'can_revoke_cert', 'can_export_private_key', 'can_delete_ca']) {
      const response = await api.post('/users/', {
        username: `open-${flag}`,
        email: `open-${flag}@example.com`,
        password: PASSWORD,
        [flag]: true,
      });
      expect({ flag, status: response.status }).toEqual({ flag, status: 403 });
    }
    const allFalse = await api.post('/users/', {
      username: 'open-false',
      email: 'open-false@example.com',
      password: PASSWORD,
      can_create_ca: false,
    });
    expect(allFalse.status).toBe(201);
  });

  it('still reports duplicates once registration is open', async () => {
    const duplicate = await api.post('/users/', { username: 'self-made', email: 'another@example.com', password: PASSWORD });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ detail: 'Username already registered' });
  });
});
