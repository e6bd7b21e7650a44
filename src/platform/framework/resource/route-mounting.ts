import { Body, Get, HttpCode, Param, Post, Query, Req, Res, Type } from '@nestjs/common';
import { PlatformApi } from '../../../common/auth/authenticated.decorator';

/** What a mounted route's handler receives, in its parameters' order, each supplied by Nest from the request. */
export type RouteArgument = 'request' | 'response' | 'id' | 'body' | 'query';

const ARGUMENTS: Readonly<Record<RouteArgument, { decorator: () => ParameterDecorator; type: Type | typeof Object }>> = {
  request: { decorator: () => Req(), type: Object },
  response: { decorator: () => Res(), type: Object },
  id: { decorator: () => Param('id'), type: String },
  body: { decorator: () => Body(), type: Object },
  query: { decorator: () => Query(), type: Object },
};

/** A route whose method, path and name come from a declaration (a model's action, a plugin's route). */
export interface DeclaredRoute {
  /** The handler's name on the controller: it shows in logs and the route-access snapshot. */
  key: string;
  method: 'GET' | 'POST';
  /** Express path under the controller's. */
  path: string;
  arguments: readonly RouteArgument[];
  /** A POST that only reads: allowed to read-only tokens. */
  safePost?: boolean;
  /** A POST's status when the handler answers (default 200). */
  status?: 200 | 201;
  /** A GET that also takes the platform token as `?token=`. */
  queryToken?: boolean;
  // Becomes a method of the controller: Nest calls it with the controller instance as `this`.
  handle: (...args: never[]) => unknown;
}

/**
 * Adds a declared route to a controller class with Nest's decorators applied programmatically, as
 * the compiler would for a declared method. A POST answers 200 (or the route's `status`) rather than
 * Nest's 201, unless the handler sends the answer itself (`response`). Every route is a platform API route.
 */
export function mountRoute(controller: Type, route: DeclaredRoute): void {
  const prototype = controller.prototype as Record<string, unknown>;
  const { key } = route;
  prototype[key] = route.handle;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
  // What the compiler emits for a declared method: without it Nest warns at start-up that the
  // validation pipe cannot see the parameters' types. Object (like `unknown`) means "not validated here".
  Reflect.defineMetadata(
    'design:paramtypes',
    route.arguments.map((argument) => ARGUMENTS[argument].type),
    prototype,
    key,
  );
  route.arguments.forEach((argument, index) => ARGUMENTS[argument].decorator()(prototype, key, index));
  (route.method === 'GET' ? Get : Post)(route.path)(prototype, key, descriptor);
  if (route.method === 'POST' && !route.arguments.includes('response')) HttpCode(route.status ?? 200)(prototype, key, descriptor);
  PlatformApi({ safePost: route.safePost, queryToken: route.queryToken })(prototype, key, descriptor);
}
