import { buildLeafCertificate } from './certificate-builder';
import { InvalidCsrError, parseCsr } from './csr';
import { encodePem } from './pem';
import { OpensslWorkspace } from './testing/openssl-workspace';
import { referenceParseCsr } from './testing/reference-engine';
import { createTestHierarchy, type TestHierarchy } from './testing/test-pki';

describe('parseCsr', () => {
  let openssl: OpensslWorkspace;
  let hierarchy: TestHierarchy;
  let csrCount = 0;

  /** Runs `openssl req -new` with a fresh key and returns the PEM request. */
  function opensslCsr(keyArgs: string[], subject: string, ...extra: string[]): string {
    const name = `request-${csrCount++}`;
    openssl.ok(['req', '-new', ...keyArgs, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject, ...extra]);
    return openssl.read(`${name}.csr`);
  }

  async function csrError(pem: string): Promise<InvalidCsrError> {
    const error = await parseCsr(pem).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidCsrError);
    return error as InvalidCsrError;
  }

  /** Flips the last byte of the DER, which lies inside the signature value. */
  function tamperSignature(pem: string): string {
    const der = new Uint8Array(Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
    der[der.length - 1] ^= 0x01;
    return encodePem(der, 'CERTIFICATE REQUEST');
  }

  beforeAll(async () => {
    openssl = new OpensslWorkspace();
    hierarchy = await createTestHierarchy({ type: 'ec', curve: 'P-256' }, 'CSR');
  });

  afterAll(() => {
    openssl.dispose();
  });

  it('reads an OpenSSL RSA 2048 request with subject and SANs', async () => {
    const pem = opensslCsr(
      ['-newkey', 'rsa:2048'],
      '/C=US/ST=California/L=San Francisco/O=Acme, Inc./OU=Web/CN=a.example.com',
      '-addext',
      'subjectAltName=DNS:a.example.com,DNS:b.example.com,IP:10.0.0.1,IP:2001:db8:0:0:0:0:0:1',
    );
    const csr = await parseCsr(pem);
    expect(csr.subject).toBe('CN=a.example.com,OU=Web,O=Acme\\, Inc.,L=San Francisco,ST=California,C=US');
    expect(csr.subjectName.rdns.map((rdn) => rdn.map(({ key }) => key).join('+'))).toEqual(['C', 'ST', 'L', 'O', 'OU', 'CN']);
    expect(csr.sans).toEqual({ dns: ['a.example.com', 'b.example.com'], ip: ['10.0.0.1', '2001:db8::1'], email: [] });
    expect(csr.keyAlgorithm).toEqual({ type: 'rsa', size: 2048 });
    expect(csr.keyAlgorithmName).toBe('RSA 2048');
  });

  it('reads a request with an empty subject and SANs only, as ACME clients send', async () => {
    const pem = opensslCsr(['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'], '/', '-addext', 'subjectAltName=DNS:a.example.com');
    const csr = await parseCsr(pem);
    expect(csr.subjectName).toEqual({ rdns: [] });
    expect(csr.subject).toBe('');
    expect(csr.sans).toEqual({ dns: ['a.example.com'], ip: [], email: [] });
  });

  it.each<[string, string[], object, string]>([
    ['EC P-256', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'], { type: 'ec', curve: 'P-256' }, 'EC P-256'],
    ['EC P-384', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], { type: 'ec', curve: 'P-384' }, 'EC P-384'],
    ['Ed25519', ['-newkey', 'ed25519'], { type: 'ed25519' }, 'Ed25519'],
  ])('reads an OpenSSL %s request', async (_label, keyArgs, keyAlgorithm, keyAlgorithmName) => {
    const pem = opensslCsr(keyArgs, '/CN=Zoë Device/O=Zürich Labs', '-addext', 'subjectAltName=email:zoe@example.com', '-utf8');
    const csr = await parseCsr(pem);
    expect(csr.subjectName).toEqual({ rdns: [[{ key: 'CN', value: 'Zoë Device' }], [{ key: 'O', value: 'Zürich Labs' }]] });
    expect(csr.subject).toBe('O=Zürich Labs,CN=Zoë Device');
    expect(csr.sans).toEqual({ dns: [], ip: [], email: ['zoe@example.com'] });
    expect(csr.keyAlgorithm).toEqual(keyAlgorithm);
    expect(csr.keyAlgorithmName).toBe(keyAlgorithmName);
  });

  it.each<[string, string[]]>([
    ['RSA', ['-newkey', 'rsa:2048']],
    ['EC', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']],
    ['Ed25519', ['-newkey', 'ed25519']],
  ])('issues a certificate for the key of an %s request', async (label, keyArgs) => {
    const pem = opensslCsr(keyArgs, `/CN=${label.toLowerCase()}.example.com`, '-addext', 'subjectAltName=DNS:alt.example.com,IP:10.1.2.3');
    const csr = await parseCsr(pem);
    const certificate = await buildLeafCertificate({
      subject: csr.subjectName,
      publicKey: csr.publicKey,
      issuerCertificate: hierarchy.intermediate.certificate.pem,
      issuerPrivateKey: hierarchy.intermediate.keys.privateKey,
      validDays: 30,
      profile: 'server',
      sans: csr.sans,
    });
    const files = {
      root: openssl.write('root.pem', hierarchy.root.certificate.pem),
      intermediate: openssl.write('intermediate.pem', hierarchy.intermediate.certificate.pem),
      leaf: openssl.write(`signed-${label}.pem`, certificate.pem),
      csr: openssl.write(`signed-${label}.csr`, pem),
    };
    expect(openssl.ok(['verify', '-CAfile', files.root, '-untrusted', files.intermediate, '-purpose', 'sslserver', files.leaf])).toMatch(
      /: OK\n$/,
    );
    // The certificate certifies exactly the key the requester holds.
    expect(openssl.ok(['x509', '-in', files.leaf, '-noout', '-pubkey'])).toBe(openssl.ok(['req', '-in', files.csr, '-noout', '-pubkey']));
    expect(certificate.sans).toEqual({ dns: ['alt.example.com'], ip: ['10.1.2.3'], email: [] });
    expect(certificate.subject).toBe(`CN=${label.toLowerCase()}.example.com`);
  });

  it.each<[string, string[]]>([
    ['RSA', ['-newkey', 'rsa:2048']],
    ['EC', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']],
    ['Ed25519', ['-newkey', 'ed25519']],
  ])('rejects an %s request whose signature was tampered with', async (_label, keyArgs) => {
    const tampered = tamperSignature(opensslCsr(keyArgs, '/CN=tampered.example.com'));
    openssl.write('tampered.csr', tampered);
    // OpenSSL 3.0 exits 0 here and reports the failure in its output.
    expect(openssl.run(['req', '-in', 'tampered.csr', '-noout', '-verify']).output).toContain('self-signature verify failure');
    const error = await csrError(tampered);
    expect(error.code).toBe('csr_signature_invalid');
    expect(error.message).toBe('CSR signature verification failed');
  });

  it.each<[string, string]>([
    ['garbage', 'this is not a CSR'],
    ['an empty string', ''],
    ['a certificate', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'],
    ['broken base64', '-----BEGIN CERTIFICATE REQUEST-----\n!!!!\n-----END CERTIFICATE REQUEST-----\n'],
    ['a non-PKCS#10 body', encodePem(Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x01), 'CERTIFICATE REQUEST')],
  ])('rejects %s as invalid', async (_label, pem) => {
    const error = await csrError(pem);
    expect(error.code).toBe('invalid_csr');
    expect(error.message).toMatch(/^Invalid CSR: /);
  });

  it('rejects a certificate passed as a CSR', async () => {
    const error = await csrError(hierarchy.root.certificate.pem);
    expect(error.code).toBe('invalid_csr');
    expect(error.message).toMatch(/^Invalid CSR: Expected a PEM block labelled "CERTIFICATE REQUEST"/);
  });

  it.each<[string, string[], string, string[], RegExp]>([
    ['an unsupported curve', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-521'], '/CN=x', [], /Unsupported EC curve secp521r1/],
    ['a short RSA key', ['-newkey', 'rsa:1024'], '/CN=x', [], /RSA key size 1024 is below the minimum/],
    [
      'an unsupported subject attribute',
      ['-newkey', 'ed25519'],
      '/CN=x/emailAddress=x@example.com',
      [],
      /subject: Unsupported distinguished name attribute "E"/,
    ],
    [
      'a country that is not two letters',
      ['-newkey', 'ed25519'],
      '/C=1A/CN=x',
      [],
      /subject: Country \(C\) must be exactly 2 letters.*"1A"/,
    ],
    [
      'a URI SAN',
      ['-newkey', 'ed25519'],
      '/CN=x',
      ['-addext', 'subjectAltName=URI:https://example.com'],
      /unsupported subjectAltName entries url:https:\/\/example.com/,
    ],
  ])('rejects a request with %s', async (_label, keyArgs, subject, extra, message) => {
    const error = await csrError(opensslCsr(keyArgs, subject, ...extra));
    expect(error.code).toBe('invalid_csr');
    expect(error.message).toMatch(/^Invalid CSR: /);
    expect(error.message).toMatch(message);
  });

  describe('signature algorithms', () => {
    const keys = { rsa: 'rsa.key', p256: 'p256.key', p384: 'p384.key' };

    beforeAll(() => {
      openssl.ok(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', keys.rsa]);
      openssl.ok(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', keys.p256]);
      openssl.ok(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384', '-out', keys.p384]);
    });

    // What the @peculiar/x509 engine accepted: SHA-1 and SHA-2 (not SHA-224), PSS only with MGF1 over the same hash.
    it.each<[string, keyof typeof keys, string[], 'accepted' | 'csr_signature_invalid']>([
      ['RSA SHA-1', 'rsa', ['-sha1'], 'accepted'],
      ['RSA SHA-224', 'rsa', ['-sha224'], 'csr_signature_invalid'],
      ['RSA SHA-384', 'rsa', ['-sha384'], 'accepted'],
      ['RSA SHA-512', 'rsa', ['-sha512'], 'accepted'],
      ['RSA-PSS SHA-256', 'rsa', ['-sha256', '-sigopt', 'rsa_padding_mode:pss'], 'accepted'],
      ['RSA-PSS SHA-512 salt 20', 'rsa', ['-sha512', '-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:20'], 'accepted'],
      [
        'RSA-PSS SHA-256 with MGF1-SHA-1',
        'rsa',
        ['-sha256', '-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_mgf1_md:sha1'],
        'csr_signature_invalid',
      ],
      ['P-256 with SHA-384', 'p256', ['-sha384'], 'accepted'],
      ['P-256 with SHA-1', 'p256', ['-sha1'], 'accepted'],
      ['P-384 with SHA-256', 'p384', ['-sha256'], 'accepted'],
      ['P-384 with SHA-224', 'p384', ['-sha224'], 'csr_signature_invalid'],
    ])('%s (%s key, openssl %j): %s, as with the reference engine', async (label, key, options, expected) => {
      const file = `${label.replace(/\W+/g, '-')}.csr`;
      openssl.ok(['req', '-new', '-key', keys[key], '-subj', '/CN=algorithms.example.com', ...options, '-out', file]);
      const pem = openssl.read(file);
      const outcome = (promise: Promise<unknown>) =>
        promise.then(
          () => 'accepted',
          (error: InvalidCsrError) => error.code,
        );
      expect(await outcome(parseCsr(pem))).toBe(expected);
      expect(await outcome(referenceParseCsr(pem))).toBe(expected);
    });
  });

  it.each<[string, (der: Buffer) => Buffer]>([
    ['trailing data', (der) => Buffer.concat([der, Buffer.of(0)])],
    ['an indefinite length', (der) => Buffer.concat([Buffer.of(0x30, 0x80), der.subarray(3), Buffer.of(0, 0)])],
    ['a length in more octets than needed', (der) => Buffer.concat([Buffer.of(0x30, 0x82, 0x00), der.subarray(2)])],
    ['a truncated body', (der) => der.subarray(0, der.length - 10)],
  ])('rejects a request with %s as malformed DER', async (_label, mangle) => {
    const der = Buffer.from(opensslCsr(['-newkey', 'ed25519'], '/CN=der.example.com').replace(/-----[^-]+-----|\s/g, ''), 'base64');
    // An Ed25519 request is between 128 and 255 octets long: its length is one octet in the long form.
    expect(der.subarray(0, 2)).toEqual(Buffer.of(0x30, 0x81));
    const error = await csrError(encodePem(mangle(der), 'CERTIFICATE REQUEST'));
    expect(error.code).toBe('invalid_csr');
    expect(error.message).toMatch(/^Invalid CSR: not a PKCS#10 certification request \(/);
  });

  it('keeps the requested SubjectPublicKeyInfo bytes', async () => {
    const pem = opensslCsr(['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], '/CN=spki.example.com');
    openssl.write('spki.csr', pem);
    const spki = Buffer.from(openssl.ok(['req', '-in', 'spki.csr', '-noout', '-pubkey']).replace(/-----[^-]+-----|\s/g, ''), 'base64');
    expect(Buffer.from((await parseCsr(pem)).publicKey.der)).toEqual(spki);
  });
});
