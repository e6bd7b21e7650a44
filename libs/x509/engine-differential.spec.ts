/**
 * The native engine against the @peculiar/x509 reference engine (testing/reference-engine.ts):
 * 1 000 random CSRs — RSA 2048, P-256, P-384 and Ed25519 keys; subjects with multi-valued RDNs,
 * several string types, UTF-8 and characters that need escaping; DNS, IP and email SANs, and now and
 * then something either engine must refuse — go through both. Serial number and clock are fixed per
 * case, so the two TBSCertificates must be the same bytes (and whole certificates too where the
 * issuer's signatures are deterministic: RSA PKCS#1 v1.5, Ed25519); refusals must carry the same
 * code and message. `openssl verify` then checks every certificate issued, in one call.
 */
import { constants, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { buildCaCertificate, buildLeafCertificate, type IssuedCertificate } from './certificate-builder';
import { buildCrl, type CrlEntry } from './crl-builder';
import { parseCsr } from './csr';
import {
  bitString,
  children,
  constructed,
  contextTag,
  DER_NULL,
  DerTag,
  encoded,
  objectIdentifier,
  readRoot,
  sequence,
  set,
  smallInteger,
  tlv,
} from './der';
import { generateKeyPair, type KeySpec } from './key-pair';
import { encodePem } from './pem';
import * as serialNumbers from './serial-number';
import { type CertificateProfile } from './subject-alt-names';
import { OpensslWorkspace } from './testing/openssl-workspace';
import {
  referenceBuildCaCertificate,
  referenceBuildCrl,
  referenceBuildLeafCertificate,
  referenceParseCsr,
} from './testing/reference-engine';
import { createTestHierarchy, TEST_URLS, type TestHierarchy } from './testing/test-pki';
import { X509Crl, X509Certificate } from './x509-runtime';

jest.mock('./serial-number', () => {
  const actual = jest.requireActual<typeof import('./serial-number')>('./serial-number');
  return { ...actual, generateSerialNumber: jest.fn(actual.generateSerialNumber) };
});

const CASES = 1000;
const SEED = 0x13c0ffee;

/** mulberry32: a small seeded generator, so a failing case can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const chance = (probability: number) => next() < probability;
  return { next, int, pick, chance };
}

type Random = ReturnType<typeof generator>;

const OIDS: Readonly<Record<string, string>> = {
  C: '2.5.4.6',
  ST: '2.5.4.8',
  L: '2.5.4.7',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  CN: '2.5.4.3',
  E: '1.2.840.113549.1.9.1',
  DC: '0.9.2342.19200300.100.1.25',
  SN: '2.5.4.4',
};

const PIECES = [
  'a',
  'Z',
  '7',
  ' ',
  '-',
  '.',
  "'",
  ',',
  '+',
  '\\',
  '=',
  '#',
  ';',
  '<',
  '>',
  '"',
  'é',
  'Zürich',
  '中文',
  'Ω',
  'ß',
  '😀',
  'Acme',
  'Inc.',
];
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

function randomValue(random: Random): string {
  let value = '';
  const pieces = 1 + random.int(random.chance(0.03) ? 40 : 8);
  for (let index = 0; index < pieces; index++) value += random.pick(PIECES);
  return value;
}

/** An attribute value as one of the string types a CSR may use for it. */
function encodeValue(random: Random, key: string, value: string): Buffer {
  const types: number[] = [DerTag.UTF8_STRING];
  if (PRINTABLE.test(value)) types.push(DerTag.PRINTABLE_STRING);
  // The string types are defined by their character ranges, which start at NUL.
  // eslint-disable-next-line no-control-regex -- IA5String: U+0000 to U+007F
  if (/^[\x00-\x7f]*$/.test(value)) types.push(DerTag.IA5_STRING);
  // eslint-disable-next-line no-control-regex -- TeletexString, read as Latin-1: one byte a character
  if (/^[\x00-\xff]*$/.test(value)) types.push(DerTag.TELETEX_STRING);
  if (!/[\ud800-\udfff]/.test(value)) types.push(DerTag.BMP_STRING, DerTag.UNIVERSAL_STRING);
  const tag = key === 'C' && PRINTABLE.test(value) ? DerTag.PRINTABLE_STRING : random.pick(types);
  switch (tag) {
    case DerTag.UTF8_STRING:
      return tlv(tag, Buffer.from(value, 'utf8'));
    case DerTag.BMP_STRING:
      return tlv(tag, Buffer.from(value, 'utf16le').swap16());
    case DerTag.UNIVERSAL_STRING:
      return tlv(tag, Buffer.concat([...value].map((char) => Buffer.from([0, 0, char.charCodeAt(0) >> 8, char.charCodeAt(0) & 0xff]))));
    default:
      return tlv(tag, Buffer.from(value, 'latin1'));
  }
}

/** A subject: 1–4 RDNs of 1–3 attributes, usually valid, sometimes not in a way both engines must refuse. */
function randomSubject(random: Random): Buffer {
  const keys = ['ST', 'L', 'O', 'OU', 'OU'];
  let commonNames = random.chance(0.95) ? 1 : random.chance(0.5) ? 0 : 2;
  const rdns: Buffer[] = [];
  const rdnCount = 1 + random.int(4);
  for (let index = 0; index < rdnCount; index++) {
    const attributes: Buffer[] = [];
    const attributeCount = random.chance(0.7) ? 1 : 2 + random.int(2);
    for (let position = 0; position < attributeCount; position++) {
      let key = random.pick(keys);
      if (commonNames > 0 && (random.chance(0.4) || (index === rdnCount - 1 && position === attributeCount - 1))) {
        key = 'CN';
        commonNames--;
      } else if (random.chance(0.08)) {
        key = 'C';
      } else if (random.chance(0.02)) {
        key = random.pick(['E', 'DC', 'SN']);
      }
      let value: string;
      if (key === 'C') value = random.chance(0.9) ? random.pick(['US', 'ch', 'DE', 'fr']) : random.pick(['1A', 'USA']);
      else if (key === 'CN' && random.chance(0.4))
        value = random.pick(['www.example.com', 'API.Example.org', '*.example.net', '10.1.2.3', '2001:db8::7', 'ops@example.com']);
      else value = randomValue(random);
      attributes.push(sequence([objectIdentifier(OIDS[key]), encodeValue(random, key, value)]));
    }
    rdns.push(set(attributes));
  }
  return sequence(rdns);
}

interface RequestedSans {
  readonly extension: Buffer | null;
  readonly kinds: Set<'dns' | 'ip' | 'email'>;
}

function randomSans(random: Random): RequestedSans {
  const names: Buffer[] = [];
  const kinds = new Set<'dns' | 'ip' | 'email'>();
  const count = random.int(5);
  for (let index = 0; index < count; index++) {
    const kind = random.chance(0.02) ? 'uri' : random.pick(['dns', 'dns', 'ip', 'email'] as const);
    if (kind === 'dns') {
      kinds.add(kind);
      const name =
        random.pick(['host', 'API', 'www', '*', 'a-b', 'xn--bcher-kva', 'bad_label']) +
        '.' +
        random.pick(['example.com', 'Example.ORG', 'test']);
      names.push(tlv(contextTag(2, false), Buffer.from(name, 'latin1')));
    } else if (kind === 'ip') {
      kinds.add(kind);
      const octets = Buffer.alloc(random.chance(0.5) ? 4 : 16);
      for (let position = 0; position < octets.length; position++) octets[position] = random.chance(0.4) ? 0 : random.int(256);
      names.push(tlv(contextTag(7, false), octets));
    } else if (kind === 'email') {
      kinds.add(kind);
      names.push(
        tlv(
          contextTag(1, false),
          Buffer.from(`${random.pick(['ops', 'Zoe.M', 'a+b'])}@${random.pick(['Example.com', 'mail.test.org'])}`, 'latin1'),
        ),
      );
    } else {
      names.push(tlv(contextTag(6, false), Buffer.from('https://example.com/x', 'latin1')));
    }
  }
  if (names.length === 0 && random.chance(0.7)) return { extension: null, kinds };
  return { extension: sequence([objectIdentifier('2.5.29.17'), tlv(DerTag.OCTET_STRING, sequence(names))]), kinds };
}

interface PoolKey {
  readonly label: string;
  readonly privateKey: KeyObject;
  readonly spki: Buffer;
}

const DIGEST_OIDS: Readonly<Record<string, string>> = {
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
};

/** Signs the request info with one of the algorithms CSRs come with for that key type. */
function signRequest(random: Random, key: PoolKey, info: Buffer): { algorithm: Buffer; signature: Buffer } {
  const type = key.privateKey.asymmetricKeyType;
  if (type === 'ed25519') {
    return { algorithm: sequence([objectIdentifier('1.3.101.112')]), signature: sign(null, info, key.privateKey) };
  }
  if (type === 'ec') {
    const [oid, digest] = random.pick([
      ['1.2.840.10045.4.3.2', 'sha256'],
      ['1.2.840.10045.4.3.3', 'sha384'],
      ['1.2.840.10045.4.3.4', 'sha512'],
    ]);
    return { algorithm: sequence([objectIdentifier(oid)]), signature: sign(digest, info, key.privateKey) };
  }
  if (random.chance(0.15)) {
    const digest = random.pick(['sha256', 'sha384']);
    const hash = sequence([objectIdentifier(DIGEST_OIDS[digest]), DER_NULL]);
    const parameters = sequence([
      tlv(contextTag(0, true), hash),
      tlv(contextTag(1, true), sequence([objectIdentifier('1.2.840.113549.1.1.8'), hash])),
      tlv(contextTag(2, true), smallInteger(32)),
    ]);
    const signature = sign(digest, info, { key: key.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
    return { algorithm: sequence([objectIdentifier('1.2.840.113549.1.1.10'), parameters]), signature };
  }
  const [oid, digest] = random.pick([
    ['1.2.840.113549.1.1.11', 'sha256'],
    ['1.2.840.113549.1.1.12', 'sha384'],
    ['1.2.840.113549.1.1.13', 'sha512'],
  ]);
  return { algorithm: sequence([objectIdentifier(oid), DER_NULL]), signature: sign(digest, info, key.privateKey) };
}

function requestPem(random: Random, key: PoolKey, subject: Buffer, sans: RequestedSans): string {
  const attributes =
    sans.extension === null ? [] : [sequence([objectIdentifier('1.2.840.113549.1.9.14'), set([sequence([sans.extension])])])];
  const info = sequence([smallInteger(0), subject, key.spki, constructed(contextTag(0, true), attributes)]);
  const { algorithm, signature } = signRequest(random, key, info);
  return encodePem(sequence([info, algorithm, bitString(signature)]), 'CERTIFICATE REQUEST');
}

function keyPool(): PoolKey[] {
  const specs: [string, () => KeyObject][] = [
    ['RSA 2048', () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey],
    ['P-256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey],
    ['P-384', () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey],
    ['Ed25519', () => generateKeyPairSync('ed25519').privateKey],
  ];
  return specs.flatMap(([label, generate]) =>
    [1, 2].map(() => {
      const privateKey = generate();
      return { label, privateKey, spki: createPublicKey(privateKey).export({ format: 'der', type: 'spki' }) };
    }),
  );
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: { name: string; code?: string; message: string } };

async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    const { name, code, message } = error as { name: string; code?: string; message: string };
    return { ok: false, error: { name, code, message } };
  }
}

function tbsOf(der: Uint8Array): Buffer {
  const [tbs] = children(readRoot(der, DerTag.SEQUENCE, 'signed object'));
  return Buffer.from(encoded(tbs));
}

/** What a reader sees in a certificate, extension by extension. */
function fieldsOf(der: Uint8Array) {
  const certificate = new X509Certificate(der);
  return {
    subject: Buffer.from(certificate.subjectName.toArrayBuffer()).toString('hex'),
    issuer: Buffer.from(certificate.issuerName.toArrayBuffer()).toString('hex'),
    serialNumber: certificate.serialNumber,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    publicKey: Buffer.from(certificate.publicKey.rawData).toString('hex'),
    signatureAlgorithm: certificate.signatureAlgorithm,
    extensions: certificate.extensions.map((extension) => ({
      type: extension.type,
      critical: extension.critical,
      value: Buffer.from(extension.value).toString('hex'),
    })),
  };
}

function withoutEncodings(certificate: IssuedCertificate) {
  const { pem: _pem, der: _der, fingerprintSha256: _fingerprint, ...info } = certificate;
  return info;
}

describe('native engine against the @peculiar/x509 reference', () => {
  const hierarchies: Record<string, TestHierarchy> = {};
  const specs: [string, KeySpec][] = [
    ['RSA', { type: 'rsa', size: 2048 }],
    ['P256', { type: 'ec', curve: 'P-256' }],
    ['P384', { type: 'ec', curve: 'P-384' }],
    ['Ed25519', { type: 'ed25519' }],
  ];
  let openssl: OpensslWorkspace;
  let pool: PoolKey[];
  const issuedFiles: string[] = [];
  const generateSerialNumber = serialNumbers.generateSerialNumber as jest.MockedFunction<typeof serialNumbers.generateSerialNumber>;
  const realSerialNumber = jest.requireActual<typeof serialNumbers>('./serial-number').generateSerialNumber;

  /** Runs `issue` with the serial number and the clock pinned (the same for both engines). */
  async function sameInputs<T>({ now, serial }: { now: number; serial: string }, issue: () => Promise<T>): Promise<Outcome<T>> {
    generateSerialNumber.mockReturnValue(serial);
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      return await outcome(issue);
    } finally {
      clock.mockRestore();
    }
  }

  beforeAll(async () => {
    openssl = new OpensslWorkspace();
    pool = keyPool();
    for (const [label, spec] of specs) hierarchies[label] = await createTestHierarchy(spec, `Diff ${label}`);
    openssl.write('roots.pem', specs.map(([label]) => hierarchies[label].root.certificate.pem).join(''));
    openssl.write('intermediates.pem', specs.map(([label]) => hierarchies[label].intermediate.certificate.pem).join(''));
  });

  afterAll(() => {
    generateSerialNumber.mockImplementation(realSerialNumber);
    openssl.dispose();
  });

  it(`issues the same certificate as the reference for ${CASES} random CSRs, and OpenSSL verifies each`, async () => {
    const random = generator(SEED);
    const counts = { issued: 0, csrRefused: 0, issuanceRefused: 0, identicalDer: 0 };
    for (let index = 0; index < CASES; index++) {
      const key = pool[index % pool.length];
      const sans = randomSans(random);
      const pem = requestPem(random, key, randomSubject(random), sans);
      const context = `case ${index} (seed ${SEED}, ${key.label}):\n${pem}`;

      const referenceCsr = await outcome(() => referenceParseCsr(pem));
      const nativeCsr = await outcome(() => parseCsr(pem));
      if (!referenceCsr.ok || !nativeCsr.ok) {
        expect({ context, native: nativeCsr.ok ? 'accepted' : nativeCsr.error }).toEqual({
          context,
          native: referenceCsr.ok ? 'accepted' : referenceCsr.error,
        });
        counts.csrRefused++;
        continue;
      }
      const { publicKey: referenceKey, ...referenceRest } = referenceCsr.value;
      const { publicKey: nativeKey, attributeTypes: _attributeTypes, ...nativeRest } = nativeCsr.value;
      expect({ context, csr: nativeRest }).toEqual({ context, csr: referenceRest });
      expect(Buffer.from(nativeKey.der).equals(key.spki)).toBe(true);

      const issuerLabel = specs[random.int(specs.length)][0];
      const { intermediate } = hierarchies[issuerLabel];
      const profiles: CertificateProfile[] = sans.kinds.has('email')
        ? sans.kinds.size > 1
          ? ['dual_purpose']
          : ['client', 'dual_purpose']
        : sans.kinds.size > 0
          ? ['server', 'dual_purpose']
          : ['server', 'client', 'dual_purpose'];
      const common = {
        issuerCertificate: intermediate.certificate.pem,
        issuerPrivateKey: intermediate.keys.privateKey,
        validDays: random.chance(0.1) ? 5000 : 1 + random.int(400),
        profile: random.chance(0.03) ? random.pick<CertificateProfile>(['server', 'client']) : random.pick(profiles),
        ...(random.chance(0.8) ? TEST_URLS : { crlDistributionPointUrl: TEST_URLS.crlDistributionPointUrl }),
      };
      const pinned = { now: Date.now(), serial: realSerialNumber() };
      const referenceLeaf = await sameInputs(pinned, () =>
        referenceBuildLeafCertificate({
          ...common,
          subject: referenceCsr.value.subjectName,
          publicKey: referenceKey,
          sans: referenceCsr.value.sans,
        }),
      );
      const nativeLeaf = await sameInputs(pinned, () =>
        buildLeafCertificate({ ...common, subject: nativeCsr.value.subjectName, publicKey: nativeKey, sans: nativeCsr.value.sans }),
      );
      if (!referenceLeaf.ok || !nativeLeaf.ok) {
        expect({ context, native: nativeLeaf.ok ? 'issued' : nativeLeaf.error }).toEqual({
          context,
          native: referenceLeaf.ok ? 'issued' : referenceLeaf.error,
        });
        counts.issuanceRefused++;
        continue;
      }
      expect({ context, info: withoutEncodings(nativeLeaf.value) }).toEqual({ context, info: withoutEncodings(referenceLeaf.value) });
      expect({ context, fields: fieldsOf(nativeLeaf.value.der) }).toEqual({ context, fields: fieldsOf(referenceLeaf.value.der) });
      expect(tbsOf(nativeLeaf.value.der).equals(tbsOf(referenceLeaf.value.der))).toBe(true);
      if (issuerLabel === 'RSA' || issuerLabel === 'Ed25519') {
        expect(Buffer.from(nativeLeaf.value.der).equals(Buffer.from(referenceLeaf.value.der))).toBe(true);
        counts.identicalDer++;
      }
      issuedFiles.push(openssl.write(`leaf-${index}.pem`, nativeLeaf.value.pem));
      counts.issued++;
    }
    // The generator is meant to exercise both outcomes; most requests must still lead to a certificate.
    expect(counts.issued).toBeGreaterThan(CASES * 0.6);
    expect(counts.csrRefused + counts.issuanceRefused).toBeGreaterThan(10);

    const verified = openssl.run(['verify', '-CAfile', 'roots.pem', '-untrusted', 'intermediates.pem', ...issuedFiles]);
    expect(verified.status).toBe(0);
    expect(verified.stdout.split('\n').filter((line) => line.endsWith(': OK'))).toHaveLength(issuedFiles.length);
  }, 600_000);

  it('issues the same CA certificates (roots and subordinates, with and without path lengths)', async () => {
    const random = generator(SEED + 1);
    for (let index = 0; index < 24; index++) {
      const [, spec] = specs[index % specs.length];
      const parent = random.chance(0.5) ? null : hierarchies[specs[random.int(specs.length)][0]].root;
      const subjectKeys = await generateKeyPair(spec);
      const signingKey = parent === null ? subjectKeys.privateKey : parent.keys.privateKey;
      const request = {
        subject: `CN=Diff CA ${index}+OU=Unit ${index},O=Example\\, Inc.,C=US`,
        publicKey: subjectKeys.publicKey,
        signingKey,
        issuer: parent === null ? null : parent.certificate.pem,
        // Roots reach past 2049 too, where validity switches to GeneralizedTime.
        validDays: parent === null && random.chance(0.5) ? 20_000 + random.int(16_000) : 1 + random.int(5000),
        pathLength: random.chance(0.5) ? null : random.int(3),
        ...(parent === null ? {} : TEST_URLS),
      };
      const pinned = { now: Date.now(), serial: realSerialNumber() };
      const reference = await sameInputs(pinned, () => referenceBuildCaCertificate(request));
      const native = await sameInputs(pinned, () => buildCaCertificate(request));
      expect(native.ok && reference.ok).toBe(true);
      if (!native.ok || !reference.ok) continue;
      expect(withoutEncodings(native.value)).toEqual(withoutEncodings(reference.value));
      expect(fieldsOf(native.value.der)).toEqual(fieldsOf(reference.value.der));
      expect(tbsOf(native.value.der).equals(tbsOf(reference.value.der))).toBe(true);
    }
  });

  it('lists the same revoked serials, dates and reasons in a CRL, and OpenSSL verifies it', async () => {
    const random = generator(SEED + 2);
    for (const [label] of specs) {
      const { intermediate } = hierarchies[label];
      const entries: CrlEntry[] = Array.from({ length: 200 }, (_, index) => ({
        serialHex: (BigInt(index + 1) * 0xfedcba9876543210fedcba987654321n + BigInt(random.int(1 << 30))).toString(16),
        revokedAt: new Date(Date.now() - random.int(1e9)),
        reason: random.pick([null, 'keyCompromise', 'superseded', 'laptop stolen', 'unspecified', 'cessation_of_operation']),
      }));
      const request = {
        issuerCertificate: intermediate.certificate.pem,
        issuerPrivateKey: intermediate.keys.privateKey,
        entries,
        thisUpdate: new Date(),
        nextUpdate: new Date(Date.now() + 86_400_000),
        crlNumber: 1 + random.int(1000),
      };
      const native = new X509Crl((await buildCrl(request)).der);
      const reference = new X509Crl(await referenceBuildCrl(request));
      const entriesOf = (crl: X509Crl) =>
        crl.entries.map((entry) => ({
          serialNumber: entry.serialNumber,
          revocationDate: entry.revocationDate,
          extensions: entry.extensions.map((extension) => Buffer.from(extension.rawData).toString('hex')),
        }));
      expect(entriesOf(native)).toEqual(entriesOf(reference));
      expect(Buffer.from(native.issuerName.toArrayBuffer())).toEqual(Buffer.from(reference.issuerName.toArrayBuffer()));
      expect([native.thisUpdate, native.nextUpdate, native.signatureAlgorithm]).toEqual([
        reference.thisUpdate,
        reference.nextUpdate,
        reference.signatureAlgorithm,
      ]);
      expect(native.extensions.map((extension) => Buffer.from(extension.rawData).toString('hex'))).toEqual(
        reference.extensions.map((extension) => Buffer.from(extension.rawData).toString('hex')),
      );
      const crlFile = openssl.write(`${label}.crl`, encodePem(new Uint8Array(native.rawData), 'X509 CRL'));
      const issuerFile = openssl.write(`${label}-intermediate.pem`, intermediate.certificate.pem);
      expect(openssl.run(['crl', '-in', crlFile, '-noout', '-CAfile', issuerFile]).output).toContain('verify OK');
    }
  });
});
