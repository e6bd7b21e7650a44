import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { PrincipalKind, Role } from './principal';

export const ROUTE_ACCESS = 'route_access';

/** Who may call a route. Every route declares one, through exactly one of the decorators below. */
export type RouteAccess =
  | { kind: 'public' }
  /**
   * The NetBox-style platform API: a platform token (`Token <key>`) or a user's bearer JWT, refused
   * with 403 (never 401) as NetBox does; read-only tokens may use safe methods and `safePost` routes.
   * What the caller may see and change is then decided by object permissions.
   */
  | {
      kind: 'platform';
      safePost: boolean;
      /** Also accepts the platform token as `?token=` when no Authorization header is sent (calendar clients cannot send one). */
      queryToken?: boolean;
    }
  | {
      kind: 'authenticated';
      /** Roles allowed; every role when absent. */
      roles?: readonly Role[];
      /** Principal kinds allowed; users only unless a route opts in to service accounts. */
      principals: readonly PrincipalKind[];
      /** When true, a request without credentials proceeds anonymously (bad credentials still fail). */
      optional: boolean;
    };

export interface AuthenticatedOptions {
  roles?: readonly Role[];
  allowServiceAccounts?: boolean;
  optional?: boolean;
}

/** The route needs a valid bearer token (a user session unless service accounts are allowed). */
export function Authenticated(options: AuthenticatedOptions = {}): MethodDecorator & ClassDecorator {
  const access: RouteAccess = {
    kind: 'authenticated',
    roles: options.roles,
    principals: options.allowServiceAccounts ? ['user', 'service_account'] : ['user'],
    optional: options.optional ?? false,
  };
  const errors = options.roles ? [401, 403] : [401];
  // An empty requirement next to the bearer one is OpenAPI's way of saying "or no credentials".
  const security = access.optional ? [ApiBearerAuth(), ApiSecurity({})] : [ApiBearerAuth()];
  return applyDecorators(SetMetadata(ROUTE_ACCESS, access), ...security, ApiErrorResponses(...errors));
}

/** The route is open to anyone, on purpose. */
export function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata(ROUTE_ACCESS, { kind: 'public' } satisfies RouteAccess);
}

/** A platform API route (see RouteAccess); `safePost` marks a POST that only reads. */
export function PlatformApi(options: { safePost?: boolean; queryToken?: boolean } = {}): MethodDecorator & ClassDecorator {
  const access: RouteAccess = { kind: 'platform', safePost: options.safePost ?? false };
  if (options.queryToken) access.queryToken = true;
  return SetMetadata(ROUTE_ACCESS, access);
}

/** How a route's access reads in the committed route snapshot and in error messages. */
export function describeRouteAccess(access: RouteAccess | undefined): string {
  if (!access) return 'UNDECLARED';
  if (access.kind === 'public') return 'public';
  if (access.kind === 'platform') return `${access.safePost ? 'platform safe-post' : 'platform'}${access.queryToken ? ' query-token' : ''}`;
  const parts = [access.optional ? 'optional' : 'authenticated'];
  parts.push(`roles=${access.roles ? access.roles.join('|') : 'any'}`);
  parts.push(`principals=${access.principals.join('|')}`);
  return parts.join(' ');
}
