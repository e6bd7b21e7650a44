import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError, UnauthenticatedError } from '../errors/common-errors';
import { AuthenticatedRequest } from './current-principal.decorator';
import { ROUTE_ACCESS, RouteAccess } from './authenticated.decorator';
import { PlatformAuthenticator } from './platform-authenticator';
import { PrincipalResolver } from './principal-resolver';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The one global guard. It reads the route's access declaration, resolves the bearer credential
 * into a principal, and checks principal kind and role. A route without a declaration is refused:
 * access must be decided on purpose, never by omission.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: PrincipalResolver,
    private readonly platform: PlatformAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
    if (!access) throw new ForbiddenError('This route has no access declaration', 'route_access_undeclared');
    if (access.kind === 'public') return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.header('authorization');
    if (access.kind === 'platform') {
      const queryToken =
        access.queryToken && !header && typeof request.query.token === 'string' ? `Token ${request.query.token}` : undefined;
      request.principal = await this.platform.authenticate(header ?? queryToken, access.safePost ? 'GET' : request.method);
      return true;
    }
    if (!header) {
      if (access.optional) return true;
      throw new UnauthenticatedError();
    }
    const credential = BEARER.exec(header)?.[1];
    if (!credential) throw new UnauthenticatedError('Could not validate credentials', 'invalid_credentials');
    const principal = await this.resolver.resolve(credential);
    if (!access.principals.includes(principal.kind)) {
      throw new UnauthenticatedError('This endpoint requires a user session', 'user_session_required');
    }
    if (access.roles && !access.roles.includes(principal.role)) {
      throw new ForbiddenError("The user doesn't have sufficient privileges", 'insufficient_role');
    }
    request.principal = principal;
    return true;
  }
}
