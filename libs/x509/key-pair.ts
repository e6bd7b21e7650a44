import { createPrivateKey, createPublicKey, type JsonWebKey, KeyObject, webcrypto } from 'node:crypto';
import {
  bitString,
  children,
  childrenTagged,
  content,
  DER_NULL,
  DerTag,
  objectIdentifier,
  readBitStringOctets,
  readObjectIdentifier,
  readRoot,
  sequence,
  unsignedInteger,
} from './der';
import { decodePem, encodePem, PRIVATE_KEY_PEM_LABEL } from './pem';
import { X509EngineError } from './x509-error';

export type CryptoKey = webcrypto.CryptoKey;
export type CryptoKeyPair = webcrypto.CryptoKeyPair;

export const RSA_KEY_SIZES = [2048, 3072, 4096, 8192] as const;
export const EC_CURVES = ['P-256', 'P-384'] as const;

export type RsaKeySize = (typeof RSA_KEY_SIZES)[number];
export type EcCurve = (typeof EC_CURVES)[number];

/** What to generate. */
export type KeySpec =
  { readonly type: 'rsa'; readonly size: RsaKeySize } | { readonly type: 'ec'; readonly curve: EcCurve } | { readonly type: 'ed25519' };

/** What an existing key is; RSA sizes of imported keys or CSRs need not be one of the generated sizes. */
export type KeyAlgorithm =
  { readonly type: 'rsa'; readonly size: number } | { readonly type: 'ec'; readonly curve: EcCurve } | { readonly type: 'ed25519' };

/**
 * A public key as it goes into a certificate: its DER SubjectPublicKeyInfo (a CSR's, copied as is),
 * the same key as a Node KeyObject (to verify with) and what it is.
 */
export interface PublicKeyInfo {
  readonly der: Uint8Array;
  readonly keyObject: KeyObject;
  readonly algorithm: KeyAlgorithm;
}

/** What a certificate can be issued for: a key generated here (WebCrypto) or one read from a CSR. */
export type CertifiablePublicKey = CryptoKey | PublicKeyInfo;

/** Smallest RSA modulus accepted from outside (imported keys, CSRs). */
export const MIN_RSA_KEY_SIZE = 2048;

export type InvalidKeyErrorCode = 'invalid_private_key' | 'unsupported_key_algorithm';

export class InvalidKeyError extends X509EngineError<InvalidKeyErrorCode> {}

const RSA_ALGORITHM = 'RSASSA-PKCS1-v1_5';
const RSA_PUBLIC_EXPONENT = new Uint8Array([0x01, 0x00, 0x01]);
const NODE_CURVE_NAMES: Readonly<Record<string, EcCurve>> = { prime256v1: 'P-256', secp384r1: 'P-384' };

/**
 * Generates an extractable signing key pair. WebCrypto runs the generation on libuv's thread pool,
 * so even RSA 8192 does not block the event loop.
 */
export async function generateKeyPair(spec: KeySpec): Promise<CryptoKeyPair> {
  const usages: webcrypto.KeyUsage[] = ['sign', 'verify'];
  switch (spec?.type) {
    case 'rsa':
      if (!RSA_KEY_SIZES.includes(spec.size)) {
        throw new InvalidKeyError('unsupported_key_algorithm', `RSA key size must be one of ${RSA_KEY_SIZES.join(', ')}, got ${spec.size}`);
      }
      return webcrypto.subtle.generateKey(
        { name: RSA_ALGORITHM, modulusLength: spec.size, publicExponent: RSA_PUBLIC_EXPONENT, hash: 'SHA-256' },
        true,
        usages,
      );
    case 'ec':
      if (!EC_CURVES.includes(spec.curve)) {
        throw new InvalidKeyError('unsupported_key_algorithm', `EC curve must be one of ${EC_CURVES.join(', ')}, got ${spec.curve}`);
      }
      return webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: spec.curve }, true, usages);
    case 'ed25519':
      return (await webcrypto.subtle.generateKey({ name: 'Ed25519' }, true, usages)) as CryptoKeyPair;
    default:
      throw new InvalidKeyError('unsupported_key_algorithm', `Unsupported key type "${String((spec as { type?: unknown })?.type)}"`);
  }
}

/**
 * Exports a private key as unencrypted PKCS#8 PEM (label `PRIVATE KEY`). Node's native export of the
 * key's KeyObject: no trip through WebCrypto's job queue.
 */
export async function exportPrivateKeyPem(privateKey: CryptoKey): Promise<string> {
  // Only keys of the engine's algorithms leave it.
  keyAlgorithmOf(privateKey);
  if (privateKey.type !== 'private' || !privateKey.extractable) {
    throw new InvalidKeyError('invalid_private_key', 'Only an extractable private key can be exported');
  }
  const der = KeyObject.from(privateKey).export({ format: 'der', type: 'pkcs8' });
  return encodePem(der, PRIVATE_KEY_PEM_LABEL);
}

/**
 * Imports an unencrypted PKCS#8 PEM private key as an extractable signing key. The algorithm is read
 * from the key itself; only the engine's algorithms (RSA ≥ 2048, P-256, P-384, Ed25519) are accepted.
 */
export async function importPrivateKeyPem(pem: string): Promise<CryptoKey> {
  let keyObject: KeyObject;
  try {
    keyObject = createPrivateKey({ key: Buffer.from(decodePem(pem, PRIVATE_KEY_PEM_LABEL)), format: 'der', type: 'pkcs8' });
  } catch (error) {
    throw new InvalidKeyError('invalid_private_key', `Invalid private key: ${(error as Error).message}`);
  }
  const algorithm = keyAlgorithmOfKeyObject(keyObject);
  const der = keyObject.export({ format: 'der', type: 'pkcs8' });
  return webcrypto.subtle.importKey('pkcs8', der, importParameters(algorithm), true, ['sign']);
}

/**
 * Reads a DER SubjectPublicKeyInfo (e.g. from a CSR) of a supported algorithm. The bytes are kept as
 * given: they are what a certificate for this key carries.
 */
export function readPublicKeyInfo(spki: Uint8Array): PublicKeyInfo {
  let keyObject: KeyObject;
  try {
    // Exactly one element: OpenSSL would read a prefix and ignore what follows, which would then be copied.
    readRoot(spki, DerTag.SEQUENCE, 'SubjectPublicKeyInfo');
    const jwk = plainJwk(spki);
    keyObject =
      jwk === null
        ? createPublicKey({ key: Buffer.from(spki.buffer, spki.byteOffset, spki.byteLength), format: 'der', type: 'spki' })
        : createPublicKey({ key: jwk, format: 'jwk' });
  } catch (error) {
    throw new InvalidKeyError('unsupported_key_algorithm', `Unreadable public key: ${(error as Error).message}`);
  }
  return { der: spki, keyObject, algorithm: keyAlgorithmOfKeyObject(keyObject) };
}

/**
 * The SubjectPublicKeyInfo of a key to certify; a WebCrypto key must be one of the engine's
 * algorithms. Encoded here from the key's numbers (the same bytes OpenSSL's export gives, which
 * costs an order of magnitude more in OpenSSL 3).
 */
export function publicKeyInfoOf(key: CertifiablePublicKey): PublicKeyInfo {
  if (!isCryptoKey(key)) return key;
  const algorithm = keyAlgorithmOf(key);
  const keyObject = KeyObject.from(key);
  const publicKey = keyObject.type === 'private' ? createPublicKey(keyObject) : keyObject;
  return { der: encodeSubjectPublicKeyInfo(publicKey.export({ format: 'jwk' }), algorithm), keyObject: publicKey, algorithm };
}

const EC_PUBLIC_KEY_OID = '1.2.840.10045.2.1';
const CURVE_OIDS: Readonly<Record<EcCurve, string>> = { 'P-256': '1.2.840.10045.3.1.7', 'P-384': '1.3.132.0.34' };
const CURVE_COORDINATE_LENGTHS: Readonly<Record<EcCurve, number>> = { 'P-256': 32, 'P-384': 48 };

function encodeSubjectPublicKeyInfo(jwk: JsonWebKey, algorithm: KeyAlgorithm): Buffer {
  const number = (value: unknown) => Buffer.from(String(value), 'base64url');
  switch (algorithm.type) {
    case 'rsa':
      return sequence([
        sequence([objectIdentifier(RSA_ENCRYPTION_OID), DER_NULL]),
        bitString(sequence([unsignedInteger(number(jwk.n)), unsignedInteger(number(jwk.e))])),
      ]);
    case 'ec': {
      const length = CURVE_COORDINATE_LENGTHS[algorithm.curve];
      const point = Buffer.concat([Buffer.of(0x04), leftPad(number(jwk.x), length), leftPad(number(jwk.y), length)]);
      return sequence([sequence([objectIdentifier(EC_PUBLIC_KEY_OID), objectIdentifier(CURVE_OIDS[algorithm.curve])]), bitString(point)]);
    }
    case 'ed25519':
      return sequence([sequence([objectIdentifier(ED25519_OID)]), bitString(number(jwk.x))]);
  }
}

function leftPad(octets: Buffer, length: number): Buffer {
  return octets.length >= length ? octets : Buffer.concat([Buffer.alloc(length - octets.length), octets]);
}

/** A private key ready for node:crypto signing, and what it is. */
export interface SigningKey {
  readonly keyObject: KeyObject;
  readonly algorithm: KeyAlgorithm;
}

/** The KeyObject behind a WebCrypto signing key (no copy) and its algorithm; rejects public keys. */
export function signingKeyOf(key: CryptoKey): SigningKey {
  const algorithm = keyAlgorithmOf(key);
  if (key.type !== 'private') {
    throw new InvalidKeyError('invalid_private_key', 'A signing key must be a private key');
  }
  return { keyObject: KeyObject.from(key), algorithm };
}

const RSA_ENCRYPTION_OID = '1.2.840.113549.1.1.1';
const ED25519_OID = '1.3.101.112';
const ED25519_KEY_LENGTH = 32;

/**
 * The same key as a JWK, for the RSA, Ed25519 and P-256 keys whose SubjectPublicKeyInfo is exactly in
 * the standard form; null for anything else, which OpenSSL then reads (and judges) from the DER. The
 * reason: OpenSSL 3 decodes DER through its generic decoder machinery, ~20 times slower for RSA and
 * Ed25519 keys than building them from their numbers, and a CSR's key is read once per request.
 */
function plainJwk(spki: Uint8Array): JsonWebKey | null {
  try {
    const [algorithmIdentifier, subjectPublicKey] = childrenTagged(
      readRoot(spki, DerTag.SEQUENCE, 'SubjectPublicKeyInfo'),
      [DerTag.SEQUENCE, DerTag.BIT_STRING],
      'SubjectPublicKeyInfo',
    );
    const [algorithm, ...parameters] = children(algorithmIdentifier);
    const oid = readObjectIdentifier(algorithm, 'algorithm');
    const key = readBitStringOctets(subjectPublicKey, 'subjectPublicKey');
    if (oid === ED25519_OID && parameters.length === 0 && key.length === ED25519_KEY_LENGTH) {
      return { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key).toString('base64url') };
    }
    // P-256 gains from it too; P-384 does not (OpenSSL's point check is slower on that path).
    const p256Point = 1 + 2 * CURVE_COORDINATE_LENGTHS['P-256'];
    if (oid === EC_PUBLIC_KEY_OID && parameters.length === 1 && key.length === p256Point && key[0] === 0x04) {
      if (readObjectIdentifier(parameters[0], 'namedCurve') !== CURVE_OIDS['P-256']) return null;
      const half = CURVE_COORDINATE_LENGTHS['P-256'];
      const coordinate = (start: number) => Buffer.from(key.subarray(start, start + half)).toString('base64url');
      return { kty: 'EC', crv: 'P-256', x: coordinate(1), y: coordinate(1 + half) };
    }
    const nullParameters = parameters.length === 1 && parameters[0].tag === DerTag.NULL && parameters[0].end === parameters[0].contentStart;
    if (oid !== RSA_ENCRYPTION_OID || !nullParameters) return null;
    const [modulus, exponent] = childrenTagged(
      readRoot(key, DerTag.SEQUENCE, 'RSAPublicKey'),
      [DerTag.INTEGER, DerTag.INTEGER],
      'RSAPublicKey',
    );
    const n = positiveIntegerMagnitude(content(modulus));
    const e = positiveIntegerMagnitude(content(exponent));
    return n === null || e === null ? null : { kty: 'RSA', n: n.toString('base64url'), e: e.toString('base64url') };
  } catch {
    return null;
  }
}

/** The magnitude of a minimally encoded positive INTEGER, or null for zero, negative or padded encodings. */
function positiveIntegerMagnitude(octets: Uint8Array): Buffer | null {
  if (octets.length === 0 || octets[0] & 0x80) return null;
  if (octets[0] === 0) {
    if (octets.length === 1 || octets[1] < 0x80) return null;
    return Buffer.from(octets.subarray(1));
  }
  return Buffer.from(octets);
}

function isCryptoKey(key: CertifiablePublicKey): key is CryptoKey {
  return !('keyObject' in key);
}

/** Identifies a WebCrypto key; throws InvalidKeyError for algorithms the engine does not sign with. */
export function keyAlgorithmOf(key: CryptoKey): KeyAlgorithm {
  const algorithm = key.algorithm as { name: string; modulusLength?: number; namedCurve?: string; hash?: { name: string } };
  switch (algorithm.name) {
    case RSA_ALGORITHM:
      if (algorithm.hash?.name !== 'SHA-256') {
        throw new InvalidKeyError('unsupported_key_algorithm', `RSA keys must be bound to SHA-256, got ${algorithm.hash?.name}`);
      }
      return { type: 'rsa', size: algorithm.modulusLength ?? 0 };
    case 'ECDSA':
      if (!EC_CURVES.includes(algorithm.namedCurve as EcCurve)) {
        throw unsupportedCurve(algorithm.namedCurve);
      }
      return { type: 'ec', curve: algorithm.namedCurve as EcCurve };
    case 'Ed25519':
      return { type: 'ed25519' };
    default:
      throw new InvalidKeyError('unsupported_key_algorithm', `Unsupported key algorithm ${algorithm.name}`);
  }
}

/** Human-readable form: `RSA 2048`, `EC P-256`, `Ed25519`. */
export function describeKeyAlgorithm(algorithm: KeyAlgorithm): string {
  switch (algorithm.type) {
    case 'rsa':
      return `RSA ${algorithm.size}`;
    case 'ec':
      return `EC ${algorithm.curve}`;
    case 'ed25519':
      return 'Ed25519';
  }
}

/** Identifies a Node key; throws InvalidKeyError for algorithms and sizes the engine does not accept. */
export function keyAlgorithmOfKeyObject(keyObject: KeyObject): KeyAlgorithm {
  const details = keyObject.asymmetricKeyDetails ?? {};
  switch (keyObject.asymmetricKeyType) {
    case 'rsa': {
      const size = details.modulusLength ?? 0;
      if (size < MIN_RSA_KEY_SIZE) {
        throw new InvalidKeyError('unsupported_key_algorithm', `RSA key size ${size} is below the minimum of ${MIN_RSA_KEY_SIZE}`);
      }
      return { type: 'rsa', size };
    }
    case 'ec': {
      const curve = NODE_CURVE_NAMES[details.namedCurve ?? ''];
      if (curve === undefined) {
        throw unsupportedCurve(details.namedCurve);
      }
      return { type: 'ec', curve };
    }
    case 'ed25519':
      return { type: 'ed25519' };
    default:
      throw new InvalidKeyError('unsupported_key_algorithm', `Unsupported key algorithm ${keyObject.asymmetricKeyType}`);
  }
}

function importParameters(algorithm: KeyAlgorithm): webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | webcrypto.Algorithm {
  switch (algorithm.type) {
    case 'rsa':
      return { name: RSA_ALGORITHM, hash: 'SHA-256' };
    case 'ec':
      return { name: 'ECDSA', namedCurve: algorithm.curve };
    case 'ed25519':
      return { name: 'Ed25519' };
  }
}

function unsupportedCurve(curve: string | undefined): InvalidKeyError {
  return new InvalidKeyError('unsupported_key_algorithm', `Unsupported EC curve ${curve}; supported: ${EC_CURVES.join(', ')}`);
}
