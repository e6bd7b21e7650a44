import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input; `detail` names each bad field',
  401: 'Not authenticated',
  403: 'Insufficient role or capability',
  404: 'Not found, or outside the caller’s organization',
  409: 'Conflicts with the current state',
  429: 'Too many requests',
  503: 'A dependency is unavailable',
};

/** Documents the error statuses an operation can answer, all with the common error body. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type: ErrorBodyDto })),
  );
}
