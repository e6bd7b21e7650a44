import { buildCaCertificate, buildLeafCertificate, type IssuedCertificate, type LeafCertificateRequest } from './certificate-builder';
import { readCertificate } from './certificate-reader';
import { IssuanceError } from './issuer';
import { type CryptoKeyPair, generateKeyPair, type KeySpec } from './key-pair';
import { SubjectAltNameError } from './subject-alt-names';
import { OpensslWorkspace, opensslKeyId, opensslSerial } from './testing/openssl-workspace';
import { createTestHierarchy, TEST_URLS, type TestHierarchy } from './testing/test-pki';

const DAY_MS = 86_400_000;

describe('certificate builder', () => {
  let openssl: OpensslWorkspace;

  beforeAll(() => {
    openssl = new OpensslWorkspace();
  });

  afterAll(() => {
    openssl.dispose();
  });

  function extensions(certificate: IssuedCertificate, names: string): string {
    const file = openssl.write(`ext-${certificate.serialNumber}.pem`, certificate.pem);
    return openssl.ok(['x509', '-in', file, '-noout', '-ext', names]);
  }

  function verify(hierarchy: TestHierarchy, leaf: IssuedCertificate, ...options: string[]) {
    const root = openssl.write(`root-${hierarchy.root.certificate.serialNumber}.pem`, hierarchy.root.certificate.pem);
    const intermediate = openssl.write(
      `int-${hierarchy.intermediate.certificate.serialNumber}.pem`,
      hierarchy.intermediate.certificate.pem,
    );
    const leafFile = openssl.write(`leaf-${leaf.serialNumber}.pem`, leaf.pem);
    return openssl.run(['verify', '-CAfile', root, '-untrusted', intermediate, ...options, leafFile]);
  }

  describe('RSA root → intermediate → leaf', () => {
    let hierarchy: TestHierarchy;
    let leafKeys: CryptoKeyPair;
    let server: IssuedCertificate;
    let client: IssuedCertificate;
    let dual: IssuedCertificate;
    let issuedBetween: [number, number];

    function leaf(overrides: Partial<LeafCertificateRequest>): Promise<IssuedCertificate> {
      return buildLeafCertificate({
        subject: 'CN=www.example.com,O=Example\\, Inc.,C=US',
        publicKey: leafKeys.publicKey,
        issuerCertificate: hierarchy.intermediate.certificate.pem,
        issuerPrivateKey: hierarchy.intermediate.keys.privateKey,
        validDays: 90,
        profile: 'server',
        ...TEST_URLS,
        ...overrides,
      });
    }

    beforeAll(async () => {
      hierarchy = await createTestHierarchy({ type: 'rsa', size: 2048 }, 'RSA');
      leafKeys = await generateKeyPair({ type: 'rsa', size: 2048 });
      const issuing = Date.now();
      server = await leaf({ sans: { dns: ['www.example.com', 'api.example.com'], ip: ['10.0.0.1', '2001:db8::1'] } });
      issuedBetween = [issuing, Date.now()];
      client = await leaf({ subject: 'CN=alice@example.com,O=Example\\, Inc.', profile: 'client', sans: {} });
      dual = await leaf({ subject: 'CN=svc.example.com', profile: 'dual_purpose', sans: { email: ['ops@example.com'] } });
    });

    it('issues a self-signed root: CA:TRUE with pathlen, CA key usages, SKI and no AKI', () => {
      const root = hierarchy.root.certificate;
      const text = openssl.certificateText(root.pem);
      expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE, pathlen:1/);
      expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Certificate Sign, CRL Sign/);
      expect(text).toContain(`X509v3 Subject Key Identifier: \n                ${opensslKeyId(root.subjectKeyIdentifier!)}`);
      expect(text).not.toContain('Authority Key Identifier');
      expect(text).not.toContain('CRL Distribution Points');
      expect(text).toContain('Signature Algorithm: sha256WithRSAEncryption');
      expect(text).toMatch(/Issuer: C = US, O = "Example, Inc.", CN = RSA Root CA/);
      expect(text).toMatch(/Subject: C = US, O = "Example, Inc.", CN = RSA Root CA/);
      const rootFile = openssl.write('rsa-root.pem', root.pem);
      expect(openssl.run(['verify', '-CAfile', rootFile, rootFile]).stdout).toContain(': OK');
      expect(root).toMatchObject({ isCa: true, pathLength: 1, authorityKeyIdentifier: null, subject: root.issuer });
    });

    it('issues an intermediate whose AKI is the root SKI and that carries CDP and AIA', () => {
      const intermediate = hierarchy.intermediate.certificate;
      const text = extensions(intermediate, 'basicConstraints,keyUsage,authorityKeyIdentifier,crlDistributionPoints,authorityInfoAccess');
      expect(text).toMatch(/Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
      expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Certificate Sign, CRL Sign/);
      expect(text).toMatch(new RegExp(`Authority Key Identifier: \\s+${opensslKeyId(hierarchy.root.certificate.subjectKeyIdentifier!)}`));
      expect(text).toContain(`URI:${TEST_URLS.crlDistributionPointUrl}`);
      expect(text).toContain(`CA Issuers - URI:${TEST_URLS.caIssuersUrl}`);
      expect(text).toContain(`OCSP - URI:${TEST_URLS.ocspUrl}`);
      expect(intermediate.issuer).toBe(hierarchy.root.certificate.subject);
      expect(intermediate.authorityKeyIdentifier).toBe(hierarchy.root.certificate.subjectKeyIdentifier);
    });

    it.each([
      ['server', () => server],
      ['client', () => client],
      ['dual_purpose', () => dual],
    ])('chains the %s leaf to the root', (_profile, certificate) => {
      const result = verify(hierarchy, certificate());
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/: OK\n$/);
    });

    it.each<[string, () => IssuedCertificate, boolean, boolean]>([
      ['server', () => server, true, false],
      ['client', () => client, false, true],
      ['dual_purpose', () => dual, true, true],
    ])('makes the %s leaf valid for exactly its purposes', (_profile, certificate, sslServer, sslClient) => {
      const asServer = verify(hierarchy, certificate(), '-purpose', 'sslserver');
      const asClient = verify(hierarchy, certificate(), '-purpose', 'sslclient');
      expect(asServer.status === 0).toBe(sslServer);
      expect(asClient.status === 0).toBe(sslClient);
      for (const refused of [asServer, asClient].filter((result) => result.status !== 0)) {
        expect(refused.output).toContain('unsuitable certificate purpose');
      }
    });

    it('gives the server leaf the end-entity extensions', () => {
      const text = extensions(
        server,
        'basicConstraints,keyUsage,extendedKeyUsage,subjectAltName,authorityKeyIdentifier,subjectKeyIdentifier',
      );
      expect(text).toMatch(/Basic Constraints: critical\s+CA:FALSE/);
      expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Key Encipherment\n/);
      expect(text).toMatch(/Extended Key Usage: \s+TLS Web Server Authentication\n/);
      expect(text).not.toMatch(/Extended Key Usage: critical/);
      expect(text).toMatch(
        /Subject Alternative Name: \s+DNS:www.example.com, DNS:api.example.com, IP Address:10.0.0.1, IP Address:2001:DB8:0:0:0:0:0:1\n/,
      );
      expect(text).not.toMatch(/Subject Alternative Name: critical/);
      expect(text).toMatch(
        new RegExp(`Authority Key Identifier: \\s+${opensslKeyId(hierarchy.intermediate.certificate.subjectKeyIdentifier!)}`),
      );
      expect(text).toMatch(new RegExp(`Subject Key Identifier: \\s+${opensslKeyId(server.subjectKeyIdentifier!)}`));
      expect(server.sans).toEqual({ dns: ['www.example.com', 'api.example.com'], ip: ['10.0.0.1', '2001:db8::1'], email: [] });
    });

    it('points the leaf at the issuer CRL, certificate and OCSP responder', () => {
      const text = extensions(server, 'crlDistributionPoints,authorityInfoAccess');
      expect(text).toMatch(new RegExp(`CRL Distribution Points: \\s+Full Name:\\s+URI:${TEST_URLS.crlDistributionPointUrl}\n`));
      expect(text).toContain(`OCSP - URI:${TEST_URLS.ocspUrl}`);
      expect(text).toContain(`CA Issuers - URI:${TEST_URLS.caIssuersUrl}`);
    });

    it('derives SANs from the common name when none are requested', () => {
      expect(extensions(client, 'subjectAltName,extendedKeyUsage')).toMatch(
        /Extended Key Usage: \s+TLS Web Client Authentication\n[\s\S]*Subject Alternative Name: \s+email:alice@example.com\n/,
      );
      expect(extensions(dual, 'subjectAltName,extendedKeyUsage')).toMatch(
        /Extended Key Usage: \s+TLS Web Server Authentication, TLS Web Client Authentication\n[\s\S]*Subject Alternative Name: \s+DNS:svc.example.com, email:ops@example.com\n/,
      );
    });

    it('adds an IP common name as an IP SAN', async () => {
      const certificate = await leaf({ subject: 'CN=192.168.10.20' });
      expect(extensions(certificate, 'subjectAltName')).toMatch(/Subject Alternative Name: \s+IP Address:192.168.10.20\n/);
      expect(verify(hierarchy, certificate, '-purpose', 'sslserver', '-verify_ip', '192.168.10.20').status).toBe(0);
    });

    it('omits the SAN extension when there is nothing to put in it', async () => {
      const certificate = await leaf({ subject: 'CN=Build Agent 7', profile: 'client' });
      expect(openssl.certificateText(certificate.pem)).not.toContain('Subject Alternative Name');
      expect(certificate.sans).toEqual({ dns: [], ip: [], email: [] });
    });

    it('matches the hostname checks OpenSSL applies to the SANs', () => {
      expect(verify(hierarchy, server, '-verify_hostname', 'api.example.com').status).toBe(0);
      expect(verify(hierarchy, server, '-verify_ip', '2001:db8::1').status).toBe(0);
      expect(verify(hierarchy, server, '-verify_hostname', 'other.example.com').output).toContain('hostname mismatch');
    });

    it('encodes the serial number OpenSSL reads back, as a positive minimal INTEGER', () => {
      for (const certificate of [hierarchy.root.certificate, hierarchy.intermediate.certificate, server, client, dual]) {
        const file = openssl.write(`serial-${certificate.serialNumber}.pem`, certificate.pem);
        expect(openssl.ok(['x509', '-in', file, '-noout', '-serial'])).toBe(`serial=${opensslSerial(certificate.serialNumber)}\n`);
        expect(certificate.serialNumber).toMatch(/^[1-9a-f][0-9a-f]*$/);
      }
      const serials = new Set(
        [hierarchy.root.certificate, hierarchy.intermediate.certificate, server, client, dual].map(({ serialNumber }) => serialNumber),
      );
      expect(serials.size).toBe(5);
    });

    it('backdates notBefore by a minute and ends validity exactly validDays later', () => {
      const file = openssl.write('dates.pem', server.pem);
      const [, notBefore, notAfter] = /notBefore=(.*)\nnotAfter=(.*)\n/.exec(openssl.ok(['x509', '-in', file, '-noout', '-dates']))!;
      expect(new Date(notBefore).getTime()).toBe(server.notBefore.getTime());
      expect(new Date(notAfter).getTime()).toBe(server.notAfter.getTime());
      expect(server.notAfter.getTime() - server.notBefore.getTime()).toBe(90 * DAY_MS);
      // Now, truncated to the second, minus a minute: bounded by the clock read around the issuance.
      expect(server.notBefore.getTime()).toBeGreaterThanOrEqual(Math.floor(issuedBetween[0] / 1000) * 1000 - 60_000);
      expect(server.notBefore.getTime()).toBeLessThanOrEqual(issuedBetween[1] - 60_000);
    });

    it('ends a leaf or sub-CA at the issuer’s notAfter when validDays reaches past it', async () => {
      const issuerNotAfter = hierarchy.intermediate.certificate.notAfter.getTime();
      const longLeaf = await leaf({ validDays: 36_500 });
      expect(longLeaf.notAfter.getTime()).toBe(issuerNotAfter);
      expect(verify(hierarchy, longLeaf).status).toBe(0);
      const subCa = await buildCaCertificate({
        subject: 'CN=Long Sub CA',
        publicKey: leafKeys.publicKey,
        signingKey: hierarchy.root.keys.privateKey,
        issuer: hierarchy.root.certificate.pem,
        validDays: 36_500,
        pathLength: 0,
      });
      expect(subCa.notAfter.getTime()).toBe(hierarchy.root.certificate.notAfter.getTime());
    });

    it('reports the same fields readCertificate reads from the PEM', () => {
      const { pem, der, ...fields } = server;
      expect(readCertificate(pem)).toEqual(fields);
      expect(readCertificate(der)).toEqual(fields);
      expect(fields.subject).toBe('CN=www.example.com,O=Example\\, Inc.,C=US');
      expect(fields.issuer).toBe(hierarchy.intermediate.certificate.subject);
    });

    it('keeps non-ASCII subjects intact', async () => {
      const certificate = await leaf({ subject: { CN: 'zoe.example.com', O: 'Zoë Ünïcødé GmbH', L: 'Zürich', C: 'ch' } });
      const file = openssl.write('utf8.pem', certificate.pem);
      expect(openssl.ok(['x509', '-in', file, '-noout', '-subject', '-nameopt', 'utf8,sep_comma_plus'])).toBe(
        'subject=C=CH,L=Zürich,O=Zoë Ünïcødé GmbH,CN=zoe.example.com\n',
      );
      expect(certificate.subject).toBe('CN=zoe.example.com,O=Zoë Ünïcødé GmbH,L=Zürich,C=CH');
      expect(verify(hierarchy, certificate).status).toBe(0);
    });

    describe('refuses', () => {
      async function rejection(action: Promise<unknown>): Promise<{ code: string; message: string }> {
        const error = await action.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(Error);
        return error as { code: string; message: string };
      }

      it('to sign with a certificate that is not a CA', async () => {
        const error = await rejection(leaf({ issuerCertificate: server.pem, issuerPrivateKey: leafKeys.privateKey }));
        expect(error).toBeInstanceOf(IssuanceError);
        expect(error.code).toBe('issuer_not_ca');
      });

      it('to sign a CA certificate under an issuer with pathLen 0', async () => {
        const keys = await generateKeyPair({ type: 'ec', curve: 'P-256' });
        const error = await rejection(
          buildCaCertificate({
            subject: 'CN=Too Deep CA',
            publicKey: keys.publicKey,
            signingKey: hierarchy.intermediate.keys.privateKey,
            issuer: hierarchy.intermediate.certificate.pem,
            validDays: 365,
            pathLength: null,
          }),
        );
        expect(error.code).toBe('issuer_path_length_exhausted');
      });

      it('to sign with a key that does not belong to the issuer', async () => {
        const error = await rejection(leaf({ issuerPrivateKey: hierarchy.root.keys.privateKey }));
        expect(error.code).toBe('issuer_key_mismatch');
      });

      it('a self-signed root whose signing key does not match its public key', async () => {
        const error = await rejection(
          buildCaCertificate({
            subject: 'CN=Mismatched Root',
            publicKey: leafKeys.publicKey,
            signingKey: hierarchy.root.keys.privateKey,
            issuer: null,
            validDays: 365,
            pathLength: null,
          }),
        );
        expect(error.code).toBe('issuer_key_mismatch');
      });

      it('issuer URLs on a self-signed root', async () => {
        const error = await rejection(
          buildCaCertificate({
            subject: 'CN=Root',
            publicKey: hierarchy.root.keys.publicKey,
            signingKey: hierarchy.root.keys.privateKey,
            issuer: null,
            validDays: 365,
            pathLength: null,
            crlDistributionPointUrl: 'http://pki.example.test/crl',
          }),
        );
        expect(error.code).toBe('root_cannot_have_issuer_urls');
      });

      it.each([0, -1, 1.5, 36_526])('validDays %p', async (validDays) => {
        expect((await rejection(leaf({ validDays }))).code).toBe('invalid_validity');
      });

      it.each([-1, 0.5])('pathLength %p', async (pathLength) => {
        const error = await rejection(
          buildCaCertificate({
            subject: 'CN=Root',
            publicKey: hierarchy.root.keys.publicKey,
            signingKey: hierarchy.root.keys.privateKey,
            issuer: null,
            validDays: 365,
            pathLength,
          }),
        );
        expect(error.code).toBe('invalid_path_length');
      });

      it.each(['not a url', 'ftp://pki.example.test/crl', 'http://pki.example.test/crl/ü'])('the URL %p', async (url) => {
        expect((await rejection(leaf({ crlDistributionPointUrl: url }))).code).toBe('invalid_url');
      });

      it('SANs the profile forbids', async () => {
        const error = await rejection(leaf({ sans: { email: ['ops@example.com'] } }));
        expect(error).toBeInstanceOf(SubjectAltNameError);
        expect(error.code).toBe('san_type_not_allowed');
      });

      it('an invalid subject', async () => {
        expect((await rejection(leaf({ subject: 'CN=x,C=USA' }))).code).toBe('invalid_distinguished_name');
      });
    });
  });

  describe.each<[string, KeySpec, string, RegExp]>([
    ['EC P-256', { type: 'ec', curve: 'P-256' }, 'ecdsa-with-SHA256', /Key Usage: critical\s+Digital Signature\n/],
    ['Ed25519', { type: 'ed25519' }, 'ED25519', /Key Usage: critical\s+Digital Signature\n/],
  ])('%s root → intermediate → leaf', (label, spec, signatureAlgorithm, keyUsage) => {
    let hierarchy: TestHierarchy;
    let server: IssuedCertificate;

    beforeAll(async () => {
      hierarchy = await createTestHierarchy(spec, label);
      const keys = await generateKeyPair(spec);
      server = await buildLeafCertificate({
        subject: 'CN=ec.example.com',
        publicKey: keys.publicKey,
        issuerCertificate: hierarchy.intermediate.certificate.pem,
        issuerPrivateKey: hierarchy.intermediate.keys.privateKey,
        validDays: 30,
        profile: 'server',
        ...TEST_URLS,
      });
    });

    it('verifies with OpenSSL as a TLS server certificate', () => {
      const result = verify(hierarchy, server, '-purpose', 'sslserver');
      expect(result.stdout).toMatch(/: OK\n$/);
      expect(verify(hierarchy, server, '-purpose', 'sslclient').status).not.toBe(0);
    });

    it(`signs every level with ${signatureAlgorithm} and leaves out keyEncipherment`, () => {
      for (const certificate of [hierarchy.root.certificate, hierarchy.intermediate.certificate, server]) {
        expect(openssl.certificateText(certificate.pem)).toContain(`Signature Algorithm: ${signatureAlgorithm}`);
      }
      expect(extensions(server, 'keyUsage')).toMatch(keyUsage);
      expect(server.sans.dns).toEqual(['ec.example.com']);
    });
  });

  it('signs with ECDSA SHA-384 when the issuer key is on P-384', async () => {
    const keys = await generateKeyPair({ type: 'ec', curve: 'P-384' });
    const root = await buildCaCertificate({
      subject: { CN: 'P-384 Root' },
      publicKey: keys.publicKey,
      signingKey: keys.privateKey,
      issuer: null,
      validDays: 365,
      pathLength: null,
    });
    const text = openssl.certificateText(root.pem);
    expect(text).toContain('Signature Algorithm: ecdsa-with-SHA384');
    expect(text).toMatch(/Basic Constraints: critical\s+CA:TRUE\n/);
    const file = openssl.write('p384-root.pem', root.pem);
    expect(openssl.ok(['verify', '-CAfile', file, file])).toContain(': OK');
  });
});
