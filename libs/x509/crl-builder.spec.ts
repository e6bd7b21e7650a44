import { buildCaCertificate, buildLeafCertificate, type IssuedCertificate } from './certificate-builder';
import { buildCrl, type BuiltCrl, crlDerToPem, crlPemToDer, type CrlRequest, revocationReasonCode } from './crl-builder';
import { IssuanceError } from './issuer';
import { generateKeyPair, type KeySpec } from './key-pair';
import { InvalidSerialNumberError } from './serial-number';
import { OpensslWorkspace, opensslKeyId, opensslSerial } from './testing/openssl-workspace';
import { createTestHierarchy, type TestHierarchy } from './testing/test-pki';

const HOUR_MS = 3_600_000;

describe('revocationReasonCode', () => {
  it.each<[string | null | undefined, number | null]>([
    ['unspecified', 0],
    ['keyCompromise', 1],
    ['cACompromise', 2],
    ['affiliationChanged', 3],
    ['superseded', 4],
    ['cessationOfOperation', 5],
    ['certificateHold', 6],
    ['privilegeWithdrawn', 9],
    ['aACompromise', 10],
    ['key_compromise', 1],
    ['Key Compromise', 1],
    ['CESSATION-OF-OPERATION', 5],
    ['removeFromCRL', 0],
    ['laptop stolen', 0],
    ['', 0],
    [null, null],
    [undefined, null],
  ])('maps %p to %p', (reason, code) => {
    expect(revocationReasonCode(reason)).toBe(code);
  });
});

describe.each<[string, KeySpec]>([
  ['RSA', { type: 'rsa', size: 2048 }],
  ['EC P-256', { type: 'ec', curve: 'P-256' }],
])('buildCrl with an %s issuer', (label, spec) => {
  let openssl: OpensslWorkspace;
  let hierarchy: TestHierarchy;
  let revoked: IssuedCertificate;
  let revokedWithoutCode: IssuedCertificate;
  let good: IssuedCertificate;
  let crl: BuiltCrl;
  const thisUpdate = new Date(Date.now() - HOUR_MS);
  const nextUpdate = new Date(Date.now() + 24 * HOUR_MS);
  const files = { root: '', intermediate: '', crl: '' };

  function request(overrides: Partial<CrlRequest>): CrlRequest {
    return {
      issuerCertificate: hierarchy.intermediate.certificate.pem,
      issuerPrivateKey: hierarchy.intermediate.keys.privateKey,
      entries: [],
      thisUpdate,
      nextUpdate,
      crlNumber: 1,
      ...overrides,
    };
  }

  function verifyLeaf(leaf: IssuedCertificate, crlFile = files.crl) {
    const leafFile = openssl.write(`leaf-${leaf.serialNumber}.pem`, leaf.pem);
    return openssl.run(['verify', '-crl_check', '-CRLfile', crlFile, '-CAfile', files.root, '-untrusted', files.intermediate, leafFile]);
  }

  beforeAll(async () => {
    openssl = new OpensslWorkspace();
    hierarchy = await createTestHierarchy(spec, `CRL ${label}`);
    const leafKeys = await generateKeyPair({ type: 'ec', curve: 'P-256' });
    const issue = (commonName: string) =>
      buildLeafCertificate({
        subject: { CN: commonName },
        publicKey: leafKeys.publicKey,
        issuerCertificate: hierarchy.intermediate.certificate.pem,
        issuerPrivateKey: hierarchy.intermediate.keys.privateKey,
        validDays: 30,
        profile: 'server',
      });
    revoked = await issue('revoked.example.com');
    revokedWithoutCode = await issue('retired.example.com');
    good = await issue('good.example.com');
    crl = await buildCrl(
      request({
        crlNumber: 42,
        entries: [
          { serialHex: revoked.serialNumber, revokedAt: new Date(Date.now() - 30 * 60_000), reason: 'keyCompromise' },
          { serialHex: revokedWithoutCode.serialNumber.toUpperCase(), revokedAt: new Date(Date.now() - 20 * 60_000), reason: null },
          { serialHex: '80ab', revokedAt: new Date(Date.now() - 10 * 60_000), reason: 'retired by operator' },
          { serialHex: '0c', revokedAt: new Date(Date.now() - 5 * 60_000), reason: 'cessation_of_operation' },
        ],
      }),
    );
    files.root = openssl.write('root.pem', hierarchy.root.certificate.pem);
    files.intermediate = openssl.write('intermediate.pem', hierarchy.intermediate.certificate.pem);
    files.crl = openssl.write('crl.pem', crl.pem);
  });

  afterAll(() => {
    openssl.dispose();
  });

  it('produces a CRL whose signature OpenSSL verifies against the issuer', () => {
    expect(crl.pem).toMatch(/^-----BEGIN X509 CRL-----\n[\s\S]+\n-----END X509 CRL-----\n$/);
    const result = openssl.run(['crl', '-in', files.crl, '-verify', '-CAfile', files.intermediate, '-noout']);
    expect(result.status).toBe(0);
    expect(result.output).toContain('verify OK');
  });

  it('is a v2 CRL with the CRL number, AKI, validity window and revoked serials with reasons', () => {
    const text = openssl.ok(['crl', '-in', files.crl, '-noout', '-text']);
    expect(text).toContain('Version 2 (0x1)');
    expect(text).toMatch(/X509v3 CRL Number: \s+42\n/);
    const intermediateKeyId = opensslKeyId(hierarchy.intermediate.certificate.subjectKeyIdentifier!);
    expect(text).toMatch(new RegExp(`X509v3 Authority Key Identifier: \\s+${intermediateKeyId}\n`));
    expect(text).toMatch(/Issuer: C = US, O = "Example, Inc.", OU = PKI, CN = CRL .* Issuing CA/);

    const entries = text.split('Serial Number: ').slice(1);
    expect(entries).toHaveLength(4);
    const entryFor = (serial: string) => entries.find((entry) => entry.startsWith(`${opensslSerial(serial)}\n`))!;
    expect(entryFor(revoked.serialNumber)).toMatch(/CRL Reason Code: \s+Key Compromise/);
    expect(entryFor(revokedWithoutCode.serialNumber)).not.toContain('CRL Reason Code');
    expect(entryFor('80AB')).toMatch(/CRL Reason Code: \s+Unspecified/);
    expect(entryFor('0C')).toMatch(/CRL Reason Code: \s+Cessation Of Operation/);

    const dates = openssl.ok(['crl', '-in', files.crl, '-noout', '-lastupdate', '-nextupdate']);
    const [, last, next] = /lastUpdate=(.*)\nnextUpdate=(.*)\n/.exec(dates)!;
    expect(new Date(last).getTime()).toBe(Math.floor(thisUpdate.getTime() / 1000) * 1000);
    expect(new Date(next).getTime()).toBe(Math.floor(nextUpdate.getTime() / 1000) * 1000);
    expect(crl.thisUpdate.getTime()).toBe(new Date(last).getTime());
    expect(crl.crlNumber).toBe(42n);
  });

  it('encodes serials with the top bit set as positive integers', () => {
    const asn1 = openssl.ok(['asn1parse', '-in', files.crl]);
    expect(asn1).toContain('INTEGER           :80AB');
    expect(asn1).not.toMatch(/INTEGER\s+:-/);
  });

  it('makes OpenSSL reject revoked certificates and accept the others', () => {
    for (const leaf of [revoked, revokedWithoutCode]) {
      const result = verifyLeaf(leaf);
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/error 23 at 0 depth lookup: certificate revoked/);
    }
    const result = verifyLeaf(good);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/: OK\n$/);
  });

  it('builds an empty CRL that still validates', async () => {
    const empty = await buildCrl(request({ crlNumber: 0 }));
    const file = openssl.write('empty.pem', empty.pem);
    const text = openssl.ok(['crl', '-in', file, '-noout', '-text']);
    expect(text).toContain('No Revoked Certificates.');
    expect(text).toMatch(/X509v3 CRL Number: \s+0\n/);
    expect(openssl.run(['crl', '-in', file, '-verify', '-CAfile', files.intermediate, '-noout']).output).toContain('verify OK');
    expect(verifyLeaf(revoked, file).status).toBe(0);
  });

  it('encodes large CRL numbers', async () => {
    const large = await buildCrl(request({ crlNumber: 2n ** 100n }));
    const file = openssl.write('large.pem', large.pem);
    expect(openssl.ok(['crl', '-in', file, '-noout', '-crlnumber'])).toBe(`crlNumber=0x${(2n ** 100n).toString(16).toUpperCase()}\n`);
  });

  it('converts between PEM and DER', () => {
    expect(crlDerToPem(crlPemToDer(crl.pem))).toBe(crl.pem);
    expect(crlPemToDer(crl.pem)).toEqual(crl.der);
  });

  it.each<[string, Partial<CrlRequest>, string]>([
    ['a negative CRL number', { crlNumber: -1 }, 'invalid_crl_number'],
    ['a fractional CRL number', { crlNumber: 1.5 }, 'invalid_crl_number'],
    ['a CRL number over 20 octets', { crlNumber: 2n ** 160n }, 'invalid_crl_number'],
    ['nextUpdate before thisUpdate', { nextUpdate: new Date(thisUpdate.getTime() - 1000) }, 'invalid_crl_dates'],
    ['an invalid date', { thisUpdate: new Date(Number.NaN) }, 'invalid_crl_dates'],
    [
      'a serial listed twice',
      {
        entries: [
          { serialHex: 'abc', revokedAt: new Date() },
          { serialHex: '0ABC', revokedAt: new Date() },
        ],
      },
      'duplicate_serial',
    ],
  ])('refuses %s', async (_label, overrides, code) => {
    const error = await buildCrl(request(overrides)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IssuanceError);
    expect((error as IssuanceError).code).toBe(code);
  });

  it('refuses a malformed serial number', async () => {
    const error = await buildCrl(request({ entries: [{ serialHex: 'not-hex', revokedAt: new Date() }] })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidSerialNumberError);
  });

  it('refuses to sign with a non-CA certificate or a foreign key', async () => {
    const notCa = await buildCrl(request({ issuerCertificate: good.pem })).catch((caught: unknown) => caught);
    expect((notCa as IssuanceError).code).toBe('issuer_not_ca');
    const foreignKey = await buildCrl(request({ issuerPrivateKey: hierarchy.root.keys.privateKey })).catch((caught: unknown) => caught);
    expect((foreignKey as IssuanceError).code).toBe('issuer_key_mismatch');
  });
});

describe('buildCrl for a CA whose key type differs from its parent’s', () => {
  it.each<[string, KeySpec, KeySpec]>([
    ['EC P-256 root, RSA intermediate', { type: 'ec', curve: 'P-256' }, { type: 'rsa', size: 2048 }],
    ['RSA root, Ed25519 intermediate', { type: 'rsa', size: 2048 }, { type: 'ed25519' }],
    ['Ed25519 root, EC P-384 intermediate', { type: 'ed25519' }, { type: 'ec', curve: 'P-384' }],
  ])('%s: signs with the intermediate’s key and openssl verifies it', async (_label, rootSpec, intermediateSpec) => {
    const rootKeys = await generateKeyPair(rootSpec);
    const root = await buildCaCertificate({
      subject: 'CN=Mixed Root',
      publicKey: rootKeys.publicKey,
      signingKey: rootKeys.privateKey,
      issuer: null,
      validDays: 30,
      pathLength: null,
    });
    const intermediateKeys = await generateKeyPair(intermediateSpec);
    const intermediate = await buildCaCertificate({
      subject: 'CN=Mixed Intermediate',
      publicKey: intermediateKeys.publicKey,
      signingKey: rootKeys.privateKey,
      issuer: root.pem,
      validDays: 30,
      pathLength: 0,
    });
    const thisUpdate = new Date();
    const crl = await buildCrl({
      issuerCertificate: intermediate.pem,
      issuerPrivateKey: intermediateKeys.privateKey,
      entries: [{ serialHex: '0a1b', revokedAt: thisUpdate, reason: 'keyCompromise' }],
      thisUpdate,
      nextUpdate: new Date(thisUpdate.getTime() + HOUR_MS),
      crlNumber: 1,
    });
    const openssl = new OpensslWorkspace();
    try {
      const verified = openssl.run([
        'crl',
        '-in',
        openssl.write('mixed.crl', crl.pem),
        '-CAfile',
        openssl.write('mixed-ca.pem', intermediate.pem),
        '-noout',
        '-verify',
      ]);
      expect(verified.output).toContain('verify OK');
    } finally {
      openssl.dispose();
    }
  });
});
