import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { Principal } from './principal';

export interface AuthenticatedRequest extends Request {
  principal?: Principal;
}

/** The caller's principal (undefined on optional-auth routes called anonymously). */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined => context.switchToHttp().getRequest<AuthenticatedRequest>().principal,
);
