import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ApiClient, createBootstrapSuperuser, Fixture } from './support/api-client';
import { OpensslWorkspace } from './support/openssl';
import { startTestApp, TestApp } from './support/test-app';

/** Corrections from issue 12: validity capped at the issuer's, subject order kept, mixed-key CRLs, the `ca` type. */
describe('PKI corrections', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let root: Fixture;
  let ssl: OpensslWorkspace;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { CA_KEY_SIZE: '2048', PUBLIC_BASE_URL: 'http://pki.test' } });
    api = new ApiClient(testApp.baseUrl);
    root = await createBootstrapSuperuser(api);
    ssl = new OpensslWorkspace();
  });

  afterAll(async () => {
    ssl.dispose();
    await testApp.close();
  });

  async function createCa(body: object): Promise<any> {
    const response = await api.post('/cas/', body, root.token);
    expect(response.status).toBe(201);
    return response.body;
  }

  async function issue(caId: number, body: object): Promise<any> {
    const response = await api.post(`/certificates/?ca_id=${caId}`, body, root.token);
    expect(response.status).toBe(201);
    return response.body;
  }

  /** The notAfter openssl reads from a PEM certificate. */
  function opensslNotAfter(name: string, pem: string): Date {
    ssl.write(name, pem);
    return new Date(/notAfter=(.*)/.exec(ssl.run('x509', '-in', name, '-noout', '-enddate').output)![1]);
  }

  describe('validity capped at the issuer’s (ISSUER_EXPIRY_BEHAVIOR=truncate, the default)', () => {
    it('creates a root and an intermediate both with default options; the intermediate ends with the root', async () => {
      const rootCa = await createCa({ name: 'Default Root', subject_dn: 'CN=Default Root' });
      const intermediate = await createCa({ name: 'Default Issuing', subject_dn: 'CN=Default Issuing', parent_ca_id: rootCa.id });
      expect(intermediate.not_after).toBe(rootCa.not_after);
      expect(opensslNotAfter('default-inter.pem', intermediate.certificate).toISOString()).toBe(rootCa.not_after);
      expect(intermediate.valid_days).toBe(3650);
      ssl.write('default-root.pem', rootCa.certificate);
      expect(ssl.run('verify', '-CAfile', 'default-root.pem', 'default-inter.pem').status).toBe(0);
    });

    it('caps a leaf, a signed CSR and a renewal at a short-lived CA’s end, and keeps the requested valid_days', async () => {
      const ca = await createCa({ name: 'Short Root', subject_dn: 'CN=Short Root', key_type: 'ecdsa-p256', valid_days: 30 });
      const leaf = await issue(ca.id, { common_name: 'short.example.com', subject_dn: 'O=Test', certificate_type: 'server', key_type: 'ecdsa-p256', valid_days: 365 });
      expect(leaf.not_after).toBe(ca.not_after);
      expect(leaf.valid_days).toBe(365);
      expect(opensslNotAfter('short-leaf.pem', leaf.certificate).toISOString()).toBe(ca.not_after);

      expect(ssl.run('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'short.key', '-out', 'short.csr', '-subj', '/CN=csr-short.example.com').status).toBe(0);
      const csr = readFileSync(`${ssl.dir}/short.csr`, 'utf8');
      const signed = await api.post('/certificates/sign-csr', { csr, ca_id: ca.id, certificate_type: 'server', valid_days: 3650 }, root.token);
      expect(signed.status).toBe(201);
      expect(signed.body.not_after).toBe(ca.not_after);

      const renewed = await api.post(`/certificates/${leaf.id}/renew`, {}, root.token);
      expect(renewed.status).toBe(201);
      expect(renewed.body.not_after).toBe(ca.not_after);
      expect(renewed.body.valid_days).toBe(365);
    });

    it('keeps a validity that fits inside the issuer’s exact', async () => {
      const ca = await createCa({ name: 'Fitting Root', subject_dn: 'CN=Fitting Root', key_type: 'ecdsa-p256' });
      const leaf = await issue(ca.id, { common_name: 'fits.example.com', subject_dn: 'O=Test', certificate_type: 'server', key_type: 'ecdsa-p256', valid_days: 90 });
      expect(new Date(leaf.not_after).getTime() - new Date(leaf.not_before).getTime()).toBe(90 * 86_400_000);
    });

    it('still refuses to issue from an expired CA (400)', async () => {
      const ca = await createCa({ name: 'Expired Root', subject_dn: 'CN=Expired Root', key_type: 'ecdsa-p256' });
      const db = new Client({ connectionString: testApp.database.url });
      await db.connect();
      try {
        await db.query(`UPDATE certificate_authorities SET not_after = now() - interval '1 day' WHERE id = $1`, [ca.id]);
      } finally {
        await db.end();
      }
      const leaf = await api.post(`/certificates/?ca_id=${ca.id}`, { common_name: 'late.example.com', subject_dn: 'O=Test', certificate_type: 'server' }, root.token);
      expect(leaf.status).toBe(400);
      expect(leaf.body.detail).toMatch(/expired/);
      const child = await api.post('/cas/', { name: 'Late Child', subject_dn: 'CN=Late Child', parent_ca_id: ca.id, key_type: 'ecdsa-p256' }, root.token);
      expect(child.status).toBe(400);
    });
  });

  describe('subject RDN order', () => {
    let signingCa: any;

    beforeAll(async () => {
      signingCa = await createCa({ name: 'Order Root', subject_dn: 'CN=Order Root,O=Test', key_type: 'ecdsa-p256' });
      ssl.write('order-root.pem', signingCa.certificate);
    });

    function rfc2253(kind: 'req' | 'x509', file: string): string {
      const result = ssl.run(kind, '-in', file, '-noout', '-subject', '-nameopt', 'RFC2253');
      expect(result.status).toBe(0);
      return result.output.trim();
    }

    it.each([
      ['one RDN', '/CN=api.example.com', 'CN=api.example.com'],
      ['CN before O', '/CN=api.example.com/O=Example', 'O=Example,CN=api.example.com'],
      ['three RDNs, CN first', '/CN=api.example.com/OU=Web/C=US', 'C=US,OU=Web,CN=api.example.com'],
      ['three RDNs, CN last', '/C=US/O=Example/CN=api.example.com', 'CN=api.example.com,O=Example,C=US'],
      ['a multi-valued RDN', '/CN=a.example.com+OU=b/O=Example', 'O=Example,CN=a.example.com+OU=b'],
      ['repeated OUs', '/O=Example/OU=Eng/OU=Ops/CN=x.example.com', 'CN=x.example.com,OU=Ops,OU=Eng,O=Example'],
    ])('signs a CSR with %s keeping its subject exactly', async (label, subj, expected) => {
      const file = label.replace(/\W+/g, '-');
      expect(ssl.run('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${file}.key`, '-out', `${file}.csr`, '-subj', subj, '-multivalue-rdn').status).toBe(0);
      const fromCsr = rfc2253('req', `${file}.csr`);
      const signed = await api.post('/certificates/sign-csr', { csr: readFileSync(`${ssl.dir}/${file}.csr`, 'utf8'), ca_id: signingCa.id, certificate_type: 'server' }, root.token);
      expect(signed.status).toBe(201);
      ssl.write(`${file}.pem`, signed.body.certificate);
      expect(rfc2253('x509', `${file}.pem`)).toBe(fromCsr);
      expect(fromCsr).toBe(`subject=${expected}`);
      expect(signed.body.subject_dn).toBe(expected);
      expect(ssl.run('verify', '-CAfile', 'order-root.pem', `${file}.pem`).status).toBe(0);
    });

    it('keeps the order of a given subject_dn, on sign-csr, issuance and renewal', async () => {
      expect(ssl.run('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'given.key', '-out', 'given.csr', '-subj', '/CN=ignored.example.com').status).toBe(0);
      const signed = await api.post(
        '/certificates/sign-csr',
        { csr: readFileSync(`${ssl.dir}/given.csr`, 'utf8'), ca_id: signingCa.id, certificate_type: 'server', subject_dn: 'O=Example,CN=api.example.com,C=US' },
        root.token,
      );
      expect(signed.status).toBe(201);
      ssl.write('given.pem', signed.body.certificate);
      expect(rfc2253('x509', 'given.pem')).toBe('subject=O=Example,CN=api.example.com,C=US');

      const issued = await issue(signingCa.id, { common_name: 'svc.example.com', subject_dn: 'OU=Ops+O=Example,C=US', certificate_type: 'server', key_type: 'ecdsa-p256' });
      ssl.write('issued.pem', issued.certificate);
      expect(rfc2253('x509', 'issued.pem')).toBe('subject=CN=svc.example.com,OU=Ops+O=Example,C=US');
      const renewed = await api.post(`/certificates/${issued.id}/renew`, {}, root.token);
      expect(renewed.status).toBe(201);
      ssl.write('renewed.pem', renewed.body.certificate);
      expect(rfc2253('x509', 'renewed.pem')).toBe('subject=CN=svc.example.com,OU=Ops+O=Example,C=US');
    });
  });

  describe('CRLs of a CA whose key type differs from its parent’s', () => {
    const KEY_TYPES = ['rsa', 'ecdsa-p256', 'ecdsa-p384', 'ed25519'];
    const roots = new Map<string, any>();

    beforeAll(async () => {
      for (const keyType of KEY_TYPES) {
        const rootCa = await createCa({ name: `Mixed ${keyType} Root`, subject_dn: `CN=Mixed ${keyType} Root`, key_type: keyType });
        roots.set(keyType, rootCa);
        ssl.write(`mixed-${keyType}-root.pem`, rootCa.certificate);
      }
    });

    it.each(KEY_TYPES.flatMap((parent) => KEY_TYPES.map((child) => [parent, child])))(
      '%s parent, %s intermediate: a revoked leaf is in a CRL openssl verifies',
      async (parentType, childType) => {
        const rootCa = roots.get(parentType);
        const name = `mixed-${parentType}-${childType}`;
        const intermediate = await createCa({ name, subject_dn: `CN=${name}`, key_type: childType, parent_ca_id: rootCa.id, allow_leaf_certs: true });
        const leaf = await issue(intermediate.id, { common_name: `${name}.example.com`, subject_dn: 'O=Test', certificate_type: 'server', key_type: 'ecdsa-p256' });
        const revoked = await api.post(`/certificates/${leaf.id}/revoke`, { reason: 'keyCompromise' }, root.token);
        expect(revoked.status).toBe(200);
        expect(testApp.logs.text()).not.toContain('CRL rebuild after revocation failed');

        const crl = await fetch(`${testApp.baseUrl}/crl/${intermediate.slug}`);
        expect(crl.status).toBe(200);
        ssl.write(`${name}.crl.der`, Buffer.from(await crl.arrayBuffer()));
        ssl.write(`${name}-inter.pem`, intermediate.certificate);
        ssl.write(`${name}-leaf.pem`, leaf.certificate);
        expect(ssl.run('crl', '-inform', 'DER', '-in', `${name}.crl.der`, '-out', `${name}.crl.pem`).status).toBe(0);
        const crlVerified = ssl.run('crl', '-in', `${name}.crl.pem`, '-CAfile', `${name}-inter.pem`, '-noout', '-verify');
        expect(crlVerified.output).toContain('verify OK');
        expect(crlVerified.status).toBe(0);

        const rootCrl = await fetch(`${testApp.baseUrl}/crl/${rootCa.slug}.pem`);
        expect(rootCrl.status).toBe(200);
        ssl.write(`${name}-chain-crls.pem`, `${readFileSync(`${ssl.dir}/${name}.crl.pem`, 'utf8')}${await rootCrl.text()}`);
        const leafVerdict = ssl.run('verify', '-crl_check_all', '-CRLfile', `${name}-chain-crls.pem`, '-CAfile', `mixed-${parentType}-root.pem`, '-untrusted', `${name}-inter.pem`, `${name}-leaf.pem`);
        expect(leafVerdict.status).not.toBe(0);
        expect(leafVerdict.output).toContain('certificate revoked');
      },
    );
  });

  describe('with ISSUER_EXPIRY_BEHAVIOR=err', () => {
    let strictApp: TestApp;
    let strictApi: ApiClient;
    let strictRoot: Fixture;

    beforeAll(async () => {
      strictApp = await startTestApp({ env: { ISSUER_EXPIRY_BEHAVIOR: 'err' } });
      strictApi = new ApiClient(strictApp.baseUrl);
      strictRoot = await createBootstrapSuperuser(strictApi);
    });

    afterAll(async () => {
      await strictApp.close();
    });

    it('refuses a child that would outlast its issuer, and accepts one that fits', async () => {
      const parent = await strictApi.post('/cas/', { name: 'Strict Root', subject_dn: 'CN=Strict Root', key_type: 'ecdsa-p256', valid_days: 100 }, strictRoot.token);
      expect(parent.status).toBe(201);
      const child = await strictApi.post('/cas/', { name: 'Strict Child', subject_dn: 'CN=Strict Child', key_type: 'ecdsa-p256', parent_ca_id: parent.body.id }, strictRoot.token);
      expect(child.status).toBe(400);
      expect(child.body.detail).toMatch(/valid_days 3650 would outlast the issuing CA/);
      const leaf = await strictApi.post(`/certificates/?ca_id=${parent.body.id}`, { common_name: 'x.example.com', subject_dn: 'O=Test', certificate_type: 'server', valid_days: 101 }, strictRoot.token);
      expect(leaf.status).toBe(400);
      const fits = await strictApi.post(`/certificates/?ca_id=${parent.body.id}`, { common_name: 'x.example.com', subject_dn: 'O=Test', certificate_type: 'server', valid_days: 99 }, strictRoot.token);
      expect(fits.status).toBe(201);
    });
  });
});
