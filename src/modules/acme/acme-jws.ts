/**
 * JWS as ACME uses it (RFC 8555 §6.2): a flattened JSON serialization whose protected header carries alg, nonce,
 * url and exactly one of jwk or kid; no unprotected header. Keys are imported and signatures checked by node:crypto.
 */
import { createHash, createHmac, createPublicKey, type JsonWebKey, type KeyObject, timingSafeEqual, verify } from 'node:crypto';
import { AcmeProblem } from './acme-problem';

export const ACME_SIGNATURE_ALGORITHMS = ['RS256', 'ES256', 'ES384', 'EdDSA'] as const;
export type AcmeSignatureAlgorithm = (typeof ACME_SIGNATURE_ALGORITHMS)[number];

export interface AcmeJws {
  protected: string;
  payload: string;
  signature: string;
}

export interface ProtectedHeader {
  alg: AcmeSignatureAlgorithm;
  nonce: string;
  url: string;
  jwk?: JsonWebKey & Record<string, string>;
  kid?: string;
}

/** A request whose signature has been checked: its header and payload ('' for POST-as-GET). */
export interface VerifiedRequest {
  header: ProtectedHeader;
  /** The decoded payload text; empty for POST-as-GET. */
  payloadText: string;
  /** The public key that signed it (from jwk, or the account's key for kid). */
  key: KeyObject;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function base64UrlDecode(text: string, what: string): Buffer {
  if (typeof text !== 'string' || !BASE64URL.test(text)) throw new AcmeProblem('malformed', `${what} is not base64url`);
  return Buffer.from(text, 'base64url');
}

export const base64Url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** The body as a flattened JWS: exactly the three members RFC 8555 allows (no unprotected header, no general form). */
export function parseJws(body: unknown): AcmeJws {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AcmeProblem('malformed', 'The request body must be a JWS in flattened JSON serialization');
  }
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).filter((key) => !['protected', 'payload', 'signature'].includes(key));
  if (extra.length > 0) {
    throw new AcmeProblem('malformed', `The JWS has members ACME does not allow: ${extra.join(', ')} (only protected, payload, signature)`);
  }
  for (const member of ['protected', 'payload', 'signature'] as const) {
    if (typeof record[member] !== 'string') throw new AcmeProblem('malformed', `The JWS has no ${member} string`);
  }
  return record as unknown as AcmeJws;
}

function parseJsonObject(data: Buffer, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw new AcmeProblem('malformed', `${what} is not JSON`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new AcmeProblem('malformed', `${what} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

/** The protected header, checked for the members §6.2 requires; the signature is not yet checked. */
export function readProtectedHeader(jws: AcmeJws): ProtectedHeader {
  const header = parseJsonObject(base64UrlDecode(jws.protected, 'The protected header'), 'The protected header');
  const { alg, nonce, url, jwk, kid } = header;
  if (typeof alg !== 'string') throw new AcmeProblem('malformed', 'The protected header has no alg');
  if (!(ACME_SIGNATURE_ALGORITHMS as readonly string[]).includes(alg)) {
    throw new AcmeProblem('badSignatureAlgorithm', `alg ${JSON.stringify(alg)} is not supported`, undefined, ACME_SIGNATURE_ALGORITHMS);
  }
  if (typeof nonce !== 'string' || nonce === '') throw new AcmeProblem('badNonce', 'The protected header has no nonce');
  if (typeof url !== 'string') throw new AcmeProblem('malformed', 'The protected header has no url');
  if ((jwk === undefined) === (kid === undefined))
    throw new AcmeProblem('malformed', 'The protected header must have exactly one of jwk and kid');
  if (kid !== undefined && typeof kid !== 'string') throw new AcmeProblem('malformed', 'kid must be a string');
  if (jwk !== undefined && (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk))) {
    throw new AcmeProblem('malformed', 'jwk must be a JSON object');
  }
  return { alg: alg as AcmeSignatureAlgorithm, nonce, url, jwk: jwk as ProtectedHeader['jwk'], kid: kid as string | undefined };
}

/** The public key a JWK describes, refused when it holds a private part or is not of a supported kind. */
export function importJwk(jwk: Record<string, unknown>): KeyObject {
  if ('d' in jwk || 'p' in jwk || 'k' in jwk)
    throw new AcmeProblem('badPublicKey', 'The jwk must be a public key (it holds private key members)');
  if (jwk.kty !== 'RSA' && jwk.kty !== 'EC' && jwk.kty !== 'OKP')
    throw new AcmeProblem('badPublicKey', 'The jwk kty must be RSA, EC or OKP');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch (error) {
    throw new AcmeProblem('badPublicKey', `The jwk is not a usable public key: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new AcmeProblem('badPublicKey', 'RSA account keys must have at least 2048 bits');
  }
  return key;
}

/** Whether the key is of the kind `alg` signs with. */
function keyFitsAlgorithm(key: KeyObject, alg: AcmeSignatureAlgorithm): boolean {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  switch (alg) {
    case 'RS256':
      return key.asymmetricKeyType === 'rsa';
    case 'ES256':
      return key.asymmetricKeyType === 'ec' && curve === 'prime256v1';
    case 'ES384':
      return key.asymmetricKeyType === 'ec' && curve === 'secp384r1';
    case 'EdDSA':
      return key.asymmetricKeyType === 'ed25519';
  }
}

/** Checks the JWS signature with `key` under `alg` (ECDSA signatures are r‖s, RFC 7518 §3.4). */
export function verifySignature(jws: AcmeJws, alg: AcmeSignatureAlgorithm, key: KeyObject): void {
  if (!keyFitsAlgorithm(key, alg)) {
    throw new AcmeProblem('badSignatureAlgorithm', `alg ${alg} does not fit the account key`, undefined, ACME_SIGNATURE_ALGORITHMS);
  }
  const signingInput = Buffer.from(`${jws.protected}.${jws.payload}`, 'ascii');
  const signature = base64UrlDecode(jws.signature, 'The signature');
  const valid =
    alg === 'EdDSA'
      ? verify(null, signingInput, key, signature)
      : alg === 'RS256'
        ? verify('sha256', signingInput, key, signature)
        : verify(alg === 'ES256' ? 'sha256' : 'sha384', signingInput, { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (!valid) throw new AcmeProblem('malformed', 'The JWS signature does not verify');
}

/** RFC 7638 thumbprint (SHA-256, base64url) of a public key, computed from its JWK export's required members. */
export function jwkThumbprint(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' }) as Record<string, string>;
  const members = jwk.kty === 'RSA' ? ['e', 'kty', 'n'] : jwk.kty === 'EC' ? ['crv', 'kty', 'x', 'y'] : ['crv', 'kty', 'x'];
  const canonical = `{${members.map((name) => `${JSON.stringify(name)}:${JSON.stringify(jwk[name])}`).join(',')}}`;
  return createHash('sha256').update(canonical).digest('base64url');
}

/** The public JWK of a key, as stored for the account (only the key's public members). */
export function publicJwk(key: KeyObject): Record<string, string> {
  return key.export({ format: 'jwk' }) as Record<string, string>;
}

export function parsePayload(payloadText: string): Record<string, unknown> {
  return parseJsonObject(Buffer.from(payloadText, 'utf8'), 'The payload');
}

/** What a keyChange request's inner JWS (§7.3.5) says, once its signature by the new key has been checked. */
export interface KeyChangeRequest {
  newKey: KeyObject;
  url: string;
  account: unknown;
  oldKey: unknown;
}

/**
 * The inner JWS of keyChange (§7.3.5): flattened, its protected header with alg, url and the new key as jwk, and no
 * nonce and no kid; signed by that new key; its payload `{account, oldKey}`.
 */
export function readKeyChange(value: unknown): KeyChangeRequest {
  const jws = parseJws(value);
  const header = parseJsonObject(base64UrlDecode(jws.protected, 'The inner JWS protected header'), 'The inner JWS protected header');
  const { alg, url, jwk } = header;
  if (typeof alg !== 'string' || !(ACME_SIGNATURE_ALGORITHMS as readonly string[]).includes(alg)) {
    throw new AcmeProblem(
      'badSignatureAlgorithm',
      `inner JWS alg ${JSON.stringify(alg)} is not supported`,
      undefined,
      ACME_SIGNATURE_ALGORITHMS,
    );
  }
  if ('nonce' in header) throw new AcmeProblem('malformed', 'The inner JWS must not carry a nonce');
  if ('kid' in header) throw new AcmeProblem('malformed', 'The inner JWS must carry the new key as jwk, not a kid');
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk)) throw new AcmeProblem('malformed', 'The inner JWS has no jwk');
  if (typeof url !== 'string') throw new AcmeProblem('malformed', 'The inner JWS has no url');
  const newKey = importJwk(jwk as Record<string, unknown>);
  verifySignature(jws, alg as AcmeSignatureAlgorithm, newKey);
  const payload = parseJsonObject(base64UrlDecode(jws.payload, 'The inner JWS payload'), 'The inner JWS payload');
  return { newKey, url, account: payload.account, oldKey: payload.oldKey };
}

/** The parts of an externalAccountBinding JWS (§7.3.4) the server checks against a stored key. */
export interface ExternalAccountBinding {
  keyId: string;
  /** Verifies the HMAC with the stored key (constant time). */
  verify(hmacKey: Buffer): boolean;
}

/**
 * Reads an externalAccountBinding: a JWS with HS256/384/512, kid = EAB key id, url = the newAccount URL, no nonce,
 * whose payload is the account's JWK (the same key as the outer request's).
 */
export function readExternalAccountBinding(value: unknown, newAccountUrl: string, accountKey: KeyObject): ExternalAccountBinding {
  const jws = parseJws(value);
  const header = parseJsonObject(
    base64UrlDecode(jws.protected, 'The externalAccountBinding protected header'),
    'The externalAccountBinding protected header',
  );
  const hashes: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
  const hash = typeof header.alg === 'string' ? hashes[header.alg] : undefined;
  if (hash === undefined) throw new AcmeProblem('malformed', 'externalAccountBinding alg must be HS256, HS384 or HS512');
  if ('nonce' in header) throw new AcmeProblem('malformed', 'externalAccountBinding must not carry a nonce');
  if (header.url !== newAccountUrl) throw new AcmeProblem('malformed', 'externalAccountBinding url must be the newAccount URL');
  if (typeof header.kid !== 'string' || header.kid === '') throw new AcmeProblem('malformed', 'externalAccountBinding has no kid');
  const boundJwk = parseJsonObject(
    base64UrlDecode(jws.payload, 'The externalAccountBinding payload'),
    'The externalAccountBinding payload',
  );
  if (jwkThumbprint(importJwk(boundJwk)) !== jwkThumbprint(accountKey)) {
    throw new AcmeProblem('malformed', 'externalAccountBinding payload is not the account key');
  }
  const signature = base64UrlDecode(jws.signature, 'The externalAccountBinding signature');
  return {
    keyId: header.kid,
    verify: (hmacKey) => {
      const expected = createHmac(hash, hmacKey).update(`${jws.protected}.${jws.payload}`, 'ascii').digest();
      return expected.length === signature.length && timingSafeEqual(expected, signature);
    },
  };
}
