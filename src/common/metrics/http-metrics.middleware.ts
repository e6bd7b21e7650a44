import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from './metrics';

/** Mounted handlers that are not Express routes, labelled by their mount path. */
const MOUNTED_PATHS = ['/graphql', '/docs'];
const CATCH_ALL = /^\/?\{?\*/;

/**
 * Times every request into the duration histogram, labelled by the route template that answered
 * (`/api/dcim/sites/:id/`), never by the raw path: ids and unknown paths would make a series each.
 */
export function httpMetricsMiddleware(metrics: Metrics) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const stop = metrics.httpRequestDuration.startTimer();
    response.on('finish', () => stop({ method: request.method, route: routeLabel(request), status: String(response.statusCode) }));
    next();
  };
}

function routeLabel(request: Request): string {
  const route = request.route as { path?: unknown } | undefined;
  // A catch-all route (the API's 404 answer) matched nothing in particular.
  if (route && typeof route.path === 'string') return CATCH_ALL.test(route.path) ? 'unmatched' : route.path;
  const path = request.path;
  return MOUNTED_PATHS.find((mount) => path === mount || path.startsWith(`${mount}/`)) ?? 'unmatched';
}
