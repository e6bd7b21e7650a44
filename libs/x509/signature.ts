import { constants, type KeyObject, sign, verify } from 'node:crypto';
import { DER_NULL, objectIdentifier, sequence } from './der';
import { type EcCurve, type KeyAlgorithm, type SigningKey } from './key-pair';

/**
 * How a key of the engine signs certificates and CRLs: RSA → sha256WithRSAEncryption (PKCS#1 v1.5),
 * P-256 → ecdsa-with-SHA256, P-384 → ecdsa-with-SHA384 (DER Ecdsa-Sig-Value), Ed25519 → Ed25519.
 */
export interface SignatureScheme {
  /** The DER AlgorithmIdentifier written into the signed object (twice for certificates). */
  readonly algorithmIdentifier: Buffer;
  /** The digest node:crypto signs with; null for Ed25519, which hashes internally. */
  readonly digest: string | null;
}

const SHA256_WITH_RSA_ENCRYPTION = '1.2.840.113549.1.1.11';
const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const ECDSA_WITH_SHA384 = '1.2.840.10045.4.3.3';
const ED25519 = '1.3.101.112';

// RFC 4055 keeps the NULL parameters of the RSA PKCS#1 v1.5 identifiers; RFC 5758 and RFC 8410 have none.
const RSA_SCHEME: SignatureScheme = {
  algorithmIdentifier: sequence([objectIdentifier(SHA256_WITH_RSA_ENCRYPTION), DER_NULL]),
  digest: 'sha256',
};
const EC_SCHEMES: Readonly<Record<EcCurve, SignatureScheme>> = {
  'P-256': { algorithmIdentifier: sequence([objectIdentifier(ECDSA_WITH_SHA256)]), digest: 'sha256' },
  'P-384': { algorithmIdentifier: sequence([objectIdentifier(ECDSA_WITH_SHA384)]), digest: 'sha384' },
};
const ED25519_SCHEME: SignatureScheme = { algorithmIdentifier: sequence([objectIdentifier(ED25519)]), digest: null };

export function signatureSchemeFor(algorithm: KeyAlgorithm): SignatureScheme {
  switch (algorithm.type) {
    case 'rsa':
      return RSA_SCHEME;
    case 'ec':
      return EC_SCHEMES[algorithm.curve];
    case 'ed25519':
      return ED25519_SCHEME;
  }
}

/** Signs on libuv's thread pool (node:crypto's callback form), so the event loop stays free meanwhile. */
export function signData(data: Uint8Array, key: SigningKey): Promise<Buffer> {
  const { digest } = signatureSchemeFor(key.algorithm);
  return new Promise((resolve, reject) => {
    sign(digest, data, key.keyObject, (error, signature) => (error ? reject(error) : resolve(signature)));
  });
}

/** How a signature is checked: node:crypto's digest and key options (padding, salt length). */
export interface VerificationParameters {
  readonly digest: string | null;
  readonly padding?: number;
  readonly saltLength?: number;
}

/** Verifies on libuv's thread pool; a malformed signature or a key of the wrong type is false, not an error. */
export function verifySignature(
  data: Uint8Array,
  signature: Uint8Array,
  publicKey: KeyObject,
  parameters: VerificationParameters,
): Promise<boolean> {
  const key =
    parameters.padding === undefined ? publicKey : { key: publicKey, padding: parameters.padding, saltLength: parameters.saltLength };
  return new Promise((resolve) => {
    try {
      verify(parameters.digest, data, key, signature, (error, valid) => resolve(error === null && valid));
    } catch {
      resolve(false);
    }
  });
}

export const RSA_PSS_PADDING = constants.RSA_PKCS1_PSS_PADDING;
