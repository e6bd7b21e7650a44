import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ApiClient, Fixture, PASSWORD } from './support/api-client';
import { OpensslPki, OpensslWorkspace, startOpensslPki } from './support/openssl';
import type { TestApp } from './support/test-app';

/** Validity capped at the issuer's, subject order kept, mixed-key CRLs, the `ca` certificate type. */
describe('PKI corrections', () => {
  let pki: OpensslPki;
  let testApp: TestApp;
  let api: ApiClient;
  let root: Fixture;
  let ssl: OpensslWorkspace;

  beforeAll(async () => {
    pki = await startOpensslPki();
    ({ testApp, api, root, ssl } = pki);
  });

  afterAll(() => pki.close());

  /** The notAfter openssl reads from a PEM certificate. */
  function opensslNotAfter(name: string, pem: string): Date {
    ssl.write(name, pem);
    return new Date(/notAfter=(.*)/.exec(ssl.run('x509', '-in', name, '-noout', '-enddate').output)![1]);
  }

  describe('validity capped at the issuer’s (ISSUER_EXPIRY_BEHAVIOR=truncate, the default)', () => {
    it('creates a root and an intermediate both with default options; the intermediate ends with the root', async () => {
      const rootCa = await pki.createCa({ name: 'Default Root', subject_dn: 'CN=Default Root' });
      const intermediate = await pki.createCa({ name: 'Default Issuing', subject_dn: 'CN=Default Issuing', parent_ca_id: rootCa.id });
      expect(intermediate.not_after).toBe(rootCa.not_after);
      expect(opensslNotAfter('default-inter.pem', intermediate.certificate).toISOString()).toBe(rootCa.not_after);
      expect(intermediate.valid_days).toBe(3650);
      ssl.write('default-root.pem', rootCa.certificate);
      expect(ssl.run('verify', '-CAfile', 'default-root.pem', 'default-inter.pem').status).toBe(0);
    });

    it('caps a leaf, a signed CSR and a renewal at a short-lived CA’s end, and keeps the requested valid_days', async () => {
      const ca = await pki.createCa({ name: 'Short Root', subject_dn: 'CN=Short Root', key_type: 'ecdsa-p256', valid_days: 30 });
      const leaf = await pki.issue(ca.id, {
        common_name: 'short.example.com',
        subject_dn: 'O=Test',
        certificate_type: 'server',
        key_type: 'ecdsa-p256',
        valid_days: 365,
      });
      expect(leaf.not_after).toBe(ca.not_after);
      expect(leaf.valid_days).toBe(365);
      expect(opensslNotAfter('short-leaf.pem', leaf.certificate).toISOString()).toBe(ca.not_after);

      expect(
        ssl.run(
          'req',
          '-new',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          'short.key',
          '-out',
          'short.csr',
          '-subj',
          '/CN=csr-short.example.com',
        ).status,
      ).toBe(0);
      const csr = readFileSync(`${ssl.dir}/short.csr`, 'utf8');
      const signed = await api.post(
        '/certificates/sign-csr',
        { csr, ca_id: ca.id, certificate_type: 'server', valid_days: 3650 },
        root.token,
      );
      expect(signed.status).toBe(201);
      expect(signed.body.not_after).toBe(ca.not_after);

      const renewed = await api.post(`/certificates/${leaf.id}/renew`, {}, root.token);
      expect(renewed.status).toBe(201);
      expect(renewed.body.not_after).toBe(ca.not_after);
      expect(renewed.body.valid_days).toBe(365);
    });

    it('keeps a validity that fits inside the issuer’s exact', async () => {
      const ca = await pki.createCa({ name: 'Fitting Root', subject_dn: 'CN=Fitting Root', key_type: 'ecdsa-p256' });
      const leaf = await pki.issue(ca.id, {
        common_name: 'fits.example.com',
        subject_dn: 'O=Test',
        certificate_type: 'server',
        key_type: 'ecdsa-p256',
        valid_days: 90,
      });
      expect(new Date(leaf.not_after).getTime() - new Date(leaf.not_before).getTime()).toBe(90 * 86_400_000);
    });

    it('still refuses to issue from an expired CA (400)', async () => {
      const ca = await pki.createCa({ name: 'Expired Root', subject_dn: 'CN=Expired Root', key_type: 'ecdsa-p256' });
      const db = new Client({ connectionString: testApp.database.url });
      await db.connect();
      try {
        await db.query(`UPDATE certificate_authorities SET not_after = now() - interval '1 day' WHERE id = $1`, [ca.id]);
      } finally {
        await db.end();
      }
      const leaf = await api.post(
        `/certificates/?ca_id=${ca.id}`,
        { common_name: 'late.example.com', subject_dn: 'O=Test', certificate_type: 'server' },
        root.token,
      );
      expect(leaf.status).toBe(400);
      expect(leaf.body.detail).toMatch(/expired/);
      const child = await api.post(
        '/cas/',
        { name: 'Late Child', subject_dn: 'CN=Late Child', parent_ca_id: ca.id, key_type: 'ecdsa-p256' },
        root.token,
      );
      expect(child.status).toBe(400);
    });
  });

  describe('subject RDN order', () => {
    let signingCa: any;

    beforeAll(async () => {
      signingCa = await pki.createCa({ name: 'Order Root', subject_dn: 'CN=Order Root,O=Test', key_type: 'ecdsa-p256' });
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
      expect(
        ssl.run(
          'req',
          '-new',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          `${file}.key`,
          '-out',
          `${file}.csr`,
          '-subj',
          subj,
          '-multivalue-rdn',
        ).status,
      ).toBe(0);
      const fromCsr = rfc2253('req', `${file}.csr`);
      const signed = await api.post(
        '/certificates/sign-csr',
        { csr: readFileSync(`${ssl.dir}/${file}.csr`, 'utf8'), ca_id: signingCa.id, certificate_type: 'server' },
        root.token,
      );
      expect(signed.status).toBe(201);
      ssl.write(`${file}.pem`, signed.body.certificate);
      expect(rfc2253('x509', `${file}.pem`)).toBe(fromCsr);
      expect(fromCsr).toBe(`subject=${expected}`);
      expect(signed.body.subject_dn).toBe(expected);
      expect(ssl.run('verify', '-CAfile', 'order-root.pem', `${file}.pem`).status).toBe(0);
    });

    it('keeps the order of a given subject_dn, on sign-csr, issuance and renewal', async () => {
      expect(
        ssl.run(
          'req',
          '-new',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          'given.key',
          '-out',
          'given.csr',
          '-subj',
          '/CN=ignored.example.com',
        ).status,
      ).toBe(0);
      const signed = await api.post(
        '/certificates/sign-csr',
        {
          csr: readFileSync(`${ssl.dir}/given.csr`, 'utf8'),
          ca_id: signingCa.id,
          certificate_type: 'server',
          subject_dn: 'O=Example,CN=api.example.com,C=US',
        },
        root.token,
      );
      expect(signed.status).toBe(201);
      ssl.write('given.pem', signed.body.certificate);
      expect(rfc2253('x509', 'given.pem')).toBe('subject=O=Example,CN=api.example.com,C=US');

      const issued = await pki.issue(signingCa.id, {
        common_name: 'svc.example.com',
        subject_dn: 'OU=Ops+O=Example,C=US',
        certificate_type: 'server',
        key_type: 'ecdsa-p256',
      });
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
        const rootCa = await pki.createCa({ name: `Mixed ${keyType} Root`, subject_dn: `CN=Mixed ${keyType} Root`, key_type: keyType });
        roots.set(keyType, rootCa);
        ssl.write(`mixed-${keyType}-root.pem`, rootCa.certificate);
      }
    });

    it.each(KEY_TYPES.flatMap((parent) => KEY_TYPES.map((child) => [parent, child])))(
      '%s parent, %s intermediate: a revoked leaf is in a CRL openssl verifies',
      async (parentType, childType) => {
        const rootCa = roots.get(parentType);
        const name = `mixed-${parentType}-${childType}`;
        const intermediate = await pki.createCa({
          name,
          subject_dn: `CN=${name}`,
          key_type: childType,
          parent_ca_id: rootCa.id,
          allow_leaf_certs: true,
        });
        const leaf = await pki.issue(intermediate.id, {
          common_name: `${name}.example.com`,
          subject_dn: 'O=Test',
          certificate_type: 'server',
          key_type: 'ecdsa-p256',
        });
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
        const leafVerdict = ssl.run(
          'verify',
          '-crl_check_all',
          '-CRLfile',
          `${name}-chain-crls.pem`,
          '-CAfile',
          `mixed-${parentType}-root.pem`,
          '-untrusted',
          `${name}-inter.pem`,
          `${name}-leaf.pem`,
        );
        expect(leafVerdict.status).not.toBe(0);
        expect(leafVerdict.output).toContain('certificate revoked');
      },
    );
  });

  describe('certificate_type ca on POST /certificates/', () => {
    let issuingRoot: any;
    let subCa: any;

    beforeAll(async () => {
      issuingRoot = await pki.createCa({
        name: 'CA-type Root',
        subject_dn: 'CN=CA-type Root,O=Test',
        key_type: 'ecdsa-p256',
        path_length: 2,
      });
      subCa = await pki.issue(issuingRoot.id, {
        common_name: 'Issued Sub CA',
        subject_dn: 'O=Test',
        certificate_type: 'ca',
        key_type: 'ecdsa-p256',
      });
      ssl.write('ca-type-root.pem', issuingRoot.certificate);
      ssl.write('ca-type-sub.pem', subCa.certificate);
      ssl.write('ca-type-sub.key', subCa.private_key);
    });

    it('issues a CA-constrained certificate openssl accepts as a CA', () => {
      expect(subCa).toMatchObject({
        certificate_type: 'ca',
        issuer_id: issuingRoot.id,
        san_dns_names: [],
        san_ip_addresses: [],
        san_email_addresses: [],
        status: 'valid',
      });
      const text = ssl.run('x509', '-in', 'ca-type-sub.pem', '-noout', '-text').output;
      expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE, pathlen:1/);
      expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Certificate Sign, CRL Sign/);
      expect(text).not.toContain('Subject Alternative Name');
      expect(text).not.toContain('Extended Key Usage');
      expect(text).toContain(`URI:http://pki.test/crl/${issuingRoot.slug}`);
      expect(ssl.run('verify', '-CAfile', 'ca-type-root.pem', '-purpose', 'crlsign', 'ca-type-sub.pem').status).toBe(0);
      // The returned key signs under the issued certificate: a leaf made with it chains to the root.
      expect(
        ssl.run(
          'req',
          '-new',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          'ca-type-leaf.key',
          '-out',
          'ca-type-leaf.csr',
          '-subj',
          '/CN=leaf.example.com',
        ).status,
      ).toBe(0);
      expect(
        ssl.run(
          'x509',
          '-req',
          '-in',
          'ca-type-leaf.csr',
          '-CA',
          'ca-type-sub.pem',
          '-CAkey',
          'ca-type-sub.key',
          '-out',
          'ca-type-leaf.pem',
          '-days',
          '1',
        ).status,
      ).toBe(0);
      expect(ssl.run('verify', '-CAfile', 'ca-type-root.pem', '-untrusted', 'ca-type-sub.pem', 'ca-type-leaf.pem').status).toBe(0);
    });

    it('lists it among the issuing CA’s certificates and exports it with its chain', async () => {
      const listed = await api.get(`/certificates/?ca_id=${issuingRoot.id}`, root.token);
      expect(listed.body.map((certificate: any) => [certificate.id, certificate.certificate_type])).toContainEqual([subCa.id, 'ca']);
      const chain = await api.get(`/export/certificate/${subCa.id}/chain`, root.token);
      expect(chain.status).toBe(200);
      expect(chain.text).toBe(`${subCa.certificate}${issuingRoot.certificate}`);
    });

    it('revokes it into the issuer’s CRL', async () => {
      const revoked = await api.post(`/certificates/${subCa.id}/revoke`, { reason: 'cACompromise' }, root.token);
      expect(revoked.status).toBe(200);
      const crl = await fetch(`${testApp.baseUrl}/crl/${issuingRoot.slug}.pem`);
      ssl.write('ca-type.crl.pem', await crl.text());
      expect(ssl.run('crl', '-in', 'ca-type.crl.pem', '-CAfile', 'ca-type-root.pem', '-noout', '-verify').status).toBe(0);
      const verdict = ssl.run('verify', '-crl_check', '-CRLfile', 'ca-type.crl.pem', '-CAfile', 'ca-type-root.pem', 'ca-type-sub.pem');
      expect(verdict.output).toContain('certificate revoked');
    });

    it('takes a path length within the issuer’s and refuses one beyond it, SANs, or an issuer with path length 0', async () => {
      const shallow = await pki.issue(issuingRoot.id, {
        common_name: 'Shallow Sub CA',
        subject_dn: 'O=Test',
        certificate_type: 'ca',
        key_type: 'ecdsa-p256',
        path_length: 0,
      });
      ssl.write('ca-type-shallow.pem', shallow.certificate);
      expect(ssl.run('x509', '-in', 'ca-type-shallow.pem', '-noout', '-text').output).toMatch(/CA:TRUE, pathlen:0/);
      const renewed = await api.post(`/certificates/${shallow.id}/renew`, {}, root.token);
      expect(renewed.status).toBe(201);
      expect(renewed.body.certificate_type).toBe('ca');
      ssl.write('ca-type-renewed.pem', renewed.body.certificate);
      expect(ssl.run('x509', '-in', 'ca-type-renewed.pem', '-noout', '-text').output).toMatch(/CA:TRUE, pathlen:0/);
      const tooDeep = await api.post(
        `/certificates/?ca_id=${issuingRoot.id}`,
        { common_name: 'Deep', subject_dn: 'O=Test', certificate_type: 'ca', key_type: 'ecdsa-p256', path_length: 2 },
        root.token,
      );
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.detail).toMatch(/path_length 2 exceeds the maximum of 1/);
      const withSans = await api.post(
        `/certificates/?ca_id=${issuingRoot.id}`,
        { common_name: 'Named', subject_dn: 'O=Test', certificate_type: 'ca', san_dns_names: ['x.example.com'] },
        root.token,
      );
      expect(withSans.status).toBe(400);
      expect(withSans.body.detail).toMatch(/^san_dns_names/);
      const leafPath = await api.post(
        `/certificates/?ca_id=${issuingRoot.id}`,
        { common_name: 'x.example.com', subject_dn: 'O=Test', certificate_type: 'server', path_length: 0 },
        root.token,
      );
      expect(leafPath.status).toBe(400);

      const endOfPath = await pki.createCa({ name: 'Path Zero', subject_dn: 'CN=Path Zero', key_type: 'ecdsa-p256', path_length: 0 });
      const refused = await api.post(
        `/certificates/?ca_id=${endOfPath.id}`,
        { common_name: 'Not Allowed', subject_dn: 'O=Test', certificate_type: 'ca', key_type: 'ecdsa-p256' },
        root.token,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toMatch(/does not allow sub-CAs/);
    });

    it('needs can_create_ca besides can_create_cert', async () => {
      const org = await api.post('/organizations/', { name: 'CA-type Org' }, root.token);
      const user = await api.post(
        '/users/',
        {
          username: 'certonly',
          email: 'certonly@example.com',
          password: PASSWORD,
          role: 'user',
          organization_id: org.body.id,
          can_create_cert: true,
        },
        root.token,
      );
      expect(user.status).toBe(201);
      const token = await api.token('certonly', PASSWORD);
      const orgCa = await pki.createCa({ name: 'CA-type Org Root', subject_dn: 'CN=CA-type Org Root', key_type: 'ecdsa-p256' });
      expect((await api.patch(`/cas/${orgCa.id}`, { organization_id: org.body.id }, root.token)).status).toBe(200);
      const refused = await api.post(
        `/certificates/?ca_id=${orgCa.id}`,
        { common_name: 'Sub', subject_dn: 'O=Test', certificate_type: 'ca', key_type: 'ecdsa-p256' },
        token,
      );
      expect(refused.status).toBe(403);
      const leaf = await api.post(
        `/certificates/?ca_id=${orgCa.id}`,
        { common_name: 'ok.example.com', subject_dn: 'O=Test', certificate_type: 'server', key_type: 'ecdsa-p256' },
        token,
      );
      expect(leaf.status).toBe(201);
    });

    it('still signs CSRs only as server, client or dual_purpose', async () => {
      expect(
        ssl.run(
          'req',
          '-new',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          'ca-csr.key',
          '-out',
          'ca-csr.csr',
          '-subj',
          '/CN=csr-ca',
        ).status,
      ).toBe(0);
      const response = await api.post(
        '/certificates/sign-csr',
        { csr: readFileSync(`${ssl.dir}/ca-csr.csr`, 'utf8'), ca_id: issuingRoot.id, certificate_type: 'ca' },
        root.token,
      );
      expect(response.status).toBe(400);
    });
  });

  describe('with ISSUER_EXPIRY_BEHAVIOR=err', () => {
    let strict: OpensslPki;

    beforeAll(async () => {
      strict = await startOpensslPki({ ISSUER_EXPIRY_BEHAVIOR: 'err' });
    });

    afterAll(() => strict.close());

    it('refuses a child that would outlast its issuer, and accepts one that fits', async () => {
      const parent = await strict.api.post(
        '/cas/',
        { name: 'Strict Root', subject_dn: 'CN=Strict Root', key_type: 'ecdsa-p256', valid_days: 100 },
        strict.root.token,
      );
      expect(parent.status).toBe(201);
      const child = await strict.api.post(
        '/cas/',
        { name: 'Strict Child', subject_dn: 'CN=Strict Child', key_type: 'ecdsa-p256', parent_ca_id: parent.body.id },
        strict.root.token,
      );
      expect(child.status).toBe(400);
      expect(child.body.detail).toMatch(/valid_days 3650 would outlast the issuing CA/);
      const leaf = await strict.api.post(
        `/certificates/?ca_id=${parent.body.id}`,
        { common_name: 'x.example.com', subject_dn: 'O=Test', certificate_type: 'server', valid_days: 101 },
        strict.root.token,
      );
      expect(leaf.status).toBe(400);
      const fits = await strict.api.post(
        `/certificates/?ca_id=${parent.body.id}`,
        { common_name: 'x.example.com', subject_dn: 'O=Test', certificate_type: 'server', valid_days: 99 },
        strict.root.token,
      );
      expect(fits.status).toBe(201);
    });
  });
});
