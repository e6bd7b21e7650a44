import { Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What this file relies on of Express 5's router (the `router` package): its layers, options and dispatch. */
interface RouterLayer {
  route?: { path: unknown };
}
export interface IndexableRouter {
  stack: RouterLayer[];
  caseSensitive?: boolean;
  handle: (this: IndexableRouter, request: IncomingMessage, response: ServerResponse, done: (error?: unknown) => void) => void;
}

/** A path segment that is not plain text: a parameter, a wildcard, an optional group or an escape. */
const PATTERN_SYNTAX = /[:*{}()[\]?+!\\]/;

/**
 * Express walks its whole stack for every request, trying each route in turn: with the platform's
 * ~800 routes, reaching a plugin's (registered last) costs a third of a millisecond of loop alone. A
 * route whose leading plain-text segments (`/api/plugins/fms/fiber-strands` of
 * `/api/plugins/fms/fiber-strands/:id/`) are not leading segments of the request's path can never
 * match it, so each request is dispatched over the stack without those routes: the same
 * layers, in the same order, with Express's own matching, OPTIONS, HEAD and error handling. The
 * stacks are built once per longest matching prefix and rebuilt when routes are added. Nothing
 * here rewrites `req.url` between middleware and routes, which this relies on.
 */
export function indexRoutes(router: IndexableRouter): void {
  const fold = router.caseSensitive ? (path: string) => path : (path: string) => path.toLowerCase();
  let indexed: RouterLayer[] = [];
  let indexedLength = -1;
  let prefixes: string[] = [];
  let known = new Set<string>();
  const stacks = new Map<string, RouterLayer[]>();

  const reindex = (stack: RouterLayer[]) => {
    indexed = stack;
    indexedLength = stack.length;
    prefixes = stack.map((layer) => (layer.route ? fold(literalPrefix(layer.route.path)) : ''));
    known = new Set(prefixes.filter((prefix) => prefix !== ''));
    stacks.clear();
  };

  /** The stack for paths whose longest leading segments among the routes' prefixes are `longest` ('' for none). */
  const stackFor = (longest: string) => {
    let stack = stacks.get(longest);
    if (!stack) {
      stack = indexed.filter((_, index) => prefixes[index] === '' || isLeadingSegments(prefixes[index], longest));
      stacks.set(longest, stack);
    }
    return stack;
  };

  const dispatch = router.handle;
  router.handle = function handleIndexed(this: IndexableRouter, request, response, done) {
    const url = request.url ?? '';
    // An absolute-form target (`GET http://host/path`) is left to the full scan.
    if (!url.startsWith('/')) return dispatch.call(this, request, response, done);
    const full = this.stack;
    if (full !== indexed || full.length !== indexedLength) reindex(full);
    const query = url.indexOf('?');
    const path = fold(query === -1 ? url : url.slice(0, query));
    let longest = '';
    for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) {
      const leading = end === path.length ? path : path.slice(0, end);
      if (known.has(leading)) {
        longest = leading;
        break;
      }
    }
    // The router reads its stack once, when a request enters it: this request walks the narrowed one.
    this.stack = stackFor(longest);
    try {
      return dispatch.call(this, request, response, done);
    } finally {
      this.stack = full;
    }
  };
}

/** Whether `prefix` is `path` or its leading whole segments: `/health` is not a prefix of `/healthz`. */
function isLeadingSegments(prefix: string, path: string): boolean {
  return path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === SLASH);
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

/** Indexes the application's routes once every module has registered its own (Nest's bootstrap hook). */
@Injectable()
class RouteIndexInstaller implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const instance = this.adapterHost.httpAdapter?.getInstance() as { router?: IndexableRouter } | undefined;
    if (instance?.router) indexRoutes(instance.router);
  }
}

@Module({ providers: [RouteIndexInstaller] })
export class RouteIndexModule {}
