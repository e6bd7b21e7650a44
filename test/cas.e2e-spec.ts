import { Client } from 'pg';
import { ApiClient, Fixture } from './support/api-client';
import { TestApp } from './support/test-app';
import { startSeededApp, World } from './support/seeded-app';
import { expectPkcs8PrivateKey } from './support/private-key';

const CA_FIELDS = [
  'allow_leaf_certs',
  'certificate',
  'created_at',
  'created_by_service_account_id',
  'created_by_user_id',
  'crl_url',
  'description',
  'id',
  'is_root',
  'key_size',
  'key_type',
  'leaf_certs_allowed',
  'name',
  'not_after',
  'not_before',
  'ocsp_signer',
  'ocsp_url',
  'ocsp_validity_hours',
  'organization_id',
  'parent_ca_id',
  'path_length',
  'public_base_url',
  'serial_number',
  'slug',
  'subject_dn',
  'updated_at',
  'valid_days',
];

const FORBIDDEN = { detail: 'Insufficient permissions' };
const caNotFound = (id: number | string) => ({ detail: `Certificate Authority with ID ${id} not found` });
const certNotFound = (id: number | string) => ({ detail: `Certificate with ID ${id} not found` });

describe('certificate authorities', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  let seq = 0;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp({ CA_KEY_SIZE: '2048' }));
  });

  afterAll(async () => {
    await db?.end();
    await testApp?.close();
  });

  /** A unique CA name. */
  const unique = (prefix = 'CA') => `${prefix} ${++seq}`;

  /** Creates a CA (ECDSA P-256); an intermediate gets one day less than its parent unless valid_days is given. */
  async function createCa(token: string, body: { parent_ca_id?: number; valid_days?: number; [key: string]: unknown } = {}): Promise<any> {
    const name = unique();
    let validDays = body.valid_days;
    if (validDays === undefined && body.parent_ca_id !== undefined) {
      const { rows } = await db.query('SELECT valid_days FROM certificate_authorities WHERE id = $1', [body.parent_ca_id]);
      validDays = rows[0].valid_days - 1;
    }
    const response = await api.post(
      '/cas/',
      {
        name,
        subject_dn: `CN=${name},O=Test`,
        key_type: 'ecdsa-p256',
        ...body,
        ...(validDays !== undefined ? { valid_days: validDays } : {}),
      },
      token,
    );
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  async function issue(caId: number, token = w.root.token) {
    return api.post(
      `/certificates/?ca_id=${caId}`,
      { common_name: `leaf${++seq}.example.com`, subject_dn: 'O=Test', certificate_type: 'server', key_type: 'ecdsa-p256' },
      token,
    );
  }

  async function setFlags(user: Fixture, flags: Record<string, boolean>): Promise<void> {
    const response = await api.patch(`/users/${user.id}`, flags, w.root.token);
    expect(response.status).toBe(200);
  }

  async function auditEntries(
    action: string,
    resourceId: number,
  ): Promise<Array<{ user_id: number; detail: string; organization_id: number | null }>> {
    const { rows } = await db.query(
      'SELECT user_id, detail, organization_id FROM audit_logs WHERE action = $1 AND resource_id = $2 ORDER BY id',
      [action, resourceId],
    );
    return rows;
  }

  describe('POST /cas/', () => {
    it('creates a root CA with defaults and returns its detail with a PKCS#8 private key', async () => {
      const response = await api.post(
        '/cas/',
        { name: 'Défault Root CA!', subject_dn: 'CN=Default Root,O=Test,C=US', description: 'the default' },
        w.root.token,
      );
      expect(response.status).toBe(201);
      const ca = response.body;
      expect(Object.keys(ca).sort()).toEqual([...CA_FIELDS, 'private_key'].sort());
      expect(ca).toMatchObject({
        name: 'Défault Root CA!',
        slug: `default-root-ca-${ca.id}`,
        crl_url: `${testApp.baseUrl}/crl/default-root-ca-${ca.id}`,
        description: 'the default',
        subject_dn: 'CN=Default Root,O=Test,C=US',
        key_type: 'rsa',
        key_size: 2048,
        valid_days: 3650,
        parent_ca_id: null,
        path_length: null,
        allow_leaf_certs: null,
        leaf_certs_allowed: true,
        is_root: true,
        organization_id: null,
        created_by_user_id: w.root.id,
      });
      expectPkcs8PrivateKey(ca.private_key);
      expect(ca.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
      expect(ca.serial_number).toMatch(/^[0-9a-f]+$/);
      const days = (Date.parse(ca.not_after) - Date.parse(ca.not_before)) / 86_400_000;
      expect(Math.round(days)).toBe(3650);
      const { rows } = await db.query('SELECT organization_id, key_size, private_key FROM certificate_authorities WHERE id = $1', [ca.id]);
      expect(rows).toEqual([{ organization_id: null, key_size: 2048, private_key: expect.not.stringContaining('PRIVATE KEY') }]);
      expect(await auditEntries('ca_create', ca.id)).toHaveLength(1);
    });

    it('gives an ECDSA CA no key_size and honours valid_days', async () => {
      const ca = await createCa(w.root.token, { valid_days: 100 });
      expect(ca).toMatchObject({ key_type: 'ecdsa-p256', key_size: null, valid_days: 100 });
    });

    it('lets an admin create a CA in their organization', async () => {
      const ca = await createCa(w.admin1.token);
      expect(ca).toMatchObject({ organization_id: w.org1.id, created_by_user_id: w.admin1.id });
    });

    it('needs can_create_ca for a plain user, and an organization', async () => {
      const body = { name: unique(), subject_dn: 'CN=User CA', key_type: 'ecdsa-p256' };
      const refused = await api.post('/cas/', body, w.user1.token);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(FORBIDDEN);

      await setFlags(w.user1, { can_create_ca: true });
      await setFlags(w.loner, { can_create_ca: true });
      try {
        const allowed = await api.post('/cas/', body, w.user1.token);
        expect(allowed.status).toBe(201);
        expect(allowed.body).toMatchObject({ organization_id: w.org1.id, created_by_user_id: w.user1.id });
        const loner = await api.post('/cas/', { ...body, name: unique() }, w.loner.token);
        expect(loner.status).toBe(403);
        expect(loner.body).toEqual(FORBIDDEN);
      } finally {
        await setFlags(w.user1, { can_create_ca: false });
        await setFlags(w.loner, { can_create_ca: false });
      }
      const before = (await db.query('SELECT count(*)::int AS n FROM certificate_authorities WHERE name = $1', [body.name])).rows[0].n;
      expect(before).toBe(1);
    });

    it.each([['CN=x,C=USA'], ['nonsense']])('rejects the subject_dn %j with 400 naming subject_dn', async (subject_dn) => {
      const response = await api.post('/cas/', { name: unique(), subject_dn, key_type: 'ecdsa-p256' }, w.root.token);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.detail)).toContain('subject_dn');
    });

    it('rejects key_size for Ed25519 and key sizes below 2048', async () => {
      const ed = await api.post('/cas/', { name: unique(), subject_dn: 'CN=Ed', key_type: 'ed25519', key_size: 2048 }, w.root.token);
      expect(ed.status).toBe(400);
      expect(JSON.stringify(ed.body.detail)).toContain('key_size');
      const small = await api.post('/cas/', { name: unique(), subject_dn: 'CN=Small', key_type: 'rsa', key_size: 1024 }, w.root.token);
      expect(small.status).toBe(400);
      expect(small.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'key_size'] })]);
    });

    it('refuses a duplicate name in the same organization regardless of case, but not in another', async () => {
      const first = await createCa(w.admin1.token);
      const duplicate = await api.post(
        '/cas/',
        { name: first.name.toUpperCase(), subject_dn: 'CN=Dup', key_type: 'ecdsa-p256' },
        w.admin1.token,
      );
      expect(duplicate.status).toBe(400);
      expect(typeof duplicate.body.detail).toBe('string');
      expect(duplicate.body.detail).toMatch(/already exists/);
      const elsewhere = await api.post('/cas/', { name: first.name, subject_dn: 'CN=Dup', key_type: 'ecdsa-p256' }, w.admin2.token);
      expect(elsewhere.status).toBe(201);
      expect(elsewhere.body.organization_id).toBe(w.org2.id);
    });
  });

  describe('intermediate CAs', () => {
    it('404s an unknown parent and a parent in another organization', async () => {
      const unknown = await api.post(
        '/cas/',
        { name: unique(), subject_dn: 'CN=I', key_type: 'ecdsa-p256', parent_ca_id: 999999 },
        w.root.token,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(caNotFound(999999));
      const parent = await createCa(w.admin1.token);
      const foreign = await api.post(
        '/cas/',
        { name: unique(), subject_dn: 'CN=I', key_type: 'ecdsa-p256', parent_ca_id: parent.id },
        w.admin2.token,
      );
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(caNotFound(parent.id));
    });

    it('belongs to the parent’s organization, whoever creates it', async () => {
      const parent = await createCa(w.admin1.token);
      const child = await createCa(w.root.token, { parent_ca_id: parent.id });
      expect(child).toMatchObject({ parent_ca_id: parent.id, is_root: false, organization_id: w.org1.id, created_by_user_id: w.root.id });
    });

    it('applies path_length rules', async () => {
      const one = await createCa(w.root.token, { path_length: 1 });
      expect(one.path_length).toBe(1);
      const defaulted = await createCa(w.root.token, { parent_ca_id: one.id });
      expect(defaulted.path_length).toBe(0);

      const tooLong = await api.post(
        '/cas/',
        { name: unique(), subject_dn: 'CN=I', key_type: 'ecdsa-p256', parent_ca_id: one.id, path_length: 1 },
        w.root.token,
      );
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.detail).toContain('exceeds');

      const exhausted = await api.post(
        '/cas/',
        { name: unique(), subject_dn: 'CN=I', key_type: 'ecdsa-p256', parent_ca_id: defaulted.id },
        w.root.token,
      );
      expect(exhausted.status).toBe(400);
      expect(exhausted.body.detail).toContain('does not allow sub-CAs');

      const open = await createCa(w.root.token);
      expect((await createCa(w.root.token, { parent_ca_id: open.id, path_length: 5 })).path_length).toBe(5);
      expect((await createCa(w.root.token, { parent_ca_id: open.id })).path_length).toBeNull();
    });

    it('ends a validity longer than the parent’s remaining one at the parent’s not_after', async () => {
      const parent = await createCa(w.root.token, { valid_days: 30 });
      const response = await api.post(
        '/cas/',
        { name: unique(), subject_dn: 'CN=I', key_type: 'ecdsa-p256', parent_ca_id: parent.id, valid_days: 31 },
        w.root.token,
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ valid_days: 31, not_after: parent.not_after });
      expect((await createCa(w.root.token, { parent_ca_id: parent.id, valid_days: 29 })).valid_days).toBe(29);
    });
  });

  describe('leaf certificate policy', () => {
    it('manages leaf issuance: allowed until the CA gets a sub-CA', async () => {
      const root = await createCa(w.root.token);
      expect(root.leaf_certs_allowed).toBe(true);
      expect((await issue(root.id)).status).toBe(201);
      await createCa(w.root.token, { parent_ca_id: root.id });
      const after = await api.get(`/cas/${root.id}`, w.root.token);
      expect(after.body).toMatchObject({ allow_leaf_certs: null, leaf_certs_allowed: false });
      const refused = await issue(root.id);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain('does not allow leaf certificate issuance');
    });

    it('keeps issuing with allow_leaf_certs true after getting a child', async () => {
      const root = await createCa(w.root.token, { allow_leaf_certs: true });
      await createCa(w.root.token, { parent_ca_id: root.id });
      expect((await api.get(`/cas/${root.id}`, w.root.token)).body).toMatchObject({ allow_leaf_certs: true, leaf_certs_allowed: true });
      expect((await issue(root.id)).status).toBe(201);
    });

    it('never issues with allow_leaf_certs false', async () => {
      const root = await createCa(w.root.token, { allow_leaf_certs: false });
      expect(root).toMatchObject({ allow_leaf_certs: false, leaf_certs_allowed: false });
      const refused = await issue(root.id);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain('does not allow leaf certificate issuance');
    });
  });

  describe('reading', () => {
    let org1Ca: any;
    let org2Ca: any;

    beforeAll(async () => {
      org1Ca = await createCa(w.admin1.token);
      org2Ca = await createCa(w.admin2.token);
    });

    it('lists all CAs for superusers, the organization’s for members, none for users without organization', async () => {
      const all = await api.get('/cas/', w.root.token);
      const { rows } = await db.query('SELECT id, organization_id FROM certificate_authorities ORDER BY id');
      expect(all.status).toBe(200);
      expect(all.body.map((ca: any) => ca.id)).toEqual(rows.map((row) => row.id));
      for (const [user, org] of [
        [w.user1, w.org1],
        [w.admin1, w.org1],
        [w.user2, w.org2],
      ] as const) {
        const listed = await api.get('/cas/', user.token);
        expect(listed.status).toBe(200);
        expect(listed.body.map((ca: any) => ca.id)).toEqual(rows.filter((row) => row.organization_id === org.id).map((row) => row.id));
      }
      expect(all.body.map((ca: any) => ca.id)).toEqual(expect.arrayContaining([org1Ca.id, org2Ca.id]));
      const loner = await api.get('/cas/', w.loner.token);
      expect(loner).toMatchObject({ status: 200, body: [] });
      for (const ca of all.body) expect(ca).not.toHaveProperty('private_key');
    });

    it('shows a CA to its organization only, without its private key', async () => {
      const own = await api.get(`/cas/${org1Ca.id}`, w.user1.token);
      expect(own.status).toBe(200);
      expect(Object.keys(own.body).sort()).toEqual(CA_FIELDS);
      const { private_key: _key, ...plain } = org1Ca;
      expect(own.body).toEqual(plain);
      for (const token of [w.user2.token, w.admin2.token, w.loner.token]) {
        const hidden = await api.get(`/cas/${org1Ca.id}`, token);
        expect(hidden.status).toBe(404);
        expect(hidden.body).toEqual(caNotFound(org1Ca.id));
      }
      expect(await api.get('/cas/999999', w.root.token)).toMatchObject({ status: 404, body: caNotFound(999999) });
      const bad = await api.get('/cas/abc', w.root.token);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'ca_id'] })]);
    });

    it('returns the private key to admins and to users with can_export_private_key, audited', async () => {
      const admin = await api.get(`/cas/${org1Ca.id}/private-key`, w.admin1.token);
      expect(admin.status).toBe(200);
      expect(admin.body.private_key).toBe(org1Ca.private_key);
      expect(admin.body.id).toBe(org1Ca.id);
      expect(await auditEntries('ca_export_private_key', org1Ca.id)).toEqual([
        { user_id: w.admin1.id, organization_id: w.org1.id, detail: expect.stringContaining('private key') },
      ]);

      const refused = await api.get(`/cas/${org1Ca.id}/private-key`, w.user1.token);
      expect(refused).toMatchObject({ status: 403, body: FORBIDDEN });
      await setFlags(w.user1, { can_export_private_key: true });
      try {
        const allowed = await api.get(`/cas/${org1Ca.id}/private-key`, w.user1.token);
        expect(allowed.status).toBe(200);
        expect(allowed.body.private_key).toBe(org1Ca.private_key);
      } finally {
        await setFlags(w.user1, { can_export_private_key: false });
      }
      expect((await auditEntries('ca_export_private_key', org1Ca.id)).map((entry) => entry.user_id)).toEqual([w.admin1.id, w.user1.id]);
      const foreign = await api.get(`/cas/${org1Ca.id}/private-key`, w.admin2.token);
      expect(foreign).toMatchObject({ status: 404, body: caNotFound(org1Ca.id) });
      expect(await auditEntries('ca_export_private_key', org1Ca.id)).toHaveLength(2);
    });

    it('returns the chain from the CA to the root, and direct children only', async () => {
      const root = await createCa(w.admin1.token);
      const mid = await createCa(w.admin1.token, { parent_ca_id: root.id });
      const sibling = await createCa(w.admin1.token, { parent_ca_id: root.id });
      const leafCa = await createCa(w.admin1.token, { parent_ca_id: mid.id });

      const chain = await api.get(`/cas/${leafCa.id}/chain`, w.user1.token);
      expect(chain.status).toBe(200);
      expect(chain.body.map((ca: any) => ca.id)).toEqual([leafCa.id, mid.id, root.id]);
      expect(chain.body[0]).not.toHaveProperty('private_key');
      expect((await api.get(`/cas/${root.id}/chain`, w.user1.token)).body.map((ca: any) => ca.id)).toEqual([root.id]);

      const children = await api.get(`/cas/${root.id}/children`, w.user1.token);
      expect(children.status).toBe(200);
      expect(children.body.map((ca: any) => ca.id)).toEqual([mid.id, sibling.id]);
      expect((await api.get(`/cas/${leafCa.id}/children`, w.user1.token)).body).toEqual([]);

      expect(await api.get(`/cas/${leafCa.id}/chain`, w.user2.token)).toMatchObject({ status: 404, body: caNotFound(leafCa.id) });
      expect(await api.get(`/cas/${root.id}/children`, w.user2.token)).toMatchObject({ status: 404, body: caNotFound(root.id) });
    });
  });

  describe('PATCH /cas/{id} (organization assignment)', () => {
    it('is for superusers only and validates its input', async () => {
      const ca = await createCa(w.admin1.token);
      const admin = await api.patch(`/cas/${ca.id}`, { organization_id: w.org1.id }, w.admin1.token);
      expect(admin.status).toBe(403);
      const unknownOrg = await api.patch(`/cas/${ca.id}`, { organization_id: 999999 }, w.root.token);
      expect(unknownOrg.status).toBe(400);
      expect(unknownOrg.body.detail).toContain('999999');
      const unknownCa = await api.patch('/cas/999999', { organization_id: w.org1.id }, w.root.token);
      expect(unknownCa).toMatchObject({ status: 404, body: caNotFound(999999) });
      const missing = await api.patch(`/cas/${ca.id}`, { cascade: true }, w.root.token);
      expect(missing.status).toBe(400);
      expect(JSON.stringify(missing.body.detail)).toContain('organization_id');
      const { rows } = await db.query('SELECT organization_id FROM certificate_authorities WHERE id = $1', [ca.id]);
      expect(rows).toEqual([{ organization_id: w.org1.id }]);
    });

    it('without cascade moves only the CA', async () => {
      const root = await createCa(w.root.token);
      const child = await createCa(w.root.token, { parent_ca_id: root.id, allow_leaf_certs: true });
      await createCa(w.root.token, { parent_ca_id: root.id });
      const rootCert = await issue(root.id);
      expect(rootCert.status).toBe(400); // root has children (managed policy)
      const childCert = await issue(child.id);
      expect(childCert.status).toBe(201);

      const moved = await api.patch(`/cas/${root.id}`, { organization_id: w.org2.id }, w.root.token);
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: root.id, organization_id: w.org2.id });
      expect(moved.body).not.toHaveProperty('private_key');
      const cas = await db.query('SELECT id, organization_id FROM certificate_authorities WHERE id = ANY($1) ORDER BY id', [
        [root.id, child.id],
      ]);
      expect(cas.rows).toEqual([
        { id: root.id, organization_id: w.org2.id },
        { id: child.id, organization_id: null },
      ]);
      const certs = await db.query('SELECT organization_id FROM certificates WHERE id = $1', [childCert.body.id]);
      expect(certs.rows).toEqual([{ organization_id: null }]);
      expect((await auditEntries('ca_update', root.id)).map((entry) => entry.detail)).toEqual([
        expect.stringContaining('1 CA(s), 0 certificate(s) updated'),
      ]);
    });

    it('with cascade adopts the org-less subtree and stops at CAs owned by another organization', async () => {
      const r = await createCa(w.root.token, { allow_leaf_certs: true });
      const a = await createCa(w.root.token, { parent_ca_id: r.id, allow_leaf_certs: true });
      const b = await createCa(w.root.token, { parent_ca_id: a.id, allow_leaf_certs: true });
      const c = await createCa(w.root.token, { parent_ca_id: b.id });
      const certR = (await issue(r.id)).body;
      const certA1 = (await issue(a.id)).body;
      const certA2 = (await issue(a.id)).body;
      const certB = (await issue(b.id)).body;
      const certC = (await issue(c.id)).body;
      for (const cert of [certR, certA1, certA2, certB, certC]) expect(cert.organization_id).toBeNull();

      // B moves to org2 first, alone: C and the certificates keep no organization.
      expect((await api.patch(`/cas/${b.id}`, { organization_id: w.org2.id }, w.root.token)).status).toBe(200);

      const response = await api.patch(`/cas/${r.id}`, { organization_id: w.org1.id, cascade: true }, w.root.token);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: r.id, organization_id: w.org1.id });

      const cas = await db.query('SELECT id, organization_id FROM certificate_authorities WHERE id = ANY($1) ORDER BY id', [
        [r.id, a.id, b.id, c.id],
      ]);
      expect(cas.rows).toEqual([
        { id: r.id, organization_id: w.org1.id },
        { id: a.id, organization_id: w.org1.id },
        { id: b.id, organization_id: w.org2.id },
        { id: c.id, organization_id: null },
      ]);
      const certs = await db.query('SELECT id, organization_id FROM certificates WHERE id = ANY($1) ORDER BY id', [
        [certR.id, certA1.id, certA2.id, certB.id, certC.id],
      ]);
      expect(certs.rows).toEqual([
        { id: certR.id, organization_id: w.org1.id },
        { id: certA1.id, organization_id: w.org1.id },
        { id: certA2.id, organization_id: w.org1.id },
        { id: certB.id, organization_id: null },
        { id: certC.id, organization_id: null },
      ]);
      expect((await auditEntries('ca_update', r.id)).map((entry) => entry.detail)).toEqual([
        expect.stringContaining('2 CA(s), 3 certificate(s) updated'),
      ]);
      // Now org1 members see the adopted CAs and certificates.
      expect((await api.get(`/cas/${a.id}`, w.user1.token)).status).toBe(200);
      expect((await api.get(`/certificates/${certA1.id}`, w.user1.token)).status).toBe(200);
      expect((await api.get(`/cas/${c.id}`, w.user1.token)).status).toBe(404);
    });
  });

  describe('PATCH /cas/{id} (allow_leaf_certs)', () => {
    it("lets an admin of the CA's organization set the leaf-certificate policy, audited", async () => {
      const root = await createCa(w.admin1.token);
      await createCa(w.admin1.token, { parent_ca_id: root.id });
      expect((await issue(root.id, w.admin1.token)).status).toBe(400);

      const allowed = await api.patch(`/cas/${root.id}`, { allow_leaf_certs: true }, w.admin1.token);
      expect(allowed.status).toBe(200);
      expect(allowed.body).toMatchObject({ id: root.id, allow_leaf_certs: true, leaf_certs_allowed: true, organization_id: w.org1.id });
      expect(allowed.body).not.toHaveProperty('private_key');
      expect((await issue(root.id, w.admin1.token)).status).toBe(201);

      expect((await api.patch(`/cas/${root.id}`, { allow_leaf_certs: false }, w.admin1.token)).body).toMatchObject({
        allow_leaf_certs: false,
        leaf_certs_allowed: false,
      });
      expect((await issue(root.id, w.admin1.token)).status).toBe(400);
      const managed = await api.patch(`/cas/${root.id}`, { allow_leaf_certs: null }, w.root.token);
      expect(managed.body).toMatchObject({ allow_leaf_certs: null, leaf_certs_allowed: false });
      expect((await db.query('SELECT allow_leaf_certs FROM certificate_authorities WHERE id = $1', [root.id])).rows).toEqual([
        { allow_leaf_certs: null },
      ]);

      expect(await auditEntries('ca_update', root.id)).toEqual([
        {
          user_id: w.admin1.id,
          organization_id: w.org1.id,
          detail: `Set allow_leaf_certs of CA '${root.name}' to true (previously managed)`,
        },
        {
          user_id: w.admin1.id,
          organization_id: w.org1.id,
          detail: `Set allow_leaf_certs of CA '${root.name}' to false (previously true)`,
        },
        {
          user_id: w.root.id,
          organization_id: w.org1.id,
          detail: `Set allow_leaf_certs of CA '${root.name}' to managed (previously false)`,
        },
      ]);
    });

    it('refuses plain members (403), other organizations (404), admins assigning organizations (403) and empty or bad bodies (400)', async () => {
      const ca = await createCa(w.admin1.token);
      expect(await api.patch(`/cas/${ca.id}`, { allow_leaf_certs: false }, w.user1.token)).toMatchObject({ status: 403, body: FORBIDDEN });
      expect(await api.patch(`/cas/${ca.id}`, { allow_leaf_certs: false }, w.admin2.token)).toMatchObject({
        status: 404,
        body: caNotFound(ca.id),
      });
      expect(await api.patch(`/cas/${ca.id}`, { allow_leaf_certs: false, organization_id: w.org1.id }, w.admin1.token)).toMatchObject({
        status: 403,
        body: { detail: 'Only superusers can assign a CA to an organization' },
      });
      expect(await api.patch(`/cas/${ca.id}`, {}, w.admin1.token)).toMatchObject({
        status: 400,
        body: { detail: 'Give organization_id, allow_leaf_certs, ocsp_signer, ocsp_validity_hours or public_base_url' },
      });
      expect((await api.patch(`/cas/${ca.id}`, { allow_leaf_certs: 'yes' }, w.admin1.token)).status).toBe(400);
      expect((await api.patch(`/cas/${ca.id}`, { allow_leaf_certs: false }, '')).status).toBe(401);
      expect((await db.query('SELECT allow_leaf_certs, organization_id FROM certificate_authorities WHERE id = $1', [ca.id])).rows).toEqual(
        [{ allow_leaf_certs: null, organization_id: w.org1.id }],
      );
      expect(await auditEntries('ca_update', ca.id)).toEqual([]);
    });

    it('lets a superuser change both in one request, with one audit entry', async () => {
      const ca = await createCa(w.root.token);
      const response = await api.patch(`/cas/${ca.id}`, { organization_id: w.org2.id, allow_leaf_certs: false }, w.root.token);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ organization_id: w.org2.id, allow_leaf_certs: false, leaf_certs_allowed: false });
      expect((await auditEntries('ca_update', ca.id)).map((entry) => entry.detail)).toEqual([
        `Set allow_leaf_certs of CA '${ca.name}' to false (previously managed); Assigned CA '${ca.name}' to organization ${w.org2.id} (previously unassigned; 1 CA(s), 0 certificate(s) updated)`,
      ]);
    });
  });

  describe('DELETE /cas/{id}', () => {
    it('refuses a CA with children (409) and deletes a leaf CA with its certificates (204)', async () => {
      const root = await createCa(w.admin1.token);
      const child = await createCa(w.admin1.token, { parent_ca_id: root.id });
      const cert = (await issue(child.id)).body;
      const renewed = await api.post(`/certificates/${cert.id}/renew`, {}, w.root.token);
      expect(renewed.status).toBe(201);

      const conflict = await api.delete(`/cas/${root.id}`, w.admin1.token);
      expect(conflict.status).toBe(409);
      expect(conflict.body.detail).toEqual(expect.any(String));
      expect((await api.get(`/cas/${root.id}`, w.admin1.token)).status).toBe(200);

      const deleted = await api.delete(`/cas/${child.id}`, w.admin1.token);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect(await api.get(`/cas/${child.id}`, w.admin1.token)).toMatchObject({ status: 404, body: caNotFound(child.id) });
      expect(await api.get(`/certificates/${cert.id}`, w.admin1.token)).toMatchObject({ status: 404, body: certNotFound(cert.id) });
      const rows = await db.query('SELECT id FROM certificates WHERE issuer_id = $1 OR id = ANY($2)', [
        child.id,
        [cert.id, renewed.body.id],
      ]);
      expect(rows.rows).toEqual([]);
      expect((await db.query('SELECT id FROM certificate_authorities WHERE id = $1', [child.id])).rows).toEqual([]);
      expect(await auditEntries('ca_delete', child.id)).toEqual([
        { user_id: w.admin1.id, organization_id: w.org1.id, detail: expect.stringContaining('2 certificate(s)') },
      ]);
      // Without children the root can go now.
      expect((await api.delete(`/cas/${root.id}`, w.admin1.token)).status).toBe(204);
    });

    it('lets exactly one of concurrent deletes succeed and audit; the rest get 404', async () => {
      const ca = await createCa(w.admin1.token);
      await issue(ca.id);
      const responses = await Promise.all(Array.from({ length: 8 }, () => api.delete(`/cas/${ca.id}`, w.admin1.token)));
      expect(responses.map((response) => response.status).sort()).toEqual([204, 404, 404, 404, 404, 404, 404, 404]);
      for (const response of responses.filter((r) => r.status === 404)) expect(response.body).toEqual(caNotFound(ca.id));
      expect(await auditEntries('ca_delete', ca.id)).toEqual([
        { user_id: w.admin1.id, organization_id: w.org1.id, detail: expect.stringContaining('1 certificate(s)') },
      ]);
    });

    it('needs can_delete_ca for plain users and hides other organizations’ CAs', async () => {
      const ca = await createCa(w.admin1.token);
      expect(await api.delete(`/cas/${ca.id}`, w.user1.token)).toMatchObject({ status: 403, body: FORBIDDEN });
      expect(await api.delete(`/cas/${ca.id}`, w.admin2.token)).toMatchObject({ status: 404, body: caNotFound(ca.id) });
      expect(await api.delete(`/cas/${ca.id}`, w.loner.token)).toMatchObject({ status: 404, body: caNotFound(ca.id) });
      expect((await db.query('SELECT id FROM certificate_authorities WHERE id = $1', [ca.id])).rows).toHaveLength(1);
      await setFlags(w.user1, { can_delete_ca: true });
      try {
        expect((await api.delete(`/cas/${ca.id}`, w.user1.token)).status).toBe(204);
      } finally {
        await setFlags(w.user1, { can_delete_ca: false });
      }
      expect((await db.query('SELECT id FROM certificate_authorities WHERE id = $1', [ca.id])).rows).toEqual([]);
      expect((await auditEntries('ca_delete', ca.id)).map((entry) => entry.user_id)).toEqual([w.user1.id]);
      expect(await api.delete('/cas/999999', w.root.token)).toMatchObject({ status: 404, body: caNotFound(999999) });
    });
  });
});
