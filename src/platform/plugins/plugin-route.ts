import type { CollectionActionContext, OpenApiSchema, ResourceDefinition } from '../framework/resource/resource-declaration';

/**
 * A path parameter's type: an integer (digits only, within `minimum`…`maximum`, by default
 * 0…2147483647, PostgreSQL's integer) or a string (matching `pattern` when given). A value that is
 * not of its type answers 404, as a URL that names nothing (Django's `<int:pk>` converter).
 */
export type PathParameterSchema = { type: 'integer'; minimum?: number; maximum?: number } | { type: 'string'; pattern?: string };

/** How a plugin route appears in the platform's OpenAPI document. */
export interface PluginRouteDocumentation {
  summary: string;
  /** Every `{param}` of the path, described. */
  pathParameters?: Readonly<Record<string, { description: string; schema: PathParameterSchema }>>;
  /** Query parameters it reads. */
  parameters?: ReadonlyArray<{ name: string; description: string; schema: OpenApiSchema }>;
  /** A view of a model's objects that reads its list filters (`q`, tags, every field filter): documented as that model's. */
  filtersOf?: ResourceDefinition;
  /** Schema of a POST's JSON body. */
  request?: OpenApiSchema;
  /** Media type of a POST's body when not JSON (`message/rfc822`: read as text, the app parses it so). */
  requestMediaType?: string;
  /** Schema of the 200 answer. */
  response: OpenApiSchema;
  /** Media type of the 200 answer when the handler returns a {@link RouteResponse} (default `application/json`). */
  responseMediaType?: string;
}

/**
 * Who may call a route: any authenticated caller of the platform API, or a caller holding an
 * object permission on a model (`{objectType: 'dcim.device', action: 'view'}`).
 */
export type PluginRoutePermission = 'authenticated' | { objectType: string; action: string };

/** What a route's handler gets: the action context, plus the path parameters (validated, as strings). */
export interface PluginRouteContext extends CollectionActionContext {
  params: Readonly<Record<string, string>>;
  /** The request's headers, names lowercased (content negotiation: `accept`). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * An endpoint of a plugin that belongs to no one model, e.g. `GET /api/plugins/fms/closures/{device_id}/fiber-claims/`.
 * The handler's return value is the 200 answer as JSON, or a {@link RouteResponse} for another media type.
 */
export interface PluginRoute {
  method: 'GET' | 'POST';
  /** Relative to the plugin's base path, without slashes at the ends: `closures/{device_id}/fiber-claims`. */
  path: string;
  permission: PluginRoutePermission;
  /** A POST that only reads: allowed to read-only tokens. */
  safePost?: boolean;
  /**
   * A GET that also takes the platform token as `?token=` when no Authorization header is sent, for
   * clients that can only be given a URL (calendar subscriptions). The token then appears in URLs:
   * offer it only for read-only feeds.
   */
  queryToken?: boolean;
  /**
   * Also served at `/plugins/<name>/<path>`, where NetBox mounts a plugin's own (non-API) views: for
   * an upstream URL its users stored outside any client, such as a calendar subscription's feed.
   */
  alsoAtPluginUrl?: boolean;
  openapi: PluginRouteDocumentation;
  handle(context: PluginRouteContext): Promise<unknown>;
}

/** A route's answer that is not plain JSON: a body of another media type (GeoJSON, a rendered text), with headers of its own (an `ETag`). */
export class RouteResponse {
  private constructor(
    readonly contentType: string,
    readonly body: string | Buffer,
    readonly status: number,
    /** Further response headers (`ETag`, `Cache-Control`, `Content-Disposition`…). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  /** A JSON value under its own media type, e.g. `RouteResponse.json(collection, 'application/geo+json')`; status 200 unless told otherwise. */
  static json(value: unknown, mediaType: string, status = 200, headers: Readonly<Record<string, string>> = {}): RouteResponse {
    return new RouteResponse(mediaType, JSON.stringify(value), status, headers);
  }

  /** Text, e.g. a rendered configuration (`text/plain` unless told otherwise), or its UTF-8 bytes; status 200 unless told otherwise. */
  static text(
    body: string | Buffer,
    mediaType = 'text/plain',
    status = 200,
    headers: Readonly<Record<string, string>> = {},
  ): RouteResponse {
    return new RouteResponse(mediaType, body, status, headers);
  }

  /** 304 without a body: the caller's `If-None-Match` names the current `ETag`. */
  static notModified(etag: string): RouteResponse {
    return new RouteResponse('text/plain', '', 304, { ETag: etag });
  }
}

/** One segment of a route's path: a literal or a `{param}`. */
export type RouteSegment = { literal: string } | { param: string };

const LITERAL_SEGMENT = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const PARAM_SEGMENT = /^\{([a-z][a-z0-9_]*)\}$/;
/** The last segment may name a file for clients that expect one (a calendar feed's `maintenances.ics`). */
const FILE_SEGMENT = /^[a-z0-9]+(-[a-z0-9]+)*\.[a-z0-9]+$/;
const MAX_INTEGER = 2_147_483_647;

/** The segments of a route path, or a problem with it. */
export function routeSegments(path: string): RouteSegment[] | { problem: string } {
  if (path === '' || path.startsWith('/') || path.endsWith('/'))
    return { problem: 'its path must be relative, without slashes at the ends' };
  const segments: RouteSegment[] = [];
  const parts = path.split('/');
  for (const [index, part] of parts.entries()) {
    const param = PARAM_SEGMENT.exec(part);
    if (param) segments.push({ param: param[1] });
    else if (LITERAL_SEGMENT.test(part) || (index === parts.length - 1 && FILE_SEGMENT.test(part))) segments.push({ literal: part });
    else
      return {
        problem: `segment ${JSON.stringify(part)} must be lowercase words joined by hyphens (the last one may end in .ext), or {snake_case}`,
      };
  }
  if ('param' in segments[0]) return { problem: 'its path must start with a literal segment' };
  return segments;
}

/** Whether one URL could match both paths (same length, and each pair of segments equal or one a parameter). */
export function segmentsOverlap(a: readonly RouteSegment[], b: readonly RouteSegment[]): boolean {
  return (
    a.length === b.length &&
    a.every((segment, index) => 'param' in segment || 'param' in b[index] || segment.literal === (b[index] as { literal: string }).literal)
  );
}

/** The path parameters' names, in path order. */
export function pathParameterNames(segments: readonly RouteSegment[]): string[] {
  return segments.flatMap((segment) => ('param' in segment ? [segment.param] : []));
}

/** Express's form of the path: `closures/:device_id/fiber-claims`. */
export function expressPath(segments: readonly RouteSegment[]): string {
  return segments.map((segment) => ('param' in segment ? `:${segment.param}` : segment.literal)).join('/');
}

/** Whether a path parameter's value is of its declared type. */
export function isValidPathParameter(value: string, schema: PathParameterSchema): boolean {
  if (schema.type === 'string') return schema.pattern === undefined || new RegExp(schema.pattern).test(value);
  if (!/^(0|[1-9]\d{0,9})$/.test(value)) return false;
  const number = Number(value);
  return number >= (schema.minimum ?? 0) && number <= Math.min(schema.maximum ?? MAX_INTEGER, MAX_INTEGER);
}
