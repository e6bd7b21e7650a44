import { Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/** What this file relies on of Express 5's router (the `router` package): its layers and options. */
interface RouterLayer {
  route?: { path: unknown };
  match(path: string): unknown;
}
export interface RouterStack {
  stack: RouterLayer[];
  caseSensitive?: boolean;
}

/** A path segment that is not plain text: a parameter, a wildcard, an optional group or an escape. */
const PATTERN_SYNTAX = /[:*{}()[\]?+!\\]/;

/**
 * Express tries every route in turn with its regular expression until one matches: with the
 * platform's ~800 routes, reaching a plugin's (registered last) cost about a millisecond of regular
 * expressions per request. Each route with a literal leading part (`/api/plugins/fms/fiber-strands`
 * of `/api/plugins/fms/fiber-strands/:id/`) now first compares that text with the path and runs its
 * expression only when they agree. A route whose literal part the path does not start with could
 * never have matched, so what answers a request does not change; the router itself, its order and
 * its handling of errors, OPTIONS and HEAD are untouched.
 */
export function prefilterRoutes(router: RouterStack): void {
  const fold = router.caseSensitive ? (path: string) => path : (path: string) => path.toLowerCase();
  // Every layer sees the same path in turn: fold it once per request, not once per route.
  let lastPath: string | undefined;
  let lastFolded = '';
  for (const layer of router.stack) {
    if (!layer.route) continue;
    const prefix = literalPrefix(layer.route.path);
    if (!prefix) continue;
    const expected = fold(prefix);
    const match = layer.match.bind(layer);
    layer.match = (path: string) => {
      if (path !== lastPath) {
        lastPath = path;
        lastFolded = fold(path);
      }
      const next = lastFolded.charCodeAt(expected.length);
      // The literal part must end at a segment boundary: `/health` is not a prefix of `/healthz`.
      if (!lastFolded.startsWith(expected) || !(Number.isNaN(next) || next === SLASH)) return false;
      return match(path);
    };
  }
}

const SLASH = '/'.charCodeAt(0);

/** The leading plain-text segments of a route path as `/a/b`; empty for a regular expression or a list of paths. */
function literalPrefix(path: unknown): string {
  if (typeof path !== 'string') return '';
  let prefix = '';
  for (const segment of path.split('/').slice(1)) {
    if (segment === '' || PATTERN_SYNTAX.test(segment)) break;
    prefix += `/${segment}`;
  }
  return prefix;
}

/** Prefilters the application's routes once every module has registered its own (Nest's bootstrap hook). */
@Injectable()
class RoutePrefilterInstaller implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const instance = this.adapterHost.httpAdapter?.getInstance() as { router?: RouterStack } | undefined;
    if (instance?.router) prefilterRoutes(instance.router);
  }
}

@Module({ providers: [RoutePrefilterInstaller] })
export class RoutePrefilterModule {}
