import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ApiClient, Fixture } from './support/api-client';
import { OpensslWorkspace } from './support/openssl';
import { TestApp } from './support/test-app';
import { startSeededApp, World } from './support/seeded-app';
import { expectPkcs8PrivateKey } from './support/private-key';

const CERT_FIELDS = [
  'certificate',
  'certificate_type',
  'common_name',
  'created_at',
  'created_by_service_account_id',
  'created_by_user_id',
  'id',
  'issuer_id',
  'key_size',
  'key_type',
  'not_after',
  'not_before',
  'organization_id',
  'origin',
  'renewed_from_id',
  'renewed_to_ids',
  'revocation_reason',
  'revoked_at',
  'san_dns_names',
  'san_email_addresses',
  'san_ip_addresses',
  'serial_number',
  'status',
  'subject_dn',
  'updated_at',
  'valid_days',
];

const FORBIDDEN = { detail: 'Insufficient permissions' };
const caNotFound = (id: number | string) => ({ detail: `Certificate Authority with ID ${id} not found` });
const certNotFound = (id: number | string) => ({ detail: `Certificate with ID ${id} not found` });

describe('certificates', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  let ssl: OpensslWorkspace;
  let org1Ca: any;
  let org2Ca: any;
  let seq = 0;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp({ CA_KEY_SIZE: '2048' }));
    ssl = new OpensslWorkspace();
    org1Ca = await createCa(w.admin1.token, { name: 'Org1 Issuing CA' });
    org2Ca = await createCa(w.admin2.token, { name: 'Org2 Issuing CA' });
  });

  afterAll(async () => {
    ssl?.dispose();
    await db?.end();
    await testApp?.close();
  });

  async function createCa(token: string, body: object = {}): Promise<any> {
    const name = `CA ${++seq}`;
    const response = await api.post('/cas/', { name, subject_dn: `CN=${name},O=Test`, key_type: 'ecdsa-p256', ...body }, token);
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  function issueRequest(caId: number, body: object = {}, token = w.admin1.token) {
    return api.post(
      `/certificates/?ca_id=${caId}`,
      { common_name: `host${++seq}.example.com`, subject_dn: 'O=Test,C=US', certificate_type: 'server', key_type: 'ecdsa-p256', ...body },
      token,
    );
  }

  async function issue(caId: number, body: object = {}, token = w.admin1.token): Promise<any> {
    const response = await issueRequest(caId, body, token);
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  async function setFlags(user: Fixture, flags: Record<string, boolean>): Promise<void> {
    expect((await api.patch(`/users/${user.id}`, flags, w.root.token)).status).toBe(200);
  }

  /** Runs `work` with the flags set on the user, and clears them afterwards. */
  async function withFlags(user: Fixture, flags: Record<string, true>, work: () => Promise<void>): Promise<void> {
    await setFlags(user, flags);
    try {
      await work();
    } finally {
      await setFlags(user, Object.fromEntries(Object.keys(flags).map((flag) => [flag, false])));
    }
  }

  /** A fresh P-256 key and CSR made by openssl; returns the CSR PEM and the key's file name. */
  function makeCsr(cn: string, san = `DNS:${cn}`): { csr: string; keyFile: string } {
    const id = ++seq;
    const made = ssl.run(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `k${id}.key`,
      '-out',
      `r${id}.csr`,
      '-subj',
      `/O=Requester/CN=${cn}`,
      '-addext',
      `subjectAltName=${san}`,
    );
    expect(made.status).toBe(0);
    return { csr: readFileSync(`${ssl.dir}/r${id}.csr`, 'utf8'), keyFile: `k${id}.key` };
  }

  function publicKeyOfCertificate(pem: string): string {
    const file = ssl.write(`c${++seq}.pem`, pem);
    return ssl.run('x509', '-in', file, '-noout', '-pubkey').output;
  }

  function publicKeyOfKey(keyFile: string): string {
    return ssl.run('pkey', '-in', keyFile, '-pubout').output;
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

  describe('POST /certificates/?ca_id=', () => {
    it('issues a certificate with its private key and the documented fields', async () => {
      const response = await issueRequest(org1Ca.id, {
        common_name: 'www.example.com',
        subject_dn: 'CN=ignored,O=Test,C=US',
        valid_days: 90,
      });
      expect(response.status).toBe(201);
      const cert = response.body;
      expect(Object.keys(cert).sort()).toEqual([...CERT_FIELDS, 'private_key'].sort());
      expect(cert).toMatchObject({
        common_name: 'www.example.com',
        subject_dn: 'CN=www.example.com,O=Test,C=US',
        certificate_type: 'server',
        origin: 'server_key',
        key_type: 'ecdsa-p256',
        key_size: null,
        valid_days: 90,
        status: 'valid',
        revoked_at: null,
        revocation_reason: null,
        san_dns_names: ['www.example.com'],
        san_ip_addresses: [],
        san_email_addresses: [],
        issuer_id: org1Ca.id,
        organization_id: w.org1.id,
        created_by_user_id: w.admin1.id,
        renewed_from_id: null,
        renewed_to_ids: [],
      });
      expect(cert.serial_number).toMatch(/^[0-9a-f]+$/);
      expectPkcs8PrivateKey(cert.private_key);
      expect(cert.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
      expect(Math.round((Date.parse(cert.not_after) - Date.parse(cert.not_before)) / 86_400_000)).toBe(90);
      const keyFile = ssl.write(`issued${cert.id}.key`, cert.private_key);
      expect(publicKeyOfCertificate(cert.certificate)).toBe(publicKeyOfKey(keyFile));
      const { rows } = await db.query('SELECT issuer_id, organization_id, serial_number, private_key FROM certificates WHERE id = $1', [
        cert.id,
      ]);
      expect(rows).toEqual([
        {
          issuer_id: org1Ca.id,
          organization_id: w.org1.id,
          serial_number: cert.serial_number,
          private_key: expect.stringMatching(/^enc:/),
        },
      ]);
      expect(await auditEntries('cert_create', cert.id)).toHaveLength(1);
    });

    it('issues RSA certificates with the requested key size', async () => {
      const cert = await issue(org1Ca.id, { key_type: 'rsa', key_size: 2048 });
      expect(cert).toMatchObject({ key_type: 'rsa', key_size: 2048 });
      const text = ssl.run('x509', '-in', ssl.write(`rsa${cert.id}.pem`, cert.certificate), '-noout', '-text').output;
      expect(text).toContain('Public-Key: (2048 bit)');
    });

    it('needs ca_id', async () => {
      const response = await api.post(
        '/certificates/',
        { common_name: 'x.example.com', subject_dn: 'O=Test', certificate_type: 'server' },
        w.admin1.token,
      );
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.detail)).toContain('ca_id');
    });

    it('applies the SAN rules', async () => {
      const server = await issue(org1Ca.id, { common_name: 'srv.example.com', san_ip_addresses: ['192.0.2.1'] });
      expect(server).toMatchObject({ san_dns_names: ['srv.example.com'], san_ip_addresses: ['192.0.2.1'], san_email_addresses: [] });
      const explicit = await issue(org1Ca.id, { common_name: 'main.example.com', san_dns_names: ['other.example.com'] });
      expect(explicit.san_dns_names).toEqual(['other.example.com']);
      const client = await issue(org1Ca.id, { common_name: 'alice@example.com', certificate_type: 'client' });
      expect(client).toMatchObject({
        certificate_type: 'client',
        san_dns_names: [],
        san_ip_addresses: [],
        san_email_addresses: ['alice@example.com'],
      });
      const dual = await issue(org1Ca.id, {
        common_name: 'dual.example.com',
        certificate_type: 'dual_purpose',
        san_email_addresses: ['ops@example.com'],
      });
      expect(dual).toMatchObject({ san_dns_names: ['dual.example.com'], san_email_addresses: ['ops@example.com'] });

      const cases: Array<[object, string]> = [
        [{ certificate_type: 'server', san_email_addresses: ['a@example.com'] }, 'san_email_addresses'],
        [{ certificate_type: 'client', common_name: 'bob@example.com', san_dns_names: ['b.example.com'] }, 'san_dns_names'],
        [{ certificate_type: 'client', common_name: 'bob@example.com', san_ip_addresses: ['192.0.2.9'] }, 'san_ip_addresses'],
        [{ certificate_type: 'server', san_ip_addresses: ['999.1.1.1'] }, 'san_ip_addresses'],
      ];
      for (const [body, field] of cases) {
        const response = await issueRequest(org1Ca.id, body);
        expect({ body, status: response.status, detail: response.body.detail }).toEqual({
          body,
          status: 400,
          detail: expect.stringMatching(new RegExp(`^${field}`)),
        });
      }
    });

    it('ends a validity beyond the CA’s at the CA’s not_after', async () => {
      const shortCa = await createCa(w.admin1.token, { valid_days: 30 });
      const response = await issueRequest(shortCa.id, { valid_days: 31 });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ valid_days: 31, not_after: shortCa.not_after });
      const fits = await issueRequest(shortCa.id, { valid_days: 29 });
      expect(new Date(fits.body.not_after).getTime() - new Date(fits.body.not_before).getTime()).toBe(29 * 86_400_000);
      expect((await db.query('SELECT count(*)::int AS n FROM certificates WHERE issuer_id = $1', [shortCa.id])).rows[0].n).toBe(2);
    });

    it('needs can_create_cert for plain users and hides other organizations’ CAs', async () => {
      const refused = await issueRequest(org1Ca.id, {}, w.user1.token);
      expect(refused).toMatchObject({ status: 403, body: FORBIDDEN });
      await withFlags(w.user1, { can_create_cert: true }, async () => {
        const cert = await issue(org1Ca.id, {}, w.user1.token);
        expect(cert).toMatchObject({ organization_id: w.org1.id, created_by_user_id: w.user1.id });
      });
      expect(await issueRequest(org1Ca.id, {}, w.admin2.token)).toMatchObject({ status: 404, body: caNotFound(org1Ca.id) });
      await withFlags(w.loner, { can_create_cert: true }, async () => {
        expect(await issueRequest(org1Ca.id, {}, w.loner.token)).toMatchObject({ status: 404, body: caNotFound(org1Ca.id) });
      });
      expect(await issueRequest(999999, {}, w.root.token)).toMatchObject({ status: 404, body: caNotFound(999999) });
    });

    it('with include_private_key false returns the key once and keeps none', async () => {
      const cert = await issue(org1Ca.id, { include_private_key: false });
      expectPkcs8PrivateKey(cert.private_key);
      const keyFile = ssl.write(`once${cert.id}.key`, cert.private_key);
      expect(publicKeyOfCertificate(cert.certificate)).toBe(publicKeyOfKey(keyFile));
      const { rows } = await db.query('SELECT private_key FROM certificates WHERE id = $1', [cert.id]);
      expect(rows).toEqual([{ private_key: null }]);
      const viaApi = await api.get(`/certificates/${cert.id}/private-key`, w.admin1.token);
      expect(viaApi.status).toBe(200);
      expect(viaApi.body).toMatchObject({ id: cert.id, private_key: null });
      const exported = await api.get(`/export/certificate/${cert.id}/private-key`, w.admin1.token);
      expect(exported.status).toBe(404);
      expect(await auditEntries('cert_export_private_key', cert.id)).toEqual([]);
    });
  });

  describe('POST /certificates/sign-csr', () => {
    it('needs exactly one of ca_id and ca_name', async () => {
      const { csr } = makeCsr('one.example.com');
      const both = await api.post(
        '/certificates/sign-csr',
        { csr, ca_id: org1Ca.id, ca_name: org1Ca.name, certificate_type: 'server' },
        w.admin1.token,
      );
      expect(both.status).toBe(400);
      expect(JSON.stringify(both.body.detail)).toMatch(/ca_id|ca_name/);
      const neither = await api.post('/certificates/sign-csr', { csr, certificate_type: 'server' }, w.admin1.token);
      expect(neither.status).toBe(400);
      expect(JSON.stringify(neither.body.detail)).toMatch(/ca_id|ca_name/);
    });

    it('resolves ca_name within the caller’s organization', async () => {
      const { csr, keyFile } = makeCsr('byname.example.com');
      const signed = await api.post('/certificates/sign-csr', { csr, ca_name: org1Ca.name, certificate_type: 'server' }, w.admin1.token);
      expect(signed.status).toBe(201);
      expect(signed.body).toMatchObject({
        issuer_id: org1Ca.id,
        organization_id: w.org1.id,
        origin: 'csr',
        key_type: 'ecdsa-p256',
        common_name: 'byname.example.com',
        subject_dn: 'CN=byname.example.com,O=Requester',
        san_dns_names: ['byname.example.com'],
      });
      expect(signed.body).not.toHaveProperty('private_key');
      expect(Object.keys(signed.body).sort()).toEqual(CERT_FIELDS);
      expect(publicKeyOfCertificate(signed.body.certificate)).toBe(publicKeyOfKey(keyFile));
      expect(await auditEntries('cert_create', signed.body.id)).toEqual([
        { user_id: w.admin1.id, organization_id: w.org1.id, detail: expect.stringMatching(/^Signed CSR for/) },
      ]);
      const { rows } = await db.query('SELECT private_key, origin FROM certificates WHERE id = $1', [signed.body.id]);
      expect(rows).toEqual([{ private_key: null, origin: 'csr' }]);

      const foreign = await api.post('/certificates/sign-csr', { csr, ca_name: org1Ca.name, certificate_type: 'server' }, w.admin2.token);
      expect(foreign.status).toBe(404);
      const foreignById = await api.post('/certificates/sign-csr', { csr, ca_id: org1Ca.id, certificate_type: 'server' }, w.admin2.token);
      expect(foreignById).toMatchObject({ status: 404, body: caNotFound(org1Ca.id) });
      const refused = await api.post('/certificates/sign-csr', { csr, ca_id: org1Ca.id, certificate_type: 'server' }, w.user1.token);
      expect(refused).toMatchObject({ status: 403, body: FORBIDDEN });
    });

    it('refuses a malformed CSR and one with a broken signature', async () => {
      const garbage = await api.post(
        '/certificates/sign-csr',
        { csr: 'not a csr', ca_id: org1Ca.id, certificate_type: 'server' },
        w.admin1.token,
      );
      expect(garbage.status).toBe(400);
      expect(garbage.body.detail).toMatch(/^csr: Invalid CSR/);

      const { csr } = makeCsr('tampered.example.com');
      const body = csr.replace(/-----(BEGIN|END) CERTIFICATE REQUEST-----/g, '').replace(/\s+/g, '');
      const der = Buffer.from(body, 'base64');
      der[der.length - 5] ^= 0x01;
      const lines = der
        .toString('base64')
        .match(/.{1,64}/g)!
        .join('\n');
      const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${lines}\n-----END CERTIFICATE REQUEST-----\n`;
      const before = (await db.query('SELECT count(*)::int AS n FROM certificates')).rows[0].n;
      const response = await api.post(
        '/certificates/sign-csr',
        { csr: tampered, ca_id: org1Ca.id, certificate_type: 'server' },
        w.admin1.token,
      );
      expect(response.status).toBe(400);
      expect(response.body.detail).toMatch(/^csr: /);
      expect(response.body.detail).toMatch(/signature/i);
      expect((await db.query('SELECT count(*)::int AS n FROM certificates')).rows[0].n).toBe(before);
    });

    it('lets explicit common_name and san_dns_names override the CSR’s', async () => {
      const { csr } = makeCsr('fromcsr.example.com', 'DNS:fromcsr.example.com,DNS:alt.example.com');
      const signed = await api.post(
        '/certificates/sign-csr',
        {
          csr,
          ca_id: org1Ca.id,
          certificate_type: 'server',
          common_name: 'override.example.com',
          san_dns_names: ['a.example.com', 'b.example.com'],
        },
        w.admin1.token,
      );
      expect(signed.status).toBe(201);
      expect(signed.body).toMatchObject({
        common_name: 'override.example.com',
        subject_dn: 'CN=override.example.com,O=Requester',
        san_dns_names: ['a.example.com', 'b.example.com'],
      });
      const text = ssl.run(
        'x509',
        '-in',
        ssl.write(`ovr${signed.body.id}.pem`, signed.body.certificate),
        '-noout',
        '-text',
        '-nameopt',
        'RFC2253',
      ).output;
      expect(text).toContain('DNS:a.example.com, DNS:b.example.com');
      expect(text).not.toContain('fromcsr.example.com');
      expect(text).toMatch(/Subject: CN=override\.example\.com,O=Requester/);
    });

    it('applies SAN rules to CSRs and refuses CAs that do not issue leaves', async () => {
      const { csr } = makeCsr('client.example.com');
      const client = await api.post('/certificates/sign-csr', { csr, ca_id: org1Ca.id, certificate_type: 'client' }, w.admin1.token);
      expect(client.status).toBe(400);
      expect(client.body.detail).toMatch(/^san_dns_names/);
      const noLeaves = await createCa(w.admin1.token, { allow_leaf_certs: false });
      const refused = await api.post('/certificates/sign-csr', { csr, ca_id: noLeaves.id, certificate_type: 'server' }, w.admin1.token);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain('does not allow leaf certificate issuance');
    });
  });

  describe('reading', () => {
    let ca: any;
    let certs: any[];
    let foreign: any;

    beforeAll(async () => {
      ca = await createCa(w.admin1.token);
      certs = [await issue(ca.id), await issue(ca.id), await issue(ca.id)];
      foreign = await issue(org2Ca.id, {}, w.admin2.token);
    });

    it('lists certificates scoped like CAs, filtered by ca_id, paginated', async () => {
      const { rows } = await db.query('SELECT id, organization_id FROM certificates ORDER BY id');
      const all = await api.get('/certificates/', w.root.token);
      expect(all.status).toBe(200);
      expect(all.body.map((c: any) => c.id)).toEqual(rows.map((row) => row.id));
      for (const c of all.body) expect(c).not.toHaveProperty('private_key');
      const org1 = await api.get('/certificates/', w.user1.token);
      expect(org1.body.map((c: any) => c.id)).toEqual(rows.filter((row) => row.organization_id === w.org1.id).map((row) => row.id));
      expect(org1.body.map((c: any) => c.id)).not.toContain(foreign.id);
      const org2 = await api.get('/certificates/', w.user2.token);
      expect(org2.body.map((c: any) => c.id)).toEqual(rows.filter((row) => row.organization_id === w.org2.id).map((row) => row.id));
      expect(await api.get('/certificates/', w.loner.token)).toMatchObject({ status: 200, body: [] });

      const filtered = await api.get(`/certificates/?ca_id=${ca.id}`, w.user1.token);
      expect(filtered.body.map((c: any) => c.id)).toEqual(certs.map((c) => c.id));
      expect((await api.get(`/certificates/?ca_id=${ca.id}`, w.user2.token)).body).toEqual([]);
      const page = await api.get(`/certificates/?ca_id=${ca.id}&skip=1&limit=1`, w.user1.token);
      expect(page.body.map((c: any) => c.id)).toEqual([certs[1].id]);
      expect((await api.get('/certificates/?limit=0', w.user1.token)).status).toBe(400);
      expect((await api.get('/certificates/?skip=-1', w.user1.token)).status).toBe(400);
    });

    it('shows one certificate to its organization only', async () => {
      const own = await api.get(`/certificates/${certs[0].id}`, w.user1.token);
      expect(own.status).toBe(200);
      const { private_key: _key, ...plain } = certs[0];
      expect(own.body).toEqual(plain);
      for (const token of [w.user2.token, w.admin2.token, w.loner.token]) {
        expect(await api.get(`/certificates/${certs[0].id}`, token)).toMatchObject({ status: 404, body: certNotFound(certs[0].id) });
      }
      expect(await api.get('/certificates/999999', w.root.token)).toMatchObject({ status: 404, body: certNotFound(999999) });
      expect((await api.get('/certificates/abc', w.root.token)).status).toBe(400);
    });

    it('finds a certificate by serial number', async () => {
      const serial: string = certs[1].serial_number;
      const plain = await api.get(`/certificates/by-serial/${serial}`, w.user1.token);
      expect(plain.status).toBe(200);
      expect(plain.body.id).toBe(certs[1].id);
      const padded = serial.length % 2 ? `0${serial}` : serial;
      const colons = padded.toUpperCase().match(/../g)!.join(':');
      const formatted = await api.get(`/certificates/by-serial/${colons}`, w.user1.token);
      expect(formatted.status).toBe(200);
      expect(formatted.body.id).toBe(certs[1].id);
      expect((await api.get(`/certificates/by-serial/${foreign.serial_number}`, w.user1.token)).status).toBe(404);
      expect((await api.get(`/certificates/by-serial/${foreign.serial_number}`, w.admin2.token)).body.id).toBe(foreign.id);
      expect((await api.get('/certificates/by-serial/abcdef0123456789', w.root.token)).status).toBe(404);
      const bad = await api.get('/certificates/by-serial/zz', w.root.token);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/^serial/);
    });
  });

  describe('revoke', () => {
    it('revokes once without a body, storing no reason, audited; a second revoke is 409', async () => {
      const cert = await issue(org1Ca.id);
      const response = await api.post(`/certificates/${cert.id}/revoke`, undefined, w.admin1.token);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: cert.id, status: 'revoked', revocation_reason: null });
      expect(Date.parse(response.body.revoked_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(response.body).not.toHaveProperty('private_key');
      const again = await api.post(`/certificates/${cert.id}/revoke`, { reason: 'superseded' }, w.admin1.token);
      expect(again.status).toBe(409);
      expect((await api.get(`/certificates/${cert.id}`, w.admin1.token)).body).toMatchObject({
        status: 'revoked',
        revocation_reason: null,
      });
      expect(await auditEntries('cert_revoke', cert.id)).toEqual([
        { user_id: w.admin1.id, organization_id: w.org1.id, detail: `Revoked certificate '${cert.common_name}'` },
      ]);
    });

    it('stores a free-text or RFC 5280 reason as given; the CRL carries its reason code, else unspecified', async () => {
      const ca = await createCa(w.admin1.token);
      const reasons = ['testing', 'key_compromise', 'CessationOfOperation', 'AFFILIATION-CHANGED', undefined] as const;
      const certs = [];
      for (const reason of reasons) {
        const cert = await issue(ca.id);
        const response = await api.post(`/certificates/${cert.id}/revoke`, reason === undefined ? {} : { reason }, w.admin1.token);
        expect(response.status).toBe(200);
        expect((await api.get(`/certificates/${cert.id}`, w.admin1.token)).body).toMatchObject({
          status: 'revoked',
          revocation_reason: reason ?? null,
        });
        certs.push(cert);
      }
      const { rows } = await db.query('SELECT revocation_reason FROM certificates WHERE id = ANY($1) ORDER BY id', [
        certs.map((cert) => cert.id),
      ]);
      expect(rows.map((row) => row.revocation_reason)).toEqual([
        'testing',
        'key_compromise',
        'CessationOfOperation',
        'AFFILIATION-CHANGED',
        null,
      ]);
      expect((await auditEntries('cert_revoke', certs[0].id))[0].detail).toBe(
        `Revoked certificate '${certs[0].common_name}' (reason: "testing")`,
      );

      const crl = await fetch(`${testApp.baseUrl}/crl/${ca.slug}`);
      expect(crl.status).toBe(200);
      const text = ssl.run(
        'crl',
        '-inform',
        'DER',
        '-in',
        ssl.write(`crl${++seq}.der`, Buffer.from(await crl.arrayBuffer())),
        '-noout',
        '-text',
      ).output;
      const entries = text.split('Serial Number: ').slice(1);
      const entryFor = (serial: string) => entries.find((entry) => BigInt(`0x${entry.split('\n')[0].trim()}`) === BigInt(`0x${serial}`));
      const codes = certs.map((cert) => /CRL Reason Code:\s+(.+)/.exec(entryFor(cert.serial_number)!)?.[1].trim() ?? null);
      expect(codes).toEqual(['Unspecified', 'Key Compromise', 'Cessation Of Operation', 'Affiliation Changed', null]);
    });

    it('refuses a reason that is not a string, has a NUL byte or is longer than 1024 characters', async () => {
      const cert = await issue(org1Ca.id);
      for (const reason of [42, 'x'.repeat(1025), null, 'a\u0000b']) {
        expect((await api.post(`/certificates/${cert.id}/revoke`, { reason }, w.admin1.token)).status).toBe(400);
      }
      expect((await db.query('SELECT status FROM certificates WHERE id = $1', [cert.id])).rows).toEqual([{ status: 'valid' }]);
      const longest = await api.post(`/certificates/${cert.id}/revoke`, { reason: 'x'.repeat(1024) }, w.admin1.token);
      expect(longest).toMatchObject({ status: 200, body: { revocation_reason: 'x'.repeat(1024) } });
    });

    it('lets exactly one of ten concurrent revocations succeed', async () => {
      const cert = await issue(org1Ca.id);
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => api.post(`/certificates/${cert.id}/revoke`, {}, w.admin1.token)),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      expect(await auditEntries('cert_revoke', cert.id)).toHaveLength(1);
    });

    it('lets concurrent revocations under one CA share CRL rebuilds, and each answer comes after a CRL that lists it', async () => {
      const ca = await createCa(w.admin1.token);
      const certs = await Promise.all(Array.from({ length: 20 }, () => issue(ca.id)));
      await fetch(`${testApp.baseUrl}/crl/${ca.slug}`);
      const before = (await db.query('SELECT crl_number FROM certificate_authorities WHERE id = $1', [ca.id])).rows[0].crl_number;
      const responses = await Promise.all(certs.map((cert) => api.post(`/certificates/${cert.id}/revoke`, {}, w.admin1.token)));
      expect(responses.map((response) => response.status)).toEqual(certs.map(() => 200));
      const { rows } = await db.query(
        'SELECT crl_number, revocation_count, crl_revocation_count FROM certificate_authorities WHERE id = $1',
        [ca.id],
      );
      expect(rows[0]).toMatchObject({ revocation_count: 20, crl_revocation_count: 20 });
      const rebuilds = Number(rows[0].crl_number) - Number(before);
      expect(rebuilds).toBeGreaterThanOrEqual(1);
      expect(rebuilds).toBeLessThan(10);

      const crl = await fetch(`${testApp.baseUrl}/crl/${ca.slug}`);
      const text = ssl.run(
        'crl',
        '-inform',
        'DER',
        '-in',
        ssl.write(`crl${++seq}.der`, Buffer.from(await crl.arrayBuffer())),
        '-noout',
        '-text',
      ).output;
      const listed = text
        .split('Serial Number: ')
        .slice(1)
        .map((entry) => BigInt(`0x${entry.split('\n')[0].trim()}`));
      expect(listed.sort()).toEqual(certs.map((cert) => BigInt(`0x${cert.serial_number}`)).sort());
      expect(/X509v3 CRL Number:\s*\n\s*(\d+)/.exec(text)?.[1]).toBe(String(rows[0].crl_number));
      expect(crl.headers.get('etag')).toBe(`"crl-${rows[0].crl_number}"`);
      const unchanged = await fetch(`${testApp.baseUrl}/crl/${ca.slug}`, {
        // fetch would add Cache-Control: no-cache to a conditional request, which forbids a 304.
        headers: { 'if-none-match': `"crl-${rows[0].crl_number}"`, 'cache-control': 'max-age=0' },
      });
      expect(unchanged.status).toBe(304);
      expect((await fetch(`${testApp.baseUrl}/crl/${ca.slug}.pem`)).headers.get('etag')).toBe(`"crl-${rows[0].crl_number}-pem"`);
    });

    it('needs can_revoke_cert for plain users and hides other organizations’ certificates', async () => {
      const cert = await issue(org1Ca.id);
      expect(await api.post(`/certificates/${cert.id}/revoke`, {}, w.user1.token)).toMatchObject({ status: 403, body: FORBIDDEN });
      expect(await api.post(`/certificates/${cert.id}/revoke`, {}, w.admin2.token)).toMatchObject({
        status: 404,
        body: certNotFound(cert.id),
      });
      expect((await db.query('SELECT status FROM certificates WHERE id = $1', [cert.id])).rows).toEqual([{ status: 'valid' }]);
      await withFlags(w.user1, { can_revoke_cert: true }, async () => {
        const response = await api.post(`/certificates/${cert.id}/revoke`, { reason: 'keyCompromise' }, w.user1.token);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ status: 'revoked', revocation_reason: 'keyCompromise' });
      });
      expect((await auditEntries('cert_revoke', cert.id)).map((entry) => entry.user_id)).toEqual([w.user1.id]);
    });
  });

  describe('renew', () => {
    it('renews a server-key certificate with a fresh key and the same parameters', async () => {
      const old = await issue(org1Ca.id, {
        common_name: 'renew.example.com',
        san_ip_addresses: ['192.0.2.44'],
        valid_days: 45,
        certificate_type: 'dual_purpose',
      });
      const response = await api.post(`/certificates/${old.id}/renew`, {}, w.admin1.token);
      expect(response.status).toBe(201);
      const renewed = response.body;
      expect(renewed.id).not.toBe(old.id);
      expect(renewed).toMatchObject({
        renewed_from_id: old.id,
        renewed_to_ids: [],
        subject_dn: old.subject_dn,
        common_name: old.common_name,
        san_dns_names: old.san_dns_names,
        san_ip_addresses: old.san_ip_addresses,
        san_email_addresses: old.san_email_addresses,
        valid_days: 45,
        certificate_type: 'dual_purpose',
        issuer_id: org1Ca.id,
        origin: 'server_key',
        key_type: 'ecdsa-p256',
        status: 'valid',
      });
      expect(renewed.serial_number).not.toBe(old.serial_number);
      expectPkcs8PrivateKey(renewed.private_key);
      expect(renewed.private_key).not.toBe(old.private_key);
      const keyFile = ssl.write(`renewed${renewed.id}.key`, renewed.private_key);
      expect(publicKeyOfCertificate(renewed.certificate)).toBe(publicKeyOfKey(keyFile));
      expect(Math.round((Date.parse(renewed.not_after) - Date.parse(renewed.not_before)) / 86_400_000)).toBe(45);

      const oldNow = await api.get(`/certificates/${old.id}`, w.admin1.token);
      expect(oldNow.body.renewed_to_ids).toEqual([renewed.id]);
      expect(oldNow.body.status).toBe('valid');
      expect(await auditEntries('cert_create', renewed.id)).toHaveLength(1);

      const { csr } = makeCsr('renew.example.com');
      const withCsr = await api.post(`/certificates/${old.id}/renew`, { csr }, w.admin1.token);
      expect(withCsr.status).toBe(400);
      expect(withCsr.body).toEqual({ detail: { code: 'csr_not_allowed_for_server_key_cert', message: expect.any(String) } });
    });

    it('renews a CSR certificate only with a new CSR, keeping the old subject', async () => {
      const first = makeCsr('csrrenew.example.com');
      const original = await api.post(
        '/certificates/sign-csr',
        { csr: first.csr, ca_id: org1Ca.id, certificate_type: 'server' },
        w.admin1.token,
      );
      expect(original.status).toBe(201);

      const missing = await api.post(`/certificates/${original.body.id}/renew`, {}, w.admin1.token);
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ detail: { code: 'csr_required_for_csr_origin_cert', message: expect.any(String) } });

      const second = makeCsr('different.example.org', 'DNS:different.example.org');
      const response = await api.post(`/certificates/${original.body.id}/renew`, { csr: second.csr }, w.admin1.token);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        renewed_from_id: original.body.id,
        origin: 'csr',
        common_name: 'csrrenew.example.com',
        subject_dn: original.body.subject_dn,
        san_dns_names: ['csrrenew.example.com'],
        private_key: null,
      });
      expect(publicKeyOfCertificate(response.body.certificate)).toBe(publicKeyOfKey(second.keyFile));
      expect(publicKeyOfCertificate(response.body.certificate)).not.toBe(publicKeyOfKey(first.keyFile));
      const text = ssl.run(
        'x509',
        '-in',
        ssl.write(`csrrenew${response.body.id}.pem`, response.body.certificate),
        '-noout',
        '-text',
      ).output;
      expect(text).not.toContain('different.example.org');
    });

    it('renews revoked certificates, and checks permissions', async () => {
      const cert = await issue(org1Ca.id);
      expect((await api.post(`/certificates/${cert.id}/revoke`, {}, w.admin1.token)).status).toBe(200);
      const renewed = await api.post(`/certificates/${cert.id}/renew`, {}, w.admin1.token);
      expect(renewed.status).toBe(201);
      expect(renewed.body).toMatchObject({ renewed_from_id: cert.id, status: 'valid' });

      expect(await api.post(`/certificates/${cert.id}/renew`, {}, w.user1.token)).toMatchObject({ status: 403, body: FORBIDDEN });
      expect(await api.post(`/certificates/${cert.id}/renew`, {}, w.admin2.token)).toMatchObject({
        status: 404,
        body: certNotFound(cert.id),
      });
      await withFlags(w.user1, { can_create_cert: true }, async () => {
        const byUser = await api.post(`/certificates/${cert.id}/renew`, {}, w.user1.token);
        expect(byUser.status).toBe(201);
        expect(byUser.body.created_by_user_id).toBe(w.user1.id);
      });
      expect((await api.get(`/certificates/${cert.id}`, w.admin1.token)).body.renewed_to_ids).toHaveLength(2);
    });
  });

  it('reports certificates past not_after as expired', async () => {
    const cert = await issue(org1Ca.id);
    await db.query("UPDATE certificates SET not_before = now() - interval '10 days', not_after = now() - interval '1 day' WHERE id = $1", [
      cert.id,
    ]);
    const response = await api.get(`/certificates/${cert.id}`, w.admin1.token);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('expired');
    const listed = (await api.get(`/certificates/?ca_id=${org1Ca.id}`, w.admin1.token)).body.find((c: any) => c.id === cert.id);
    expect(listed.status).toBe('expired');
    // A revoked certificate stays revoked after expiry.
    const revokedCert = await issue(org1Ca.id);
    expect((await api.post(`/certificates/${revokedCert.id}/revoke`, {}, w.admin1.token)).status).toBe(200);
    await db.query("UPDATE certificates SET not_after = now() - interval '1 day' WHERE id = $1", [revokedCert.id]);
    expect((await api.get(`/certificates/${revokedCert.id}`, w.admin1.token)).body.status).toBe('revoked');
  });
});
