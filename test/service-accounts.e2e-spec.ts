import { Client } from 'pg';
import { ApiClient, Fixture, PASSWORD } from './support/api-client';
import { TestApp } from './support/test-app';
import { startSeededApp, World } from './support/seeded-app';

/**
 * Service accounts: management endpoints (who may call them, organization scoping, create / update /
 * delete), their tokens (minting, listing, revoking, expiry, disabling, storage as an HMAC) and what a
 * service-account token may call. Issuance policies and their enforcement: issuance-policy.e2e-spec.ts.
 */

const ACCOUNT_FIELDS = [
  'can_create_ca',
  'can_create_cert',
  'can_delete_ca',
  'can_export_private_key',
  'can_revoke_cert',
  'created_at',
  'created_by_user_id',
  'description',
  'disabled',
  'disabled_at',
  'id',
  'name',
  'organization_id',
  'updated_at',
];
const TOKEN_FIELDS = ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'public_id', 'revoked'];
const TOKEN_SHAPE = /^pki_sa_([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

const ACCOUNT_NOT_FOUND = { detail: 'Service account not found' };
const INVALID_CREDENTIALS = { detail: 'Could not validate credentials' };
const USER_SESSION_REQUIRED = { detail: 'This endpoint requires a user session' };

interface Minted {
  /** The token metadata of the create response (with the one-time `token`). */
  body: any;
  token: string;
  publicId: string;
  secret: string;
}

describe('service accounts', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  let orphanAdmin: Fixture;
  let org1Ca: any;
  let org2Ca: any;
  /** Every token minted in this file, for the storage and leak scans. */
  const minted: Minted[] = [];
  let seq = 0;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp({ CA_KEY_SIZE: '2048' }));
    const created = await api.post(
      '/users/',
      { username: 'orphan-admin', email: 'orphan-admin@example.com', password: PASSWORD, role: 'admin', organization_id: null },
      w.root.token,
    );
    expect(created.status).toBe(201);
    orphanAdmin = { id: created.body.id, username: 'orphan-admin', token: await api.token('orphan-admin', PASSWORD) };
    org1Ca = await createCa(w.admin1.token);
    org2Ca = await createCa(w.admin2.token);
  });

  afterAll(async () => {
    await db?.end();
    await testApp?.close();
  });

  async function createCa(token: string): Promise<any> {
    const name = `SA test CA ${++seq}`;
    const response = await api.post('/cas/', { name, subject_dn: `CN=${name},O=Test`, key_type: 'ecdsa-p256' }, token);
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  /** Creates a service account (in the admin's organization unless the body says otherwise). */
  async function createAccount(token = w.admin1.token, body: object = {}): Promise<any> {
    const response = await api.post('/service-accounts/', { name: `robot-${++seq}`, ...body }, token);
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  async function mint(accountId: number, token = w.admin1.token, body: object = {}): Promise<Minted> {
    const response = await api.post(`/service-accounts/${accountId}/tokens`, { name: `token-${++seq}`, ...body }, token);
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    const match = TOKEN_SHAPE.exec(response.body.token);
    expect(match).not.toBeNull();
    const result = { body: response.body, token: response.body.token as string, publicId: match![1], secret: match![2] };
    minted.push(result);
    return result;
  }

  async function listTokens(accountId: number, token = w.admin1.token): Promise<any[]> {
    const response = await api.get(`/service-accounts/${accountId}/tokens`, token);
    expect(response.status).toBe(200);
    return response.body;
  }

  async function auditEntries(action: string, resourceId: number): Promise<any[]> {
    const response = await api.get(
      `/audit-logs/?action=${action}&resource_type=service_account&resource_id=${resourceId}&limit=1000`,
      w.root.token,
    );
    expect(response.status).toBe(200);
    return response.body;
  }

  /** Every management endpoint, for the account and token given. */
  function endpoints(accountId: number, tokenId: number): Array<[string, string, object | undefined]> {
    return [
      ['POST', '/service-accounts/', { name: `never-${++seq}` }],
      ['GET', '/service-accounts/', undefined],
      ['GET', `/service-accounts/${accountId}`, undefined],
      ['PATCH', `/service-accounts/${accountId}`, { description: 'changed' }],
      ['DELETE', `/service-accounts/${accountId}`, undefined],
      ['POST', `/service-accounts/${accountId}/tokens`, { name: 'never' }],
      ['GET', `/service-accounts/${accountId}/tokens`, undefined],
      ['DELETE', `/service-accounts/${accountId}/tokens/${tokenId}`, undefined],
      ['PUT', `/service-accounts/${accountId}/policy`, { max_validity_days: 30 }],
      ['GET', `/service-accounts/${accountId}/policy`, undefined],
      ['DELETE', `/service-accounts/${accountId}/policy`, undefined],
    ];
  }

  async function call(method: string, path: string, json: object | undefined, token?: string) {
    const response = await api.request(method, path, { json, token });
    return { method, path, status: response.status, body: response.body };
  }

  describe('access', () => {
    let account: any;
    let token: Minted;

    beforeAll(async () => {
      account = await createAccount();
      token = await mint(account.id);
    });

    afterAll(async () => {
      // Nothing the refused calls below could have changed.
      const again = await api.get(`/service-accounts/${account.id}`, w.admin1.token);
      expect(again.body).toEqual(account);
      const tokens = await listTokens(account.id);
      expect(tokens.map((t) => [t.id, t.revoked])).toEqual([[token.body.id, false]]);
    });

    it('answers 401 without a token and 403 to plain users on all eleven endpoints', async () => {
      const list = endpoints(account.id, token.body.id);
      expect(list).toHaveLength(11);
      for (const [method, path, json] of list) {
        expect(await call(method, path, json)).toMatchObject({ method, path, status: 401 });
        expect(await call(method, path, json, w.user1.token)).toMatchObject({ method, path, status: 403 });
      }
    });

    it('answers 401 to a service-account token on all eleven endpoints, even its own account', async () => {
      expect((await api.put(`/service-accounts/${account.id}/policy`, { max_validity_days: 30 }, w.admin1.token)).status).toBe(200);
      for (const [method, path, json] of endpoints(account.id, token.body.id)) {
        expect(await call(method, path, json, token.token)).toEqual({ method, path, status: 401, body: USER_SESSION_REQUIRED });
      }
      expect((await api.delete(`/service-accounts/${account.id}/policy`, w.admin1.token)).status).toBe(204);
    });

    it('hides accounts of another organization (404) on every endpoint that names one', async () => {
      for (const [method, path, json] of endpoints(account.id, token.body.id).filter(([, path]) => path !== '/service-accounts/')) {
        expect(await call(method, path, json, w.admin2.token)).toEqual({ method, path, status: 404, body: ACCOUNT_NOT_FOUND });
        expect(await call(method, path, json, orphanAdmin.token)).toEqual({ method, path, status: 404, body: ACCOUNT_NOT_FOUND });
      }
    });

    it('lists the own organization’s accounts to admins, all to superusers, none to an admin without organization', async () => {
      const other = await createAccount(w.admin2.token);
      const own = await api.get('/service-accounts/', w.admin1.token);
      expect(own.status).toBe(200);
      expect(own.body.map((a: any) => a.id)).toContain(account.id);
      expect(own.body.every((a: any) => a.organization_id === w.org1.id)).toBe(true);
      const theirs = await api.get('/service-accounts/', w.admin2.token);
      expect(theirs.body.map((a: any) => a.id)).toContain(other.id);
      expect(theirs.body.every((a: any) => a.organization_id === w.org2.id)).toBe(true);
      const all = await api.get('/service-accounts/', w.root.token);
      expect(all.body.map((a: any) => a.id)).toEqual(expect.arrayContaining([account.id, other.id]));
      expect(await api.get(`/service-accounts/${other.id}`, w.root.token)).toMatchObject({ status: 200, body: other });
      expect(await api.get('/service-accounts/', orphanAdmin.token)).toMatchObject({ status: 200, body: [] });
    });

    it('lists the documented fields only', async () => {
      const own = await api.get('/service-accounts/', w.admin1.token);
      for (const listed of own.body) expect(Object.keys(listed).sort()).toEqual(ACCOUNT_FIELDS);
      expect(own.body.find((a: any) => a.id === account.id)).toEqual(account);
    });
  });

  describe('POST /service-accounts/', () => {
    it('creates an account in the admin’s organization with the documented fields, audited', async () => {
      const response = await api.post(
        '/service-accounts/',
        { name: 'deployer', description: 'CI deploys', can_create_cert: true },
        w.admin1.token,
      );
      expect(response.status).toBe(201);
      const account = response.body;
      expect(Object.keys(account).sort()).toEqual(ACCOUNT_FIELDS);
      expect(account).toEqual({
        id: expect.any(Number),
        name: 'deployer',
        description: 'CI deploys',
        organization_id: w.org1.id,
        can_create_ca: false,
        can_create_cert: true,
        can_revoke_cert: false,
        can_export_private_key: false,
        can_delete_ca: false,
        disabled: false,
        disabled_at: null,
        created_by_user_id: w.admin1.id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(await api.get(`/service-accounts/${account.id}`, w.admin1.token)).toMatchObject({ status: 200, body: account });
      const entries = await auditEntries('service_account_create', account.id);
      expect(entries).toEqual([
        expect.objectContaining({
          action: 'service_account_create',
          user_id: w.admin1.id,
          organization_id: w.org1.id,
          resource_id: account.id,
        }),
      ]);
    });

    it('takes every capability flag and a null description', async () => {
      const flags = {
        can_create_ca: true,
        can_create_cert: true,
        can_revoke_cert: true,
        can_export_private_key: true,
        can_delete_ca: true,
      };
      const account = await createAccount(w.admin1.token, flags);
      expect(account).toMatchObject({ ...flags, description: null });
    });

    it('lets an admin name their own organization but no other', async () => {
      const own = await createAccount(w.admin1.token, { organization_id: w.org1.id });
      expect(own.organization_id).toBe(w.org1.id);
      const other = await api.post('/service-accounts/', { name: `elsewhere-${++seq}`, organization_id: w.org2.id }, w.admin1.token);
      expect(other.status).toBe(400);
      const list = await api.get('/service-accounts/', w.admin2.token);
      expect(list.body.map((a: any) => a.name)).not.toContain(`elsewhere-${seq}`);
    });

    it('lets a superuser choose the organization, or uses their own', async () => {
      const chosen = await createAccount(w.root.token, { organization_id: w.org2.id });
      expect(chosen).toMatchObject({ organization_id: w.org2.id, created_by_user_id: w.root.id });
      expect((await api.get(`/service-accounts/${chosen.id}`, w.admin2.token)).status).toBe(200);

      const created = await api.post(
        '/users/',
        { username: 'org-super', email: 'org-super@example.com', password: PASSWORD, role: 'superuser', organization_id: w.org1.id },
        w.root.token,
      );
      expect(created.status).toBe(201);
      const orgSuper = await api.token('org-super', PASSWORD);
      const defaulted = await createAccount(orgSuper);
      expect(defaulted.organization_id).toBe(w.org1.id);
    });

    it('refuses a superuser without organization who names none, and unknown organizations', async () => {
      const noOrg = await api.post('/service-accounts/', { name: `nowhere-${++seq}` }, w.root.token);
      expect(noOrg.status).toBe(400);
      const orphan = await api.post('/service-accounts/', { name: `nowhere-${++seq}` }, orphanAdmin.token);
      expect(orphan.status).toBe(400);
      const unknown = await api.post('/service-accounts/', { name: `nowhere-${++seq}`, organization_id: 999999 }, w.root.token);
      expect(unknown.status).toBe(400);
      const all = await api.get('/service-accounts/', w.root.token);
      expect(all.body.filter((a: any) => a.name.startsWith('nowhere-'))).toEqual([]);
    });

    it('refuses a duplicate name in the organization regardless of case, but not in another one', async () => {
      await createAccount(w.admin1.token, { name: 'Backup-Agent' });
      for (const name of ['Backup-Agent', 'backup-agent', 'BACKUP-AGENT']) {
        const duplicate = await api.post('/service-accounts/', { name }, w.admin1.token);
        expect({ name, status: duplicate.status }).toEqual({ name, status: 400 });
      }
      const elsewhere = await api.post('/service-accounts/', { name: 'backup-agent' }, w.admin2.token);
      expect(elsewhere.status).toBe(201);
      expect(elsewhere.body.organization_id).toBe(w.org2.id);
      const viaRoot = await api.post('/service-accounts/', { name: 'BACKUP-agent', organization_id: w.org1.id }, w.root.token);
      expect(viaRoot.status).toBe(400);
    });

    it('validates the body', async () => {
      const cases: object[] = [
        {},
        { name: '' },
        { name: 'x', can_create_cert: 'yes' },
        { name: 'x', unknown_field: 1 },
        { name: 'x', disabled: true },
      ];
      for (const body of cases) {
        const response = await api.post('/service-accounts/', body, w.admin1.token);
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
      }
    });
  });

  describe('PATCH /service-accounts/{id}', () => {
    it('renames, describes and changes capability flags, audited', async () => {
      const account = await createAccount();
      const response = await api.patch(
        `/service-accounts/${account.id}`,
        { name: `renamed-${account.id}`, description: 'now described', can_revoke_cert: true, can_create_cert: true },
        w.admin1.token,
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...account,
        name: `renamed-${account.id}`,
        description: 'now described',
        can_revoke_cert: true,
        can_create_cert: true,
        updated_at: expect.any(String),
      });
      expect(await api.get(`/service-accounts/${account.id}`, w.admin1.token)).toMatchObject({ body: response.body });
      const cleared = await api.patch(`/service-accounts/${account.id}`, { description: null, can_revoke_cert: false }, w.admin1.token);
      expect(cleared.body).toMatchObject({ description: null, can_revoke_cert: false, can_create_cert: true });
      const entries = await auditEntries('service_account_update', account.id);
      expect(entries).toHaveLength(2);
      expect(entries.every((e) => e.user_id === w.admin1.id && e.organization_id === w.org1.id)).toBe(true);
    });

    it('disables and enables, setting and clearing disabled_at', async () => {
      const account = await createAccount();
      const disabled = await api.patch(`/service-accounts/${account.id}`, { disabled: true }, w.admin1.token);
      expect(disabled.status).toBe(200);
      expect(disabled.body).toMatchObject({ disabled: true, disabled_at: expect.any(String) });
      expect(Date.parse(disabled.body.disabled_at)).not.toBeNaN();
      const enabled = await api.patch(`/service-accounts/${account.id}`, { disabled: false }, w.admin1.token);
      expect(enabled.body).toMatchObject({ disabled: false, disabled_at: null });
    });

    it('refuses a duplicate name and unknown fields such as organization_id', async () => {
      const first = await createAccount();
      const second = await createAccount();
      const duplicate = await api.patch(`/service-accounts/${second.id}`, { name: first.name.toUpperCase() }, w.admin1.token);
      expect(duplicate.status).toBe(400);
      const move = await api.patch(`/service-accounts/${second.id}`, { organization_id: w.org2.id }, w.admin1.token);
      expect(move.status).toBe(400);
      const moveByRoot = await api.patch(`/service-accounts/${second.id}`, { organization_id: w.org2.id }, w.root.token);
      expect(moveByRoot.status).toBe(400);
      const ownName = await api.patch(`/service-accounts/${second.id}`, { name: second.name }, w.admin1.token);
      expect(ownName.status).toBe(200);
      expect(await api.get(`/service-accounts/${second.id}`, w.admin1.token)).toMatchObject({
        body: { name: second.name, organization_id: w.org1.id },
      });
    });

    it('lets a superuser update any account', async () => {
      const account = await createAccount(w.admin2.token);
      const response = await api.patch(`/service-accounts/${account.id}`, { description: 'by root' }, w.root.token);
      expect(response).toMatchObject({ status: 200, body: { description: 'by root', organization_id: w.org2.id } });
    });
  });

  describe('DELETE /service-accounts/{id}', () => {
    it('deletes the account, stops its tokens, audited', async () => {
      const account = await createAccount();
      const token = await mint(account.id);
      expect((await api.get('/cas/', token.token)).status).toBe(200);
      expect((await api.delete(`/service-accounts/${account.id}`, w.admin1.token)).status).toBe(204);
      expect(await api.get(`/service-accounts/${account.id}`, w.admin1.token)).toMatchObject({ status: 404, body: ACCOUNT_NOT_FOUND });
      expect(await api.get('/cas/', token.token)).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
      expect(await api.delete(`/service-accounts/${account.id}`, w.admin1.token)).toMatchObject({ status: 404, body: ACCOUNT_NOT_FOUND });
      expect((await api.get('/service-accounts/', w.admin1.token)).body.map((a: any) => a.id)).not.toContain(account.id);
      const entries = await auditEntries('service_account_delete', account.id);
      expect(entries).toEqual([expect.objectContaining({ user_id: w.admin1.id, organization_id: w.org1.id, resource_id: account.id })]);
    });

    it('lets exactly one of concurrent deletes succeed and audit; the rest get 404', async () => {
      const account = await createAccount();
      await mint(account.id);
      const responses = await Promise.all(Array.from({ length: 8 }, () => api.delete(`/service-accounts/${account.id}`, w.admin1.token)));
      expect(responses.map((response) => response.status).sort()).toEqual([204, 404, 404, 404, 404, 404, 404, 404]);
      for (const response of responses.filter((r) => r.status === 404)) expect(response.body).toEqual(ACCOUNT_NOT_FOUND);
      expect(await auditEntries('service_account_delete', account.id)).toHaveLength(1);
    });

    it('lets a superuser delete any account', async () => {
      const account = await createAccount(w.admin2.token);
      expect((await api.delete(`/service-accounts/${account.id}`, w.root.token)).status).toBe(204);
      expect((await api.get(`/service-accounts/${account.id}`, w.admin2.token)).status).toBe(404);
    });
  });

  describe('tokens', () => {
    it('mints a token shown once with its metadata, audited', async () => {
      const account = await createAccount();
      const response = await api.post(`/service-accounts/${account.id}/tokens`, { name: 'deploy key' }, w.admin1.token);
      expect(response.status).toBe(201);
      expect(Object.keys(response.body).sort()).toEqual([...TOKEN_FIELDS, 'token'].sort());
      expect(response.body).toEqual({
        id: expect.any(Number),
        public_id: expect.any(String),
        name: 'deploy key',
        created_at: expect.any(String),
        last_used_at: null,
        expires_at: null,
        revoked: false,
        token: expect.stringMatching(TOKEN_SHAPE),
      });
      const [, publicId, secret] = TOKEN_SHAPE.exec(response.body.token)!;
      minted.push({ body: response.body, token: response.body.token, publicId, secret });
      expect(response.body.public_id).toBe(publicId);

      const listed = await listTokens(account.id);
      const { token: _plaintext, ...metadata } = response.body;
      expect(listed).toEqual([metadata]);
      for (const entry of listed) expect(Object.keys(entry).sort()).toEqual(TOKEN_FIELDS);

      const second = await mint(account.id);
      expect(second.token).not.toBe(response.body.token);
      expect(second.publicId).not.toBe(publicId);
      expect((await listTokens(account.id)).map((t) => t.id)).toEqual([response.body.id, second.body.id]);
      expect(await auditEntries('service_account_token_create', account.id)).toHaveLength(2);
    });

    it('takes a future expires_at and refuses a past one', async () => {
      const account = await createAccount();
      const expiresAt = new Date(Date.now() + 86_400_000);
      const future = await mint(account.id, w.admin1.token, { expires_at: expiresAt.toISOString() });
      expect(Date.parse(future.body.expires_at)).toBe(expiresAt.getTime());
      const past = await api.post(
        `/service-accounts/${account.id}/tokens`,
        { name: 'old', expires_at: new Date(Date.now() - 60_000).toISOString() },
        w.admin1.token,
      );
      expect(past.status).toBe(400);
      const garbage = await api.post(`/service-accounts/${account.id}/tokens`, { name: 'bad', expires_at: 'tomorrow-ish' }, w.admin1.token);
      expect(garbage.status).toBe(400);
      const unnamed = await api.post(`/service-accounts/${account.id}/tokens`, {}, w.admin1.token);
      expect(unnamed.status).toBe(400);
      expect(await listTokens(account.id)).toHaveLength(1);
    });

    it('revokes a token (idempotently) and refuses tokens of another account', async () => {
      const account = await createAccount();
      const other = await createAccount();
      const token = await mint(account.id);
      const otherToken = await mint(other.id);
      expect(await api.delete(`/service-accounts/${account.id}/tokens/${otherToken.body.id}`, w.admin1.token)).toMatchObject({
        status: 404,
      });
      expect(await api.delete(`/service-accounts/${account.id}/tokens/999999`, w.admin1.token)).toMatchObject({ status: 404 });
      expect((await listTokens(other.id))[0].revoked).toBe(false);
      expect((await api.get('/cas/', otherToken.token)).status).toBe(200);

      expect((await api.delete(`/service-accounts/${account.id}/tokens/${token.body.id}`, w.admin1.token)).status).toBe(204);
      expect((await api.delete(`/service-accounts/${account.id}/tokens/${token.body.id}`, w.admin1.token)).status).toBe(204);
      expect((await listTokens(account.id))[0]).toMatchObject({ id: token.body.id, revoked: true });
      expect(await auditEntries('service_account_token_revoke', account.id)).toHaveLength(1);
    });

    it('lives: used (last_used_at), then revoked (401)', async () => {
      const account = await createAccount();
      const token = await mint(account.id);
      const cas = await api.get('/cas/', token.token);
      expect(cas.status).toBe(200);
      const caIds = cas.body.map((ca: any) => ca.id);
      expect(caIds).toContain(org1Ca.id);
      expect(caIds).not.toContain(org2Ca.id);
      expect(cas.body.every((ca: any) => ca.organization_id === w.org1.id)).toBe(true);

      const [listed] = await listTokens(account.id);
      expect(listed.last_used_at).toEqual(expect.any(String));
      expect(Date.parse(listed.last_used_at)).toBeGreaterThanOrEqual(Date.parse(listed.created_at));

      expect((await api.delete(`/service-accounts/${account.id}/tokens/${token.body.id}`, w.admin1.token)).status).toBe(204);
      const refused = await api.get('/cas/', token.token);
      expect(refused).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('stops working once expired', async () => {
      const account = await createAccount();
      const token = await mint(account.id, w.admin1.token, { expires_at: new Date(Date.now() + 3_600_000).toISOString() });
      const untouched = await mint(account.id);
      expect((await api.get('/cas/', token.token)).status).toBe(200);
      await db.query("UPDATE service_account_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [token.body.id]);
      expect(await api.get('/cas/', token.token)).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
      expect((await api.get('/cas/', untouched.token)).status).toBe(200);
    });

    it('stops working while the account is disabled, and works again once enabled', async () => {
      const account = await createAccount();
      const token = await mint(account.id);
      expect((await api.get('/cas/', token.token)).status).toBe(200);
      expect((await api.patch(`/service-accounts/${account.id}`, { disabled: true }, w.admin1.token)).status).toBe(200);
      expect(await api.get('/cas/', token.token)).toMatchObject({ status: 401, body: INVALID_CREDENTIALS });
      expect((await api.patch(`/service-accounts/${account.id}`, { disabled: false }, w.admin1.token)).status).toBe(200);
      expect((await api.get('/cas/', token.token)).status).toBe(200);
    });

    it('refuses malformed, unknown and wrong-secret tokens with 401', async () => {
      const account = await createAccount();
      const token = await mint(account.id);
      const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
      const candidates = [
        'pki_sa_short',
        'pki_sa_',
        `pki_sa_${token.publicId}`,
        `pki_sa_${token.publicId}.${token.secret}x`,
        `pki_sa_${flip(token.publicId)}.${token.secret}`,
        `pki_sa_${token.publicId}.${flip(token.secret)}`,
        `pki_sa_${token.publicId}.${'A'.repeat(43)}`,
        `PKI_SA_${token.publicId}.${token.secret}`,
      ];
      for (const candidate of candidates) {
        const response = await api.get('/cas/', candidate);
        expect({ candidate, status: response.status }).toEqual({ candidate, status: 401 });
      }
      const wrongSecret = await api.get('/cas/', `pki_sa_${token.publicId}.${flip(token.secret)}`);
      expect(wrongSecret.body).toEqual(INVALID_CREDENTIALS);
      expect((await api.get('/cas/', token.token)).status).toBe(200);
    });

    it('stores only the public id and an HMAC of the secret', async () => {
      const account = await createAccount();
      const token = await mint(account.id);
      const { rows } = await db.query('SELECT public_id, secret_digest FROM service_account_tokens WHERE id = $1', [token.body.id]);
      expect(rows).toEqual([{ public_id: token.publicId, secret_digest: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      expect(rows[0].secret_digest).not.toContain(token.secret);

      // Use a few tokens first, so that their use could have been logged or stored.
      for (const each of minted.slice(-3)) await api.get('/cas/', each.token);
      const tokenDump = (await db.query("SELECT coalesce(string_agg(t::text, ''), '') AS dump FROM service_account_tokens t")).rows[0]
        .dump as string;
      const auditDump = (await db.query("SELECT coalesce(string_agg(a::text, ''), '') AS dump FROM audit_logs a")).rows[0].dump as string;
      const logs = testApp.logs.text();
      expect(minted.length).toBeGreaterThan(5);
      expect(tokenDump).toContain(token.publicId);
      for (const each of minted) {
        for (const [where, text] of [
          ['service_account_tokens', tokenDump],
          ['audit_logs', auditDump],
          ['logs', logs],
        ] as const) {
          expect({ where, token: text.includes(each.token), secret: text.includes(each.secret) }).toEqual({
            where,
            token: false,
            secret: false,
          });
        }
      }
    });
  });

  describe('what a service account may call', () => {
    let account: any;
    let token: Minted;

    beforeAll(async () => {
      account = await createAccount(w.admin1.token, { can_create_cert: true });
      token = await mint(account.id);
    });

    it('reads its organization’s CAs and nothing of another organization', async () => {
      expect((await api.get(`/cas/${org1Ca.id}`, token.token)).status).toBe(200);
      expect((await api.get(`/cas/${org2Ca.id}`, token.token)).status).toBe(404);
      expect((await api.get('/certificates/', token.token)).status).toBe(200);
    });

    it('acts as role user with its own flags: no CA creation without can_create_ca', async () => {
      const refused = await api.post(
        '/cas/',
        { name: `sa-ca-${++seq}`, subject_dn: 'CN=SA CA,O=Test', key_type: 'ecdsa-p256' },
        token.token,
      );
      expect(refused.status).toBe(403);
      expect((await api.get(`/cas/${org1Ca.id}/private-key`, token.token)).status).toBe(403);
    });

    it('cannot call user-session endpoints', async () => {
      for (const path of ['/users/me', '/organizations/', '/audit-logs/', '/users/']) {
        const response = await api.get(path, token.token);
        expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 401, body: USER_SESSION_REQUIRED });
      }
    });
  });

  // Runs last: scans every response this file has seen.
  describe('leaks', () => {
    it('never returns a token outside its mint response, nor any digest', () => {
      const mintBodies = new Set(minted.map((each) => JSON.stringify(each.body)));
      expect(minted.length).toBeGreaterThan(5);
      for (const body of api.seenBodies) {
        expect(body).not.toContain('secret_digest');
        if (!body.includes('pki_sa_')) continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          parsed = undefined;
        }
        expect({ body, isMintResponse: mintBodies.has(JSON.stringify(parsed)) }).toEqual({ body, isMintResponse: true });
      }
      for (const each of minted) {
        expect(api.seenBodies.filter((body) => body.includes(each.secret))).toHaveLength(1);
      }
    });
  });
});
