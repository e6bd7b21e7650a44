import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ApiClient, Fixture } from './support/api-client';
import { OpensslPki, OpensslWorkspace, startOpensslPki } from './support/openssl';
import type { TestApp } from './support/test-app';

/** What openssl says about the certificates and CRLs the service issues. */
describe('PKI output verified by openssl', () => {
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

  describe.each([
    ['RSA', 'rsa'],
    ['ECDSA P-256', 'ecdsa-p256'],
    ['ECDSA P-384', 'ecdsa-p384'],
    ['Ed25519', 'ed25519'],
  ])('a two-level %s chain', (label, keyType) => {
    let rootCa: any;
    let intermediate: any;
    let leaf: any;

    beforeAll(async () => {
      rootCa = await pki.createCa({ name: `${label} Root`, subject_dn: `CN=${label} Root,O=Test,C=US`, key_type: keyType });
      intermediate = await pki.createCa({
        name: `${label} Issuing`,
        subject_dn: `CN=${label} Issuing,O=Test,C=US`,
        key_type: keyType,
        parent_ca_id: rootCa.id,
        valid_days: 1000,
      });
      leaf = await pki.issue(intermediate.id, {
        common_name: `${keyType}.example.com`,
        subject_dn: 'O=Test,C=US',
        certificate_type: 'server',
        key_type: keyType,
        san_ip_addresses: ['10.0.0.1'],
      });
      ssl.write(`${keyType}-root.pem`, rootCa.certificate);
      ssl.write(`${keyType}-inter.pem`, intermediate.certificate);
      ssl.write(`${keyType}-leaf.pem`, leaf.certificate);
    });

    it('verifies leaf → intermediate → root, for TLS servers', () => {
      const verified = ssl.run(
        'verify',
        '-CAfile',
        `${keyType}-root.pem`,
        '-untrusted',
        `${keyType}-inter.pem`,
        '-purpose',
        'sslserver',
        `${keyType}-leaf.pem`,
      );
      expect(verified).toEqual({ status: 0, output: `${keyType}-leaf.pem: OK\n` });
      const asClient = ssl.run(
        'verify',
        '-CAfile',
        `${keyType}-root.pem`,
        '-untrusted',
        `${keyType}-inter.pem`,
        '-purpose',
        'sslclient',
        `${keyType}-leaf.pem`,
      );
      expect(asClient.status).not.toBe(0);
    });

    it('puts the CA profile on the intermediate', () => {
      const text = ssl.run('x509', '-in', `${keyType}-inter.pem`, '-noout', '-text').output;
      expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE/);
      expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Certificate Sign, CRL Sign/);
      expect(text).toContain('X509v3 Subject Key Identifier');
      expect(text).toContain('X509v3 Authority Key Identifier');
      expect(text).toContain(`URI:http://pki.test/crl/${rootCa.slug}`);
      expect(text).toContain(`CA Issuers - URI:http://pki.test/ca/${rootCa.slug}.crt`);
    });

    it('puts the leaf profile on the leaf, with the CN added as DNS SAN', () => {
      const text = ssl.run('x509', '-in', `${keyType}-leaf.pem`, '-noout', '-text').output;
      expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
      expect(text).toMatch(/X509v3 Extended Key Usage:\s+TLS Web Server Authentication/);
      expect(text).toMatch(new RegExp(`DNS:${keyType}\\.example\\.com, IP Address:10\\.0\\.0\\.1`));
      expect(text).toContain(`URI:http://pki.test/crl/${intermediate.slug}`);
      expect(text).toMatch(keyType === 'rsa' ? /Digital Signature, Key Encipherment/ : /Key Usage: critical\s+Digital Signature\n/);
    });

    it('matches the private key it returned', () => {
      ssl.write(`${keyType}-leaf.key`, leaf.private_key);
      const fromCert = ssl.run('x509', '-in', `${keyType}-leaf.pem`, '-noout', '-pubkey').output;
      const fromKey = ssl.run('pkey', '-in', `${keyType}-leaf.key`, '-pubout').output;
      expect(fromKey).toBe(fromCert);
    });
  });

  it('publishes a signed CRL listing revoked serials with reasons, and openssl rejects the revoked leaf', async () => {
    const ca = await pki.createCa({ name: 'CRL Root', subject_dn: 'CN=CRL Root,O=Test', key_type: 'ecdsa-p256' });
    const revoked = await pki.issue(ca.id, {
      common_name: 'gone.example.com',
      subject_dn: 'O=Test',
      certificate_type: 'server',
      key_type: 'ecdsa-p256',
    });
    const kept = await pki.issue(ca.id, {
      common_name: 'kept.example.com',
      subject_dn: 'O=Test',
      certificate_type: 'server',
      key_type: 'ecdsa-p256',
    });
    const revoke = await api.post(`/certificates/${revoked.id}/revoke`, { reason: 'key_compromise' }, root.token);
    expect(revoke.status).toBe(200);
    expect(revoke.body).toMatchObject({ status: 'revoked', revocation_reason: 'key_compromise' });

    const der = await fetch(`${testApp.baseUrl}/crl/${ca.slug}`);
    expect(der.status).toBe(200);
    expect(der.headers.get('content-type')).toBe('application/pkix-crl');
    ssl.write('crl.der', Buffer.from(await der.arrayBuffer()));
    ssl.write('crl-ca.pem', ca.certificate);
    const verified = ssl.run('crl', '-inform', 'DER', '-in', 'crl.der', '-CAfile', 'crl-ca.pem', '-noout', '-verify');
    expect(verified.status).toBe(0);
    expect(verified.output).toContain('verify OK');
    const text = ssl.run('crl', '-inform', 'DER', '-in', 'crl.der', '-noout', '-text').output;
    expect(text.toLowerCase()).toContain(
      `serial number: ${revoked.serial_number.padStart(revoked.serial_number.length + (revoked.serial_number.length % 2), '0')}`,
    );
    expect(text).toContain('Key Compromise');
    expect(text).toMatch(/X509v3 CRL Number:\s+\d+/);
    expect(text).toContain('X509v3 Authority Key Identifier');

    const pem = await fetch(`${testApp.baseUrl}/crl/${ca.slug}.pem`);
    expect(pem.headers.get('content-type')).toBe('application/x-pem-file');
    ssl.write('crl.pem', await pem.text());
    ssl.write('gone.pem', revoked.certificate);
    ssl.write('kept.pem', kept.certificate);
    const gone = ssl.run('verify', '-crl_check', '-CRLfile', 'crl.pem', '-CAfile', 'crl-ca.pem', 'gone.pem');
    expect(gone.status).not.toBe(0);
    expect(gone.output).toContain('certificate revoked');
    expect(ssl.run('verify', '-crl_check', '-CRLfile', 'crl.pem', '-CAfile', 'crl-ca.pem', 'kept.pem').status).toBe(0);
  });

  it('increases the CRL number with every rebuild', async () => {
    const ca = await pki.createCa({ name: 'Numbering Root', subject_dn: 'CN=Numbering Root', key_type: 'ed25519' });
    const crlNumber = async () => {
      ssl.write('n.der', Buffer.from(await (await fetch(`${testApp.baseUrl}/crl/${ca.slug}`)).arrayBuffer()));
      return Number(/X509v3 CRL Number:\s+(\d+)/.exec(ssl.run('crl', '-inform', 'DER', '-in', 'n.der', '-noout', '-text').output)![1]);
    };
    const first = await crlNumber();
    expect(await crlNumber()).toBe(first);
    const cert = await pki.issue(ca.id, {
      common_name: 'n.example.com',
      subject_dn: 'O=Test',
      certificate_type: 'server',
      key_type: 'ed25519',
    });
    await api.post(`/certificates/${cert.id}/revoke`, {}, root.token);
    expect(await crlNumber()).toBeGreaterThan(first);
  });

  it('signs a CSR made by openssl req; the result verifies and keeps the requester’s key', async () => {
    const ca = await pki.createCa({ name: 'CSR Root', subject_dn: 'CN=CSR Root,O=Test', key_type: 'rsa', key_size: 2048 });
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
      '/C=US/O=Requester/CN=csr.example.com',
      '-addext',
      'subjectAltName=DNS:csr.example.com,DNS:alt.example.com,IP:192.0.2.7',
    );
    expect(made.status).toBe(0);
    const csr = readFileSync(`${ssl.dir}/req.csr`, 'utf8');
    const signed = await api.post('/certificates/sign-csr', { csr, ca_id: ca.id, certificate_type: 'server' }, root.token);
    expect(signed.status).toBe(201);
    expect(signed.body.private_key).toBeUndefined();
    expect(signed.body).toMatchObject({
      common_name: 'csr.example.com',
      subject_dn: 'CN=csr.example.com,O=Requester,C=US',
      san_dns_names: ['csr.example.com', 'alt.example.com'],
      san_ip_addresses: ['192.0.2.7'],
      origin: 'csr',
      key_type: 'ecdsa-p256',
    });
    ssl.write('csr-root.pem', ca.certificate);
    ssl.write('csr-cert.pem', signed.body.certificate);
    expect(ssl.run('verify', '-CAfile', 'csr-root.pem', 'csr-cert.pem').status).toBe(0);
    expect(ssl.run('x509', '-in', 'csr-cert.pem', '-noout', '-pubkey').output).toBe(ssl.run('pkey', '-in', 'csr.key', '-pubout').output);
  });

  it('serves CA certificates publicly as DER and PEM, and 404s a wrong slug prefix', async () => {
    const ca = await pki.createCa({ name: 'Public Root', subject_dn: 'CN=Public Root', key_type: 'ecdsa-p256' });
    const der = await fetch(`${testApp.baseUrl}/ca/${ca.slug}.crt`);
    expect(der.status).toBe(200);
    expect(der.headers.get('content-type')).toBe('application/pkix-cert');
    ssl.write('public.der', Buffer.from(await der.arrayBuffer()));
    expect(ssl.run('x509', '-inform', 'DER', '-in', 'public.der', '-noout', '-subject').output).toMatch(/CN ?= ?Public Root/);
    const pem = await fetch(`${testApp.baseUrl}/ca/${ca.slug}.pem`);
    expect(pem.headers.get('content-type')).toBe('application/x-pem-file');
    expect(await pem.text()).toBe(ca.certificate);
    expect((await fetch(`${testApp.baseUrl}/ca/wrong-name-${ca.id}.crt`)).status).toBe(404);
    expect((await fetch(`${testApp.baseUrl}/crl/wrong-name-${ca.id}`)).status).toBe(404);
    expect((await fetch(`${testApp.baseUrl}/ca/${ca.slug}.txt`)).status).toBe(404);
  });

  it('keeps no plaintext private key in the database', async () => {
    const db = new Client({ connectionString: testApp.database.url });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT private_key FROM certificate_authorities UNION ALL SELECT private_key FROM certificates WHERE private_key IS NOT NULL`,
      );
      expect(rows.length).toBeGreaterThan(5);
      for (const row of rows) {
        expect(row.private_key).toMatch(/^enc:v1:/);
        expect(row.private_key).not.toContain('PRIVATE KEY');
      }
      const dump = (await db.query(`SELECT string_agg(t::text, '') AS all FROM certificate_authorities t`)).rows[0].all as string;
      // No PEM private key of any kind (PKCS#8, PKCS#1, SEC1) may be stored in the clear.
      expect(dump).not.toContain('PRIVATE KEY');
    } finally {
      await db.end();
    }
  });
});
