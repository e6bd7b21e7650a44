import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ApiClient, Fixture } from './support/api-client';
import { OpensslWorkspace } from './support/openssl';
import { TestApp } from './support/test-app';
import { startSeededApp, World } from './support/seeded-app';

const FORBIDDEN = { detail: 'Insufficient permissions' };
const caNotFound = (id: number | string) => ({ detail: `Certificate Authority with ID ${id} not found` });
const certNotFound = (id: number | string) => ({ detail: `Certificate with ID ${id} not found` });
const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----\n[A-Za-z0-9+/=\n]+-----END \1-----/g;

describe('PEM export', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  let ssl: OpensslWorkspace;
  let root: any;
  let intermediate: any;
  let leaf: any;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp({ CA_KEY_SIZE: '2048' }));
    ssl = new OpensslWorkspace();
    root = await created(
      api.post('/cas/', { name: 'Export Root', subject_dn: 'CN=Export Root,O=Test', key_type: 'ecdsa-p256' }, w.admin1.token),
    );
    intermediate = await created(
      api.post(
        '/cas/',
        { name: 'Export Issuing', subject_dn: 'CN=Export Issuing,O=Test', key_type: 'ecdsa-p256', parent_ca_id: root.id, valid_days: 1000 },
        w.admin1.token,
      ),
    );
    leaf = await created(
      api.post(
        `/certificates/?ca_id=${intermediate.id}`,
        { common_name: 'export.example.com', subject_dn: 'O=Test', certificate_type: 'server', key_type: 'ecdsa-p256' },
        w.admin1.token,
      ),
    );
  });

  afterAll(async () => {
    ssl?.dispose();
    await db?.end();
    await testApp?.close();
  });

  async function created(pending: Promise<{ status: number; body: any }>): Promise<any> {
    const response = await pending;
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  async function setFlags(user: Fixture, flags: Record<string, boolean>): Promise<void> {
    expect((await api.patch(`/users/${user.id}`, flags, w.root.token)).status).toBe(200);
  }

  function expectPem(response: { status: number; text: string; headers: Headers }, filename: string): void {
    expect({ status: response.status, text: response.status === 200 ? undefined : response.text }).toEqual({
      status: 200,
      text: undefined,
    });
    expect(response.headers.get('content-type')).toBe('application/x-pem-file');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${filename}"`);
  }

  function blocks(pem: string): string[] {
    return pem.match(PEM_BLOCK) ?? [];
  }

  async function auditCount(action: string, resourceId: number, userId: number): Promise<number> {
    const { rows } = await db.query('SELECT count(*)::int AS n FROM audit_logs WHERE action = $1 AND resource_id = $2 AND user_id = $3', [
      action,
      resourceId,
      userId,
    ]);
    return rows[0].n;
  }

  it('exports a CA certificate to any member of its organization', async () => {
    const response = await api.get(`/export/ca/${root.id}/certificate`, w.user1.token);
    expectPem(response, `ca_${root.id}_certificate.pem`);
    expect(response.text.trim()).toBe(root.certificate.trim());
    expect(blocks(response.text)).toHaveLength(1);
    const subject = ssl.run('x509', '-in', ssl.write('ca-export.pem', response.text), '-noout', '-subject').output;
    expect(subject).toMatch(/CN ?= ?Export Root/);
  });

  it('exports a certificate', async () => {
    const response = await api.get(`/export/certificate/${leaf.id}`, w.user1.token);
    expectPem(response, `certificate_${leaf.id}.pem`);
    expect(response.text.trim()).toBe(leaf.certificate.trim());
    expect(blocks(response.text)).toHaveLength(1);
  });

  it('exports the chain leaf first, up to the root, and openssl verifies it', async () => {
    const response = await api.get(`/export/certificate/${leaf.id}/chain`, w.user1.token);
    expectPem(response, `certificate_${leaf.id}_chain.pem`);
    expect(blocks(response.text)).toEqual([leaf.certificate.trim(), intermediate.certificate.trim(), root.certificate.trim()]);
    ssl.write('root.pem', root.certificate);
    ssl.write('chain.pem', response.text);
    ssl.write('leaf.pem', leaf.certificate);
    expect(ssl.run('verify', '-CAfile', 'root.pem', '-untrusted', 'chain.pem', 'leaf.pem')).toEqual({
      status: 0,
      output: 'leaf.pem: OK\n',
    });
    // Without the chain the leaf does not verify against the root alone.
    expect(ssl.run('verify', '-CAfile', 'root.pem', 'leaf.pem').status).not.toBe(0);
  });

  it('exports a root-issued certificate’s chain as leaf and root', async () => {
    const flatRoot = await created(
      api.post('/cas/', { name: 'Flat Root', subject_dn: 'CN=Flat Root', key_type: 'ecdsa-p256' }, w.admin1.token),
    );
    const direct = await created(
      api.post(
        `/certificates/?ca_id=${flatRoot.id}`,
        { common_name: 'flat.example.com', subject_dn: 'O=Test', certificate_type: 'server', key_type: 'ecdsa-p256' },
        w.admin1.token,
      ),
    );
    const response = await api.get(`/export/certificate/${direct.id}/chain`, w.admin1.token);
    expectPem(response, `certificate_${direct.id}_chain.pem`);
    expect(blocks(response.text)).toEqual([direct.certificate.trim(), flatRoot.certificate.trim()]);
  });

  it('exports a CA private key to admins and to holders of can_export_private_key, audited', async () => {
    expect(await api.get(`/export/ca/${intermediate.id}/private-key`, w.user1.token)).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await auditCount('ca_export_private_key', intermediate.id, w.user1.id)).toBe(0);

    const admin = await api.get(`/export/ca/${intermediate.id}/private-key`, w.admin1.token);
    expectPem(admin, `ca_${intermediate.id}_private_key.pem`);
    expect(admin.text).toBe(intermediate.private_key);
    const keyFile = ssl.write('inter.key', admin.text);
    const fromKey = ssl.run('pkey', '-in', keyFile, '-pubout').output;
    const fromCert = ssl.run('x509', '-in', ssl.write('inter.pem', intermediate.certificate), '-noout', '-pubkey').output;
    expect(fromKey).toBe(fromCert);
    expect(await auditCount('ca_export_private_key', intermediate.id, w.admin1.id)).toBe(1);

    await setFlags(w.user1, { can_export_private_key: true });
    try {
      const user = await api.get(`/export/ca/${intermediate.id}/private-key`, w.user1.token);
      expectPem(user, `ca_${intermediate.id}_private_key.pem`);
      expect(user.text).toBe(intermediate.private_key);
    } finally {
      await setFlags(w.user1, { can_export_private_key: false });
    }
    expect(await auditCount('ca_export_private_key', intermediate.id, w.user1.id)).toBe(1);
    const { rows } = await db.query(
      "SELECT detail FROM audit_logs WHERE action = 'ca_export_private_key' AND resource_id = $1 ORDER BY id",
      [intermediate.id],
    );
    expect(rows.map((row) => row.detail)).toEqual([expect.stringMatching(/^Exported/), expect.stringMatching(/^Exported/)]);
  });

  it('exports a certificate private key to admins and to holders of can_export_private_key, audited', async () => {
    expect(await api.get(`/export/certificate/${leaf.id}/private-key`, w.user1.token)).toMatchObject({ status: 403, body: FORBIDDEN });
    const admin = await api.get(`/export/certificate/${leaf.id}/private-key`, w.admin1.token);
    expectPem(admin, `certificate_${leaf.id}_private_key.pem`);
    expect(admin.text).toBe(leaf.private_key);
    expect(await auditCount('cert_export_private_key', leaf.id, w.admin1.id)).toBe(1);

    await setFlags(w.user1, { can_export_private_key: true });
    try {
      const user = await api.get(`/export/certificate/${leaf.id}/private-key`, w.user1.token);
      expectPem(user, `certificate_${leaf.id}_private_key.pem`);
      expect(user.text).toBe(leaf.private_key);
    } finally {
      await setFlags(w.user1, { can_export_private_key: false });
    }
    expect(await auditCount('cert_export_private_key', leaf.id, w.user1.id)).toBe(1);
  });

  it('hides other organizations’ CAs and certificates (404) on every export', async () => {
    for (const token of [w.admin2.token, w.user2.token, w.loner.token]) {
      expect(await api.get(`/export/ca/${root.id}/certificate`, token)).toMatchObject({ status: 404, body: caNotFound(root.id) });
      expect(await api.get(`/export/ca/${root.id}/private-key`, token)).toMatchObject({ status: 404, body: caNotFound(root.id) });
      expect(await api.get(`/export/certificate/${leaf.id}`, token)).toMatchObject({ status: 404, body: certNotFound(leaf.id) });
      expect(await api.get(`/export/certificate/${leaf.id}/private-key`, token)).toMatchObject({
        status: 404,
        body: certNotFound(leaf.id),
      });
      expect(await api.get(`/export/certificate/${leaf.id}/chain`, token)).toMatchObject({ status: 404, body: certNotFound(leaf.id) });
    }
    expect(await api.get('/export/ca/999999/certificate', w.root.token)).toMatchObject({ status: 404, body: caNotFound(999999) });
    expect(await api.get('/export/certificate/999999', w.root.token)).toMatchObject({ status: 404, body: certNotFound(999999) });
    expect((await api.get('/export/certificate/abc', w.root.token)).status).toBe(400);
    expect(await auditCount('ca_export_private_key', root.id, w.admin2.id)).toBe(0);
  });

  it('answers 404 for the private key of a certificate signed from a CSR', async () => {
    const made = ssl.run(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'csr.key',
      '-out',
      'req.csr',
      '-subj',
      '/CN=x.example.com',
      '-addext',
      'subjectAltName=DNS:x.example.com',
    );
    expect(made.status).toBe(0);
    const csr = readFileSync(`${ssl.dir}/req.csr`, 'utf8');
    const signed = await created(
      api.post('/certificates/sign-csr', { csr, ca_id: intermediate.id, certificate_type: 'server' }, w.admin1.token),
    );
    const response = await api.get(`/export/certificate/${signed.id}/private-key`, w.admin1.token);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ detail: expect.any(String) });
    expect(await auditCount('cert_export_private_key', signed.id, w.admin1.id)).toBe(0);
    // The certificate itself still exports.
    expectPem(await api.get(`/export/certificate/${signed.id}`, w.admin1.token), `certificate_${signed.id}.pem`);
  });

  it('requires authentication', async () => {
    const paths = [
      `/export/ca/${root.id}/certificate`,
      `/export/ca/${root.id}/private-key`,
      `/export/certificate/${leaf.id}`,
      `/export/certificate/${leaf.id}/private-key`,
      `/export/certificate/${leaf.id}/chain`,
    ];
    for (const path of paths) {
      const response = await api.get(path);
      expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 401, body: { detail: 'Not authenticated' } });
    }
  });
});
