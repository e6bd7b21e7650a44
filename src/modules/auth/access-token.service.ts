import { Injectable } from '@nestjs/common';
import { createSecretKey, randomUUID } from 'node:crypto';
import { AppConfig } from '../../common/config/app-config';
import { ROLES, Role } from '../../common/auth/principal';
import { UnauthenticatedError } from '../../common/errors/common-errors';
import { HmacJwt } from './hmac-jwt';

export interface AccessTokenClaims {
  /** username */
  sub: string;
  /** user id */
  id: number;
  role: Role;
  /** issued at, seconds since the epoch */
  iat: number;
  exp: number;
  /** unique token id (blocklisting) */
  jti: string;
  /** session the token belongs to (logout and refresh-reuse revoke the session) */
  sid: string;
}

export interface SignedAccessToken {
  token: string;
  claims: AccessTokenClaims;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Signs and verifies access tokens: HMAC JWTs with the configured key and algorithm only. */
@Injectable()
export class AccessTokenService {
  private readonly jwt: HmacJwt;

  constructor(private readonly config: AppConfig) {
    this.jwt = new HmacJwt(createSecretKey(Buffer.from(config.secretKey)), config.algorithm);
  }

  sign(user: { id: number; username: string; role: Role }, sessionId: string): SignedAccessToken {
    const iat = Math.floor(Date.now() / 1000);
    const claims: AccessTokenClaims = {
      sub: user.username,
      id: user.id,
      role: user.role,
      iat,
      exp: iat + this.config.accessTokenExpireMinutes * 60,
      jti: randomUUID(),
      sid: sessionId,
    };
    return { token: this.jwt.sign(claims), claims };
  }

  /**
   * Verifies signature, algorithm (only the configured one: `none` and key-confusion tricks fail),
   * expiry and the shape of every claim. Any failure is the same 401.
   */
  verify(token: string): AccessTokenClaims {
    const payload = this.jwt.verify(token, Math.floor(Date.now() / 1000));
    if (!payload || !isAccessTokenClaims(payload)) throw invalidCredentials();
    return payload;
  }
}

export function invalidCredentials(): UnauthenticatedError {
  return new UnauthenticatedError('Could not validate credentials', 'invalid_credentials');
}

function isAccessTokenClaims(value: unknown): value is AccessTokenClaims {
  if (typeof value !== 'object' || value === null) return false;
  const claims = value as Record<string, unknown>;
  return (
    typeof claims.sub === 'string' &&
    Number.isSafeInteger(claims.id) &&
    (claims.id as number) > 0 &&
    ROLES.includes(claims.role as Role) &&
    Number.isSafeInteger(claims.iat) &&
    Number.isSafeInteger(claims.exp) &&
    typeof claims.jti === 'string' &&
    UUID.test(claims.jti) &&
    typeof claims.sid === 'string' &&
    UUID.test(claims.sid)
  );
}
