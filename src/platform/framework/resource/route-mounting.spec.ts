import { RequestMethod } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ROUTE_ACCESS } from '../../../common/auth/authenticated.decorator';
import { mountRoute } from './route-mounting';

class Probe {}
const prototype = Probe.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;

/** The handler's parameters as Nest will supply them: index → what from the request. */
function argumentsOf(key: string): Record<number, RouteParamtypes> {
  const metadata = Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, key) as Record<string, { index: number }>;
  return Object.fromEntries(Object.entries(metadata).map(([entry, { index }]) => [index, Number(entry.split(':')[0])]));
}

describe('mountRoute', () => {
  mountRoute(Probe, {
    key: 'action_trace',
    method: 'GET',
    path: ':id/trace',
    arguments: ['request', 'id', 'body', 'query'],
    handle: (...args: never[]) => ['traced', ...args],
  });
  mountRoute(Probe, {
    key: 'collection_post_summary',
    method: 'POST',
    path: 'summary',
    arguments: ['body'],
    safePost: true,
    handle: () => 1,
  });
  mountRoute(Probe, {
    key: 'route_0_post',
    method: 'POST',
    path: 'feeds/:name',
    arguments: ['request', 'response'],
    queryToken: true,
    handle: () => undefined,
  });

  it('adds the handler under its key, with the method, path and parameters Nest reads', () => {
    expect(prototype.action_trace('a', 'b')).toEqual(['traced', 'a', 'b']);
    expect(Reflect.getMetadata(METHOD_METADATA, prototype.action_trace)).toBe(RequestMethod.GET);
    expect(Reflect.getMetadata(PATH_METADATA, prototype.action_trace)).toBe(':id/trace');
    expect(argumentsOf('action_trace')).toEqual({
      0: RouteParamtypes.REQUEST,
      1: RouteParamtypes.PARAM,
      2: RouteParamtypes.BODY,
      3: RouteParamtypes.QUERY,
    });
    expect(Reflect.getMetadata('design:paramtypes', prototype, 'action_trace')).toEqual([Object, String, Object, Object]);
    expect(Reflect.getMetadata(ROUTE_ACCESS, prototype.action_trace)).toEqual({ kind: 'platform', safePost: false });
  });

  it('answers a POST 200, unless the handler sends the answer itself', () => {
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, prototype.collection_post_summary)).toBe(200);
    expect(Reflect.getMetadata(ROUTE_ACCESS, prototype.collection_post_summary)).toEqual({ kind: 'platform', safePost: true });
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, prototype.route_0_post)).toBeUndefined();
    expect(argumentsOf('route_0_post')).toEqual({ 0: RouteParamtypes.REQUEST, 1: RouteParamtypes.RESPONSE });
  });

  it('marks a route that takes the token in the query', () => {
    expect(Reflect.getMetadata(ROUTE_ACCESS, prototype.route_0_post)).toEqual({ kind: 'platform', safePost: false, queryToken: true });
  });
});
