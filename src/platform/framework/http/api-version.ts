import type { NextFunction, Request, Response } from 'express';

/**
 * The NetBox REST API version this platform implements. Clients read it from the `API-Version`
 * header (pynetbox's `Api.version`) and `netbox-version` of `/api/status/` to pick request shapes,
 * e.g. NetBox 4.5's port mappings and 4.2's circuit-termination targets, which are the ones used here.
 */
export const NETBOX_API_VERSION = '4.5';
export const NETBOX_COMPATIBLE_VERSION = '4.5.0';

/** Adds `API-Version` to every platform API answer, errors included, as NetBox does. */
export function apiVersionHeader(apiV1Prefix: string) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const path = request.originalUrl;
    if (path.startsWith('/api/') && !path.startsWith(`${apiV1Prefix}/`)) response.setHeader('API-Version', NETBOX_API_VERSION);
    next();
  };
}
