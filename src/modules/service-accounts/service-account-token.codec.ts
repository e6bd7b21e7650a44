import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'pki_sa_';
const TOKEN_PATTERN = /^pki_sa_([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

/** `pki_sa_<public_id>.<secret>`: 96-bit public id to find the row, 256-bit secret to prove possession. */
export function mintToken(): { token: string; publicId: string; secret: string } {
  const publicId = randomBytes(12).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  return { token: `${TOKEN_PREFIX}${publicId}.${secret}`, publicId, secret };
}

export function parseToken(token: string): { publicId: string; secret: string } | undefined {
  const match = TOKEN_PATTERN.exec(token);
  return match ? { publicId: match[1], secret: match[2] } : undefined;
}

/** HMAC-SHA256 of the secret under the server's pepper: a stolen database alone cannot test guesses. */
export function digestSecret(pepper: string, secret: string): string {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest('hex');
}

export function secretMatches(pepper: string, secret: string, storedDigest: string): boolean {
  const expected = Buffer.from(storedDigest, 'hex');
  const actual = Buffer.from(digestSecret(pepper, secret), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
