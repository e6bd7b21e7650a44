import { Client } from 'pg';
import { ApiClient, PASSWORD } from './support/api-client';
import { TestApp } from './support/test-app';
import { startSeededApp, World } from './support/seeded-app';

const AUDIT_FIELDS = [
  'action',
  'created_at',
  'detail',
  'id',
  'organization_id',
  'resource_id',
  'resource_type',
  'service_account_id',
  'service_account_name',
  'user_id',
  'username',
];

interface AuditEntry {
  id: number;
  created_at: string;
  action: string;
  user_id: number | null;
  username: string | null;
  service_account_id: number | null;
  service_account_name: string | null;
  organization_id: number | null;
  resource_type: string | null;
  resource_id: number | null;
  detail: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('audit logs', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp());
  });

  afterAll(async () => {
    await db?.end();
    await testApp?.close();
  });

  /** GET /audit-logs/ with the given query, failing the test on anything but 200. */
  async function audit(query: string, token = w.root.token): Promise<AuditEntry[]> {
    const response = await api.get(`/audit-logs/${query ? `?${query}` : ''}`, token);
    expect({ query, status: response.status, body: response.status === 200 ? undefined : response.body }).toEqual({
      query,
      status: 200,
      body: undefined,
    });
    return response.body as AuditEntry[];
  }

  async function dbCount(where: string, params: unknown[] = []): Promise<number> {
    return (await db.query(`SELECT count(*)::int AS n FROM audit_logs WHERE ${where}`, params)).rows[0].n;
  }

  describe('access', () => {
    it('refuses plain users with 403 and anonymous callers with 401', async () => {
      for (const token of [w.user1.token, w.user2.token, w.loner.token]) {
        const response = await api.get('/audit-logs/', token);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ detail: expect.any(String) });
      }
      const anonymous = await api.get('/audit-logs/');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ detail: 'Not authenticated' });
    });

    it('shows admins exactly the entries of their own organization', async () => {
      for (const [admin, org] of [
        [w.admin1, w.org1],
        [w.admin2, w.org2],
      ] as const) {
        const entries = await audit('limit=1000', admin.token);
        expect(entries.length).toBeGreaterThan(0);
        for (const entry of entries) expect(entry.organization_id).toBe(org.id);
        expect(entries.length).toBe(await dbCount('organization_id = $1', [org.id]));
      }
      const admin1Entries = await audit('limit=1000', w.admin1.token);
      expect(admin1Entries).toContainEqual(expect.objectContaining({ action: 'login_success', user_id: w.admin1.id }));
      expect(admin1Entries).toContainEqual(expect.objectContaining({ action: 'login_success', user_id: w.user1.id }));
      expect(admin1Entries).not.toContainEqual(expect.objectContaining({ user_id: w.user2.id }));
    });

    it('shows superusers every entry, of every organization and of none', async () => {
      const entries = await audit('limit=1000');
      expect(entries.length).toBe(await dbCount('true'));
      const organizations = new Set(entries.map((entry) => entry.organization_id));
      expect(organizations).toContain(w.org1.id);
      expect(organizations).toContain(w.org2.id);
      expect(organizations).toContain(null);
    });

    it('shows an admin without an organization nothing', async () => {
      const created = await api.post(
        '/users/',
        { username: 'orgless-admin', email: 'orgless-admin@example.com', password: PASSWORD, role: 'admin', organization_id: null },
        w.root.token,
      );
      expect(created.status).toBe(201);
      const token = await api.token('orgless-admin', PASSWORD);
      expect(await dbCount('organization_id IS NULL')).toBeGreaterThan(0);
      expect(await audit('', token)).toEqual([]);
      expect(await audit('limit=1000&action=login_success', token)).toEqual([]);
    });

    it('answers entries with exactly the documented fields', async () => {
      const entries = await audit('limit=1000');
      for (const entry of entries) {
        expect(Object.keys(entry).sort()).toEqual(AUDIT_FIELDS);
        expect(entry).toEqual({
          id: expect.any(Number),
          created_at: expect.any(String),
          action: expect.any(String),
          user_id: entry.user_id === null ? null : expect.any(Number),
          username: entry.username === null ? null : expect.any(String),
          service_account_id: null,
          service_account_name: null,
          organization_id: entry.organization_id === null ? null : expect.any(Number),
          resource_type: entry.resource_type === null ? null : expect.any(String),
          resource_id: entry.resource_id === null ? null : expect.any(Number),
          detail: entry.detail === null ? null : expect.any(String),
        });
        expect(new Date(entry.created_at).toISOString()).toBe(entry.created_at);
      }
    });
  });

  describe('logins', () => {
    it('records a successful login with the user', async () => {
      const before = await dbCount("action = 'login_success' AND user_id = $1", [w.user1.id]);
      expect((await api.login('user1', PASSWORD)).status).toBe(200);
      expect(await dbCount("action = 'login_success' AND user_id = $1", [w.user1.id])).toBe(before + 1);
      const [latest] = await audit(`action=login_success&user_id=${w.user1.id}&limit=1`);
      expect(latest).toMatchObject({
        action: 'login_success',
        user_id: w.user1.id,
        username: 'user1',
        organization_id: w.org1.id,
        service_account_id: null,
      });
    });

    it('records a failed login with the attempted username and no user id', async () => {
      const wrongPassword = await api.login('user1', 'wrong-password');
      expect(wrongPassword.status).toBe(401);
      const [failure] = await audit('action=login_failure&limit=1');
      expect(failure).toMatchObject({ action: 'login_failure', user_id: null, username: 'user1' });
      expect(failure.detail ?? '').not.toContain('wrong-password');
    });

    it('records a failed login of an unknown username too', async () => {
      const unknown = await api.login('nobody-such', 'whatever-pw');
      expect(unknown.status).toBe(401);
      const [failure] = await audit('action=login_failure&limit=1');
      expect(failure).toMatchObject({ action: 'login_failure', user_id: null, username: 'nobody-such' });
      const rows = await db.query("SELECT user_id, username FROM audit_logs WHERE action = 'login_failure' ORDER BY id");
      expect(rows.rows).toEqual([
        { user_id: null, username: 'user1' },
        { user_id: null, username: 'nobody-such' },
      ]);
      expect(await dbCount("detail LIKE '%whatever-pw%' OR detail LIKE '%wrong-password%'")).toBe(0);
    });
  });

  describe('mutations', () => {
    it('records the creation of the first user', async () => {
      const entries = await audit(`action=user_create&resource_type=user&resource_id=${w.root.id}`);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action: 'user_create', resource_type: 'user', resource_id: w.root.id });
    });

    it('records user_create, user_update, user_delete, org_create, org_update, org_add_user, org_remove_user and org_delete', async () => {
      const org = await api.post('/organizations/', { name: 'Audited Org' }, w.root.token);
      expect(org.status).toBe(201);
      const orgId = org.body.id as number;
      const user = await api.post(
        '/users/',
        { username: 'audited', email: 'audited@example.com', password: PASSWORD, organization_id: w.org1.id },
        w.root.token,
      );
      expect(user.status).toBe(201);
      const userId = user.body.id as number;
      const update = await api.patch(
        `/users/${userId}`,
        { email: 'audited2@example.com', password: 'secret-new-pass-123', can_create_ca: true },
        w.admin1.token,
      );
      expect(update.status).toBe(200);
      expect((await api.put(`/organizations/${orgId}`, { name: 'Audited Org Renamed', description: 'd' }, w.root.token)).status).toBe(200);
      expect((await api.post(`/organizations/${orgId}/users/${userId}`, undefined, w.root.token)).status).toBe(200);
      expect((await api.delete(`/organizations/${orgId}/users/${userId}`, w.root.token)).status).toBe(200);
      expect((await api.delete(`/users/${userId}`, w.root.token)).status).toBe(204);
      expect((await api.delete(`/organizations/${orgId}`, w.root.token)).status).toBe(204);

      const expectations: Array<[string, string, number, number | null, number]> = [
        ['user_create', 'user', userId, w.org1.id, w.root.id],
        ['user_update', 'user', userId, w.org1.id, w.admin1.id],
        ['user_delete', 'user', userId, null, w.root.id],
        ['org_create', 'organization', orgId, orgId, w.root.id],
        ['org_update', 'organization', orgId, orgId, w.root.id],
        ['org_add_user', 'user', userId, orgId, w.root.id],
        ['org_remove_user', 'user', userId, orgId, w.root.id],
        ['org_delete', 'organization', orgId, orgId, w.root.id],
      ];
      for (const [action, resourceType, resourceId, organizationId, actorId] of expectations) {
        const entries = await audit(`action=${action}&resource_type=${resourceType}&resource_id=${resourceId}`);
        expect({ action, count: entries.length }).toEqual({ action, count: 1 });
        expect(entries[0]).toMatchObject({ action, resource_type: resourceType, resource_id: resourceId, user_id: actorId });
        if (action !== 'user_delete')
          expect({ action, organization: entries[0].organization_id }).toEqual({ action, organization: organizationId });
      }

      const [updated] = await audit(`action=user_update&resource_id=${userId}`);
      expect(updated.username).toBe('admin1');
      expect(updated.detail).toEqual(expect.stringContaining('email'));
      expect(updated.detail).toEqual(expect.stringContaining('password'));
      expect(updated.detail).toEqual(expect.stringContaining('can_create_ca'));
      expect(updated.detail).not.toContain('secret-new-pass-123');
      expect(updated.detail).not.toContain('$argon2');
      expect(await dbCount("detail LIKE '%secret-new-pass%' OR detail LIKE '%argon2%'")).toBe(0);

      const adminView = await audit(`limit=1000&resource_id=${userId}`, w.admin1.token);
      expect(adminView.map((entry) => entry.action).sort()).toEqual(['user_create', 'user_update']);
    });

    it('writes no entry for a rejected operation', async () => {
      expect((await api.post('/organizations/', { name: 'Txn Org' }, w.root.token)).status).toBe(201);
      const orgCreates = await dbCount("action = 'org_create'");
      const total = await dbCount('true');

      const duplicate = await api.post('/organizations/', { name: 'TXN ORG' }, w.root.token);
      expect(duplicate.status).toBe(400);
      const forbidden = await api.post('/organizations/', { name: 'Forbidden Org' }, w.user1.token);
      expect(forbidden.status).toBe(403);
      const badUser = await api.post(
        '/users/',
        { username: 'ghost', email: 'ghost@example.com', password: PASSWORD, organization_id: 999999 },
        w.root.token,
      );
      expect(badUser.status).toBe(400);
      const badUpdate = await api.patch(`/users/${w.user1.id}`, { email: 'user2@example.com' }, w.root.token);
      expect(badUpdate.status).toBe(400);
      const forbiddenUpdate = await api.patch(`/users/${w.user1.id}`, { role: 'admin' }, w.admin1.token);
      expect(forbiddenUpdate.status).toBe(403);
      const badDelete = await api.delete(`/organizations/${w.org1.id}`, w.root.token);
      expect(badDelete.status).toBe(400);

      expect(await dbCount("action = 'org_create'")).toBe(orgCreates);
      expect(await dbCount("detail LIKE '%TXN ORG%' OR detail LIKE '%Forbidden Org%' OR detail LIKE '%ghost%'")).toBe(0);
      expect(await dbCount('true')).toBe(total);
    });

    it('records exactly one org_create when the same new name is submitted concurrently', async () => {
      const before = await dbCount("action = 'org_create'");
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => api.post('/organizations/', { name: 'Raced Org' }, w.root.token)),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 400, 400, 400, 400]);
      for (const response of responses.filter((r) => r.status === 400)) {
        expect(response.body).toEqual({ detail: 'Organization with this name already exists' });
      }
      expect(await dbCount("action = 'org_create'")).toBe(before + 1);
      const created = responses.find((response) => response.status === 201)!.body.id as number;
      expect(await audit(`action=org_create&resource_id=${created}`)).toHaveLength(1);
    });
  });

  describe('filters and order', () => {
    it('lists newest first', async () => {
      const entries = await audit('limit=1000');
      expect(entries.length).toBeGreaterThan(20);
      for (let i = 1; i < entries.length; i++) {
        const newer = new Date(entries[i - 1].created_at).getTime();
        const older = new Date(entries[i].created_at).getTime();
        expect(newer).toBeGreaterThanOrEqual(older);
        if (newer === older) expect(entries[i - 1].id).toBeGreaterThan(entries[i].id);
      }
      expect((await api.login('admin2', PASSWORD)).status).toBe(200);
      const [newest] = await audit('limit=1');
      expect(newest).toMatchObject({ action: 'login_success', user_id: w.admin2.id });
    });

    it('filters by action', async () => {
      const entries = await audit('action=user_create&limit=1000');
      expect(entries.length).toBe(await dbCount("action = 'user_create'"));
      expect(entries.length).toBeGreaterThanOrEqual(6);
      for (const entry of entries) expect(entry.action).toBe('user_create');
    });

    it('filters by user_id', async () => {
      const entries = await audit(`user_id=${w.admin1.id}&limit=1000`);
      expect(entries.length).toBe(await dbCount('user_id = $1', [w.admin1.id]));
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) expect(entry.user_id).toBe(w.admin1.id);
      expect(await audit(`user_id=${w.user2.id}`, w.admin1.token)).toEqual([]);
    });

    it('filters by resource_type and resource_id', async () => {
      const organizations = await audit('resource_type=organization&limit=1000');
      expect(organizations.length).toBe(await dbCount("resource_type = 'organization'"));
      for (const entry of organizations) expect(entry.resource_type).toBe('organization');

      const org1 = await audit(`resource_type=organization&resource_id=${w.org1.id}&limit=1000`);
      expect(org1).toContainEqual(expect.objectContaining({ action: 'org_create', resource_id: w.org1.id }));
      for (const entry of org1) expect(entry).toMatchObject({ resource_type: 'organization', resource_id: w.org1.id });

      const byId = await audit(`resource_id=${w.user1.id}&limit=1000`);
      expect(byId.length).toBe(await dbCount('resource_id = $1', [w.user1.id]));
      for (const entry of byId) expect(entry.resource_id).toBe(w.user1.id);
      expect(await audit('resource_type=no-such-type')).toEqual([]);
    });

    it('filters by a time window with since and until', async () => {
      const t0 = new Date();
      await sleep(30);
      expect((await api.post('/organizations/', { name: 'Inside Window' }, w.root.token)).status).toBe(201);
      await sleep(30);
      const t1 = new Date();
      await sleep(30);
      expect((await api.post('/organizations/', { name: 'After Window' }, w.root.token)).status).toBe(201);

      const details = (entries: AuditEntry[]) => entries.map((entry) => entry.detail ?? '');
      const inside = await audit(`since=${t0.toISOString()}&until=${t1.toISOString()}&action=org_create`);
      expect(details(inside)).toEqual([expect.stringContaining('Inside Window')]);
      const sinceT1 = await audit(`since=${t1.toISOString()}&action=org_create`);
      expect(details(sinceT1)).toEqual([expect.stringContaining('After Window')]);
      const untilT1 = await audit(`until=${t1.toISOString()}&action=org_create&limit=1000`);
      expect(details(untilT1)).toContainEqual(expect.stringContaining('Inside Window'));
      expect(details(untilT1)).not.toContainEqual(expect.stringContaining('After Window'));

      for (const entry of await audit(`since=${t0.toISOString()}&limit=1000`)) {
        expect(new Date(entry.created_at).getTime()).toBeGreaterThanOrEqual(t0.getTime());
      }
      for (const entry of await audit(`until=${t1.toISOString()}&limit=1000`)) {
        expect(new Date(entry.created_at).getTime()).toBeLessThanOrEqual(t1.getTime());
      }
      const offset = await audit(
        `since=${encodeURIComponent(t0.toISOString().replace('Z', '+00:00'))}&until=${encodeURIComponent(t1.toISOString().replace('Z', '+00:00'))}&action=org_create`,
      );
      expect(details(offset)).toEqual([expect.stringContaining('Inside Window')]);
      expect(await audit(`since=${t1.toISOString()}&until=${t0.toISOString()}`)).toEqual([]);
    });

    it('treats since and until as inclusive bounds at the timestamps it reports', async () => {
      const [entry] = await audit('action=org_create&limit=1');
      const at = encodeURIComponent(entry.created_at);
      const since = await audit(`since=${at}&action=org_create&limit=1000`);
      expect(since.map((e) => e.id)).toContain(entry.id);
      const until = await audit(`until=${at}&action=org_create&limit=1000`);
      expect(until.map((e) => e.id)).toContain(entry.id);
      const both = await audit(`since=${at}&until=${at}&limit=1000`);
      expect(both.map((e) => e.id)).toContain(entry.id);
    });

    it('combines filters', async () => {
      const entries = await audit(`action=login_success&user_id=${w.user1.id}&resource_type=user&resource_id=${w.user1.id}&limit=1000`);
      expect(entries.length).toBe(
        await dbCount("action = 'login_success' AND user_id = $1 AND resource_type = 'user' AND resource_id = $1", [w.user1.id]),
      );
      expect(entries.length).toBeGreaterThanOrEqual(2);
      expect(await audit(`action=login_failure&user_id=${w.user1.id}`)).toEqual([]);
    });

    it('paginates with skip and limit', async () => {
      const all = await audit('limit=1000');
      const defaultPage = await audit('');
      expect(defaultPage.map((entry) => entry.id)).toEqual(all.slice(0, 100).map((entry) => entry.id));
      const firstTwo = await audit('limit=2');
      expect(firstTwo.map((entry) => entry.id)).toEqual(all.slice(0, 2).map((entry) => entry.id));
      const page = await audit('skip=3&limit=4');
      expect(page.map((entry) => entry.id)).toEqual(all.slice(3, 7).map((entry) => entry.id));
      expect(await audit(`skip=${all.length + 10}`)).toEqual([]);
    });

    it('rejects invalid filter values with 400 naming the parameter', async () => {
      const cases: Array<[string, string]> = [
        ['action=not_an_action', 'action'],
        ['action=', 'action'],
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=-1', 'limit'],
        ['skip=-1', 'skip'],
        ['since=not-a-date', 'since'],
        ['until=yesterday', 'until'],
        ['user_id=abc', 'user_id'],
        ['resource_id=1.5', 'resource_id'],
        ['bogus=1', 'bogus'],
      ];
      for (const [query, parameter] of cases) {
        const response = await api.get(`/audit-logs/?${query}`, w.root.token);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
        expect(Array.isArray(response.body.detail)).toBe(true);
        const locations = (response.body.detail as Array<{ loc: unknown[] }>).map((problem) => problem.loc);
        expect(locations.length).toBeGreaterThan(0);
        for (const location of locations) expect(location).toEqual(['query', parameter]);
      }
      expect((await audit('limit=1000')).length).toBeGreaterThan(0);
      expect(await audit('limit=1')).toHaveLength(1);
    });
  });

  it('never sends a password hash or a token digest', () => {
    expect(api.seenBodies.length).toBeGreaterThan(50);
    for (const body of api.seenBodies) {
      expect(body).not.toContain('password_hash');
      expect(body).not.toContain('passwordHash');
      expect(body).not.toContain('$argon2');
      expect(body).not.toContain('token_hash');
      expect(body).not.toContain('tokens_invalidated_at');
    }
  });
});
