import type { NextFunction, Request, Response } from 'express';

/** Paths of static documentation assets, which may be cached; everything else is API output. */
const CACHEABLE_PREFIX = '/docs/';

/**
 * Headers every response carries. API answers are never cached by browsers or proxies (they hold
 * credentials and keys); HSTS is only sent over HTTPS, where browsers honour it.
 */
export function securityHeadersMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  if (!req.path.startsWith(CACHEABLE_PREFIX)) res.setHeader('Cache-Control', 'no-store');
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
  next();
}
