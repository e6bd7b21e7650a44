import { METHOD_METADATA, MODULE_PATH, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { describeRouteAccess, ROUTE_ACCESS, RouteAccess } from '../src/common/auth/authenticated.decorator';
import { startTestApp, TestApp } from './support/test-app';

interface RouteDeclaration {
  route: string;
  access: string;
}

function joinPaths(...parts: Array<string | undefined>): string {
  const joined = parts
    .flatMap((part) => (part ?? '').split('/'))
    .filter((segment) => segment !== '')
    .join('/');
  return `/${joined}`;
}

/** Every route of every controller, with its access declaration, as Nest registers them. */
function declaredRoutes(testApp: TestApp): RouteDeclaration[] {
  const modules = testApp.app.get(ModulesContainer);
  const discovery = new DiscoveryService(modules);
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  const applicationId = modules.applicationId;
  const routes: RouteDeclaration[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
    if (!controller || !wrapper.host) continue;
    const modulePath = Reflect.getMetadata(MODULE_PATH + applicationId, wrapper.host.metatype) as string | undefined;
    const controllerPath = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    for (const methodName of scanner.getAllMethodNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[methodName] as object;
      const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (methodPath === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const access = reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [handler as never, controller]);
      routes.push({ route: `${method} ${joinPaths(modulePath, controllerPath, methodPath)}`, access: describeRouteAccess(access) });
    }
  }
  return routes.sort((a, b) => a.route.localeCompare(b.route));
}

describe('route access declarations', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('declares who may call every route, on purpose', () => {
    const undeclared = declaredRoutes(testApp).filter((route) => route.access === 'UNDECLARED');
    expect(undeclared).toEqual([]);
  });

  it('matches the committed snapshot (review every change to who may call what)', () => {
    const table = declaredRoutes(testApp)
      .map((route) => `${route.route.padEnd(60)} ${route.access}`)
      .join('\n');
    expect(`\n${table}\n`).toMatchSnapshot();
  });

  it('sees the routes the app serves', async () => {
    const routes = declaredRoutes(testApp).map((route) => route.route);
    expect(routes).toEqual(expect.arrayContaining(['GET /health', 'POST /api/v1/auth/token', 'GET /api/v1/users/me']));
    const unlisted = await fetch(`${testApp.baseUrl}/api/v1/users/me`);
    expect(unlisted.status).toBe(401);
  });
});
