import { InvalidCertificateError, readCertificate } from './certificate-reader';
import {
  certificateDerToPem,
  certificatePemToDer,
  concatenatePemChain,
  decodePem,
  encodePem,
  InvalidPemError,
  sha256Fingerprint,
  splitPemChain,
} from './pem';
import { OpensslWorkspace, opensslKeyId, opensslSerial } from './testing/openssl-workspace';
import { createTestHierarchy, type TestHierarchy } from './testing/test-pki';

describe('PEM and certificate reading', () => {
  let openssl: OpensslWorkspace;
  let hierarchy: TestHierarchy;

  beforeAll(async () => {
    openssl = new OpensslWorkspace();
    hierarchy = await createTestHierarchy({ type: 'ed25519' }, 'PEM');
  });

  afterAll(() => {
    openssl.dispose();
  });

  it('converts PEM to DER and back, matching OpenSSL', () => {
    const { pem } = hierarchy.root.certificate;
    const der = certificatePemToDer(pem);
    const file = openssl.write('root.pem', pem);
    openssl.ok(['x509', '-in', file, '-outform', 'DER', '-out', openssl.path('root.der')]);
    expect(Buffer.from(der)).toEqual(Buffer.from(openssl.ok(['base64', '-A', '-in', openssl.path('root.der')]), 'base64'));
    expect(certificateDerToPem(der)).toBe(pem);
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n(?:[A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE-----\n$/);
  });

  it('accepts CRLF line endings and text around the PEM block', () => {
    const { pem } = hierarchy.root.certificate;
    const noisy = `Subject: whatever\r\n${pem.replace(/\n/g, '\r\n')}trailing text`;
    expect(certificatePemToDer(noisy)).toEqual(certificatePemToDer(pem));
  });

  it('concatenates and splits chains that OpenSSL reads in full', () => {
    const chain = concatenatePemChain([hierarchy.intermediate.certificate.pem, hierarchy.root.certificate.der]);
    expect(chain).toBe(hierarchy.intermediate.certificate.pem + hierarchy.root.certificate.pem);
    expect(splitPemChain(chain)).toEqual([hierarchy.intermediate.certificate.pem, hierarchy.root.certificate.pem]);
    expect(openssl.ok(['storeutl', '-noout', '-certs', openssl.write('chain.pem', chain)])).toContain('Total found: 2');
  });

  it('computes the SHA-256 fingerprint OpenSSL computes', () => {
    const { pem } = hierarchy.intermediate.certificate;
    const file = openssl.write('fingerprint.pem', pem);
    const printed = openssl.ok(['x509', '-in', file, '-noout', '-fingerprint', '-sha256']);
    expect(printed).toBe(`sha256 Fingerprint=${opensslKeyId(sha256Fingerprint(pem))}\n`);
    expect(sha256Fingerprint(certificatePemToDer(pem))).toBe(sha256Fingerprint(pem));
  });

  it('reads the fields OpenSSL reports', () => {
    const { pem } = hierarchy.intermediate.certificate;
    const info = readCertificate(pem);
    const file = openssl.write('fields.pem', pem);
    const printed = openssl.ok([
      'x509',
      '-in',
      file,
      '-noout',
      '-serial',
      '-startdate',
      '-enddate',
      '-subject',
      '-issuer',
      '-nameopt',
      'RFC2253',
    ]);
    expect(printed).toContain(`serial=${opensslSerial(info.serialNumber)}\n`);
    expect(printed).toContain(`subject=${info.subject}\n`);
    expect(printed).toContain(`issuer=${info.issuer}\n`);
    const [, notBefore] = /notBefore=(.*)\n/.exec(printed)!;
    const [, notAfter] = /notAfter=(.*)\n/.exec(printed)!;
    expect(info.notBefore).toEqual(new Date(notBefore));
    expect(info.notAfter).toEqual(new Date(notAfter));
    expect(openssl.ok(['x509', '-in', file, '-noout', '-ext', 'subjectKeyIdentifier'])).toContain(opensslKeyId(info.subjectKeyIdentifier!));
    expect(info).toMatchObject({
      subject: 'CN=PEM Issuing CA,OU=PKI,O=Example\\, Inc.,C=US',
      issuer: 'CN=PEM Root CA,O=Example\\, Inc.,C=US',
      commonName: 'PEM Issuing CA',
      isCa: true,
      pathLength: 0,
      authorityKeyIdentifier: hierarchy.root.certificate.subjectKeyIdentifier,
    });
  });

  it('reads certificates issued elsewhere, attributes and SANs it does not model included', () => {
    openssl.ok([
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      openssl.path('foreign.key'),
      '-out',
      openssl.path('foreign.pem'),
      '-days',
      '1',
      '-subj',
      '/DC=test/CN=foreign.example.com/emailAddress=admin@example.com',
      '-addext',
      'subjectAltName=DNS:foreign.example.com,IP:::1,URI:https://example.com,email:admin@example.com',
    ]);
    const info = readCertificate(openssl.read('foreign.pem'));
    expect(info.subject).toBe('E=admin@example.com,CN=foreign.example.com,DC=test');
    expect(info.commonName).toBe('foreign.example.com');
    expect(info.sans).toEqual({ dns: ['foreign.example.com'], ip: ['::1'], email: ['admin@example.com'] });
  });

  it.each<[string, string, RegExp]>([
    ['no PEM block', 'hello', /No PEM block found/],
    ['a different label', encodePem(new Uint8Array(3), 'PRIVATE KEY'), /Expected a PEM block labelled "CERTIFICATE", found PRIVATE KEY/],
    ['mismatched BEGIN and END', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END X509 CRL-----\n', /closed by "END X509 CRL"/],
    ['invalid base64', '-----BEGIN CERTIFICATE-----\nAA*A\n-----END CERTIFICATE-----\n', /does not contain valid base64/],
    ['an empty body', '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n', /does not contain valid base64/],
  ])('rejects %s', (_label, pem, message) => {
    expect(() => certificatePemToDer(pem)).toThrow(InvalidPemError);
    expect(() => certificatePemToDer(pem)).toThrow(message);
  });

  it('rejects a PEM block that is not a certificate', () => {
    const pem = encodePem(Uint8Array.of(0x30, 0x00), 'CERTIFICATE');
    expect(() => readCertificate(pem)).toThrow(InvalidCertificateError);
    expect(() => readCertificate('garbage')).toThrow(/^Invalid certificate: No PEM block found$/);
  });

  it('selects among several accepted labels', () => {
    const pem = encodePem(Uint8Array.of(1, 2, 3), 'NEW CERTIFICATE REQUEST');
    expect([...decodePem(pem, ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST'])]).toEqual([1, 2, 3]);
  });
});
