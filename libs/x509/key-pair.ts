import { createPrivateKey, createPublicKey, type KeyObject, type webcrypto } from 'node:crypto';
import { decodePem, encodePem, PRIVATE_KEY_PEM_LABEL } from './pem';
import { cryptoEngine } from './x509-runtime';
import { X509EngineError } from './x509-error';

export type CryptoKey = webcrypto.CryptoKey;
export type CryptoKeyPair = webcrypto.CryptoKeyPair;

export const RSA_KEY_SIZES = [2048, 3072, 4096, 8192] as const;
export const EC_CURVES = ['P-256', 'P-384'] as const;

export type RsaKeySize = (typeof RSA_KEY_SIZES)[number];
export type EcCurve = (typeof EC_CURVES)[number];

/** What to generate. */
export type KeySpec =
  | { readonly type: 'rsa'; readonly size: RsaKeySize }
  | { readonly type: 'ec'; readonly curve: EcCurve }
  | { readonly type: 'ed25519' };

/** What an existing key is; RSA sizes of imported keys or CSRs need not be one of the generated sizes. */
export type KeyAlgorithm =
  | { readonly type: 'rsa'; readonly size: number }
  | { readonly type: 'ec'; readonly curve: EcCurve }
  | { readonly type: 'ed25519' };

/**
 * A WebCrypto signing algorithm. `hash` is given for RSA too (WebCrypto takes it from the key) because
 * @peculiar/x509 derives the certificate's signatureAlgorithm OID from it.
 */
export interface SignatureAlgorithm {
  readonly name: string;
  readonly hash?: string;
}

/** Smallest RSA modulus accepted from outside (imported keys, CSRs). */
export const MIN_RSA_KEY_SIZE = 2048;

export type InvalidKeyErrorCode = 'invalid_private_key' | 'unsupported_key_algorithm';

export class InvalidKeyError extends X509EngineError<InvalidKeyErrorCode> {}

const RSA_ALGORITHM = 'RSASSA-PKCS1-v1_5';
const RSA_PUBLIC_EXPONENT = new Uint8Array([0x01, 0x00, 0x01]);
const NODE_CURVE_NAMES: Readonly<Record<string, EcCurve>> = { prime256v1: 'P-256', secp384r1: 'P-384' };
const CURVE_HASH: Readonly<Record<EcCurve, string>> = { 'P-256': 'SHA-256', 'P-384': 'SHA-384' };

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
      return cryptoEngine.subtle.generateKey(
        { name: RSA_ALGORITHM, modulusLength: spec.size, publicExponent: RSA_PUBLIC_EXPONENT, hash: 'SHA-256' },
        true,
        usages,
      );
    case 'ec':
      if (!EC_CURVES.includes(spec.curve)) {
        throw new InvalidKeyError('unsupported_key_algorithm', `EC curve must be one of ${EC_CURVES.join(', ')}, got ${spec.curve}`);
      }
      return cryptoEngine.subtle.generateKey({ name: 'ECDSA', namedCurve: spec.curve }, true, usages);
    case 'ed25519':
      return (await cryptoEngine.subtle.generateKey({ name: 'Ed25519' }, true, usages)) as CryptoKeyPair;
    default:
      throw new InvalidKeyError('unsupported_key_algorithm', `Unsupported key type "${(spec as { type?: unknown })?.type}"`);
  }
}

/** Exports a private key as unencrypted PKCS#8 PEM (label `PRIVATE KEY`). */
export async function exportPrivateKeyPem(privateKey: CryptoKey): Promise<string> {
  // Only keys of the engine's algorithms leave it.
  keyAlgorithmOf(privateKey);
  const der = await cryptoEngine.subtle.exportKey('pkcs8', privateKey);
  return encodePem(new Uint8Array(der), PRIVATE_KEY_PEM_LABEL);
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
  return cryptoEngine.subtle.importKey('pkcs8', der, importParameters(algorithm), true, ['sign']);
}

/** Imports a DER SubjectPublicKeyInfo (e.g. from a CSR) as a verification key of a supported algorithm. */
export async function importPublicKeySpki(spki: Uint8Array): Promise<CryptoKey> {
  let keyObject: KeyObject;
  try {
    keyObject = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
  } catch (error) {
    throw new InvalidKeyError('unsupported_key_algorithm', `Unreadable public key: ${(error as Error).message}`);
  }
  const algorithm = keyAlgorithmOfKeyObject(keyObject);
  return cryptoEngine.subtle.importKey('spki', spki, importParameters(algorithm), true, ['verify']);
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

/**
 * The WebCrypto signature algorithm used when `signingKey` signs a certificate or CRL:
 * RSASSA-PKCS1-v1_5/SHA-256, ECDSA with the curve's matching hash (P-256 → SHA-256, P-384 → SHA-384), Ed25519.
 */
export function signatureAlgorithmFor(signingKey: CryptoKey): SignatureAlgorithm {
  const algorithm = keyAlgorithmOf(signingKey);
  switch (algorithm.type) {
    case 'rsa':
      return { name: RSA_ALGORITHM, hash: 'SHA-256' };
    case 'ec':
      return { name: 'ECDSA', hash: CURVE_HASH[algorithm.curve] };
    case 'ed25519':
      return { name: 'Ed25519' };
  }
}

function keyAlgorithmOfKeyObject(keyObject: KeyObject): KeyAlgorithm {
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
