import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import type { JwtAlgorithm } from '../../common/config/app-config';

const HASH_OF: Record<JwtAlgorithm, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/**
 * JSON Web Tokens signed with one HMAC key and one algorithm (JWS compact serialization, RFC 7515
 * and 7519), which is all access tokens need. Written out rather than taken from a general JWT
 * library: checking one algorithm and one key costs a fraction of a library's option handling on
 * every authenticated request, and there is no algorithm negotiation to get wrong.
 */
export class HmacJwt {
  private readonly hash: string;
  private readonly encodedHeader: string;

  constructor(
    private readonly key: KeyObject,
    private readonly algorithm: JwtAlgorithm,
  ) {
    this.hash = HASH_OF[algorithm];
    this.encodedHeader = Buffer.from(JSON.stringify({ alg: algorithm, typ: 'JWT' })).toString('base64url');
  }

  sign(payload: object): string {
    const signingInput = `${this.encodedHeader}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${signingInput}.${this.signature(signingInput)}`;
  }

  /**
   * The payload of a token whose header names this algorithm, whose signature is this key's, and
   * whose `exp` and `nbf` (when present; numbers, in seconds) admit `now`; undefined for anything else.
   */
  verify(token: string, nowSeconds: number): Record<string, unknown> | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [encodedHeader, encodedPayload, signature] = parts;
    // The encoded strings are compared, not decoded bytes: base64url decoding skips stray characters.
    const expected = Buffer.from(this.signature(`${encodedHeader}.${encodedPayload}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const header = decodeJsonObject(encodedHeader);
    if (header?.alg !== this.algorithm) return undefined;
    const payload = decodeJsonObject(encodedPayload);
    if (!payload) return undefined;
    const { exp, nbf } = payload;
    if (exp !== undefined && (typeof exp !== 'number' || nowSeconds >= exp)) return undefined;
    if (nbf !== undefined && (typeof nbf !== 'number' || nowSeconds < nbf)) return undefined;
    return payload;
  }

  private signature(signingInput: string): string {
    return createHmac(this.hash, this.key).update(signingInput).digest('base64url');
  }
}

function decodeJsonObject(encoded: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
