import { Injectable, Optional } from '@nestjs/common';
import { ForbiddenError } from '../errors/common-errors';
import { DomainError } from '../errors/domain-error';
import { ApiTokenResolver } from './api-token-resolver';
import { Principal } from './principal';
import { PrincipalResolver } from './principal-resolver';

const TOKEN = /^Token\s+(\S+)\s*$/i;
const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Every refusal on the platform API is a 403 with `{"detail": …}`, as NetBox answers. */
export class PlatformAccessDenied extends ForbiddenError {
  constructor(message: string) {
    super(message, 'permission_denied');
  }
}

/**
 * Authenticates platform API requests (REST and GraphQL): platform API tokens and the PKI side's
 * user JWTs, one identity store. Service-account tokens are for the PKI API only.
 */
@Injectable()
export class PlatformAuthenticator {
  constructor(
    private readonly bearer: PrincipalResolver,
    @Optional() private readonly apiTokens?: ApiTokenResolver,
  ) {}

  /**
   * @param method the HTTP method; `readOnly` requests (GraphQL, safe POSTs) pass `GET`.
   * @throws PlatformAccessDenied when credentials are missing, invalid, or a read-only token writes.
   */
  async authenticate(header: string | undefined, method: string): Promise<Principal> {
    if (!header) throw new PlatformAccessDenied('Authentication credentials were not provided.');
    const principal = await this.resolve(header);
    if (principal.apiToken && !principal.apiToken.writeEnabled && !SAFE_METHODS.has(method.toUpperCase())) {
      throw new PlatformAccessDenied('This token does not have write permission.');
    }
    return principal;
  }

  private async resolve(header: string): Promise<Principal> {
    const token = TOKEN.exec(header)?.[1];
    const bearer = BEARER.exec(header)?.[1];
    try {
      if (token && this.apiTokens) return await this.apiTokens.resolve(token);
      if (bearer) {
        const principal = await this.bearer.resolve(bearer);
        if (principal.kind === 'user') return principal;
      }
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'unauthenticated' || error.kind === 'forbidden')) {
        throw new PlatformAccessDenied(error instanceof PlatformAccessDenied ? error.message : 'Invalid token');
      }
      throw error;
    }
    throw new PlatformAccessDenied('Invalid token');
  }
}
