import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IndexableRouter, indexRoutes } from './route-index';

/** An app whose routes answer with their own name and params; `indexed` dispatches them through indexRoutes. */
function buildApp(indexed: boolean): express.Express {
  const app = express();
  app.use((request, response, next) => {
    response.setHeader('x-before', 'yes');
    next();
  });
  const answer = (name: string) => (request: express.Request, response: express.Response) =>
    response.json({ name, params: request.params, baseUrl: request.baseUrl });
  app.get('/health', answer('health'));
  app.get('/api/status/', answer('status'));
  app.get('/api/dcim/devices/:id/', (request, response, next) => (request.params.id === 'skip' ? next() : next('route')));
  for (const model of ['sites', 'devices', 'racks', 'cables', 'regions', 'tenants']) {
    app.get(`/api/dcim/${model}/`, answer(`${model} list`));
    app.post(`/api/dcim/${model}/`, answer(`${model} create`));
    app.get(`/api/dcim/${model}/:id/`, answer(`${model} detail`));
    app.delete(`/api/dcim/${model}/:id/`, answer(`${model} delete`));
  }
  app.get('/api/dcim/sites/export/', answer('never: the detail route is registered first'));
  app.get('/api/:app/search/', answer('app search'));
  app.get('/api/plugins/fms/fiber-strands/:id/trace/', answer('trace'));
  app.get('/api/plugins/fms/fiber-strands/', answer('strands'));
  app.get('/ca/:name.pem', answer('ca pem'));
  app.get('/files/*path', answer('files'));
  app.get(/^\/legacy\/(\d+)$/, answer('regular expression'));
  app.get('/boom/', () => {
    throw new Error('boom');
  });
  app.use((request, response) => response.status(404).json({ name: 'not found' }));
  app.use((error: Error, request: express.Request, response: express.Response, next: express.NextFunction) => {
    if (response.headersSent) return next(error);
    response.status(500).json({ name: 'error', message: error.message });
  });
  if (indexed) indexRoutes(app.router as unknown as IndexableRouter);
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
  const server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const REQUESTS: Array<[string, string]> = [
  ['GET', '/health'],
  ['GET', '/HEALTH'],
  ['GET', '/health/'],
  ['GET', '/api/status'],
  ['GET', '/api/status/?brief=1'],
  ['GET', '/api/dcim/sites/'],
  ['GET', '/API/Dcim/Sites/'],
  ['POST', '/api/dcim/racks/'],
  ['GET', '/api/dcim/racks/7/'],
  ['DELETE', '/api/dcim/racks/7/'],
  ['PUT', '/api/dcim/racks/7/'],
  ['GET', '/api/dcim/sites/export/'],
  ['GET', '/api/dcim/search/'],
  ['GET', '/api/dcim/devices/skip/'],
  ['GET', '/api/dcim/devices/5/'],
  ['GET', '/legacy/42'],
  ['GET', '/healthz'],
  ['GET', '/api/statusx/'],
  ['GET', '/api/plugins/fms/fiber-strands/'],
  ['GET', '/api/plugins/fms/fiber-strands/12/trace/'],
  ['GET', '/api/plugins/fms/fiber-strands/12/'],
  ['GET', '/api//dcim/sites/'],
  ['GET', '//api/dcim/sites/'],
  ['GET', '/ca/root.pem'],
  ['GET', '/files/a/b//c.txt'],
  ['GET', '/api/dcim/sites/%31/'],
  ['GET', '/nowhere/'],
  ['GET', '/boom/'],
  ['HEAD', '/api/dcim/sites/'],
  ['OPTIONS', '/api/dcim/racks/7/'],
];

describe('indexRoutes', () => {
  let plain: { server: Server; base: string };
  let indexed: { server: Server; base: string };

  beforeAll(async () => {
    plain = await listen(buildApp(false));
    indexed = await listen(buildApp(true));
  });
  afterAll(async () => {
    await Promise.all([plain, indexed].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });

  it.each(REQUESTS)('answers %s %s exactly as a full scan of the routes does', async (method, path) => {
    const read = async (base: string) => {
      const response = await fetch(`${base}${path}`, { method });
      return {
        status: response.status,
        allow: response.headers.get('allow'),
        before: response.headers.get('x-before'),
        body: await response.text(),
      };
    };
    const [expected, actual] = await Promise.all([read(plain.base), read(indexed.base)]);
    expect(actual).toEqual(expected);
  });

  it('reaches the route a request names, with its params', async () => {
    const response = await fetch(`${indexed.base}/api/plugins/fms/fiber-strands/12/trace/`);
    expect(await response.json()).toEqual({ name: 'trace', params: { id: '12' }, baseUrl: '' });
    const skipped = await fetch(`${indexed.base}/api/dcim/devices/skip/`);
    expect(await skipped.json()).toEqual({ name: 'devices detail', params: { id: 'skip' }, baseUrl: '' });
    const pattern = await fetch(`${indexed.base}/legacy/42`);
    expect(await pattern.json()).toEqual({ name: 'regular expression', params: { 0: '42' }, baseUrl: '' });
  });

  it('tries only the routes whose leading segments the path starts with, and finds routes added after indexing', async () => {
    const app = buildApp(true);
    const router = app.router as unknown as { stack: Array<{ route?: { path: unknown }; match(path: string): unknown }> };
    const tried: unknown[] = [];
    for (const layer of router.stack) {
      const match = layer.match.bind(layer);
      layer.match = (path: string) => {
        if (layer.route) tried.push(layer.route.path);
        return match(path);
      };
    }
    const late = express();
    late.get('/api/early/', (request, response) => response.json({ name: 'early' }));
    indexRoutes(late.router as unknown as IndexableRouter);
    late.get('/api/late/', (request, response) => response.json({ name: 'late' }));
    const [server, lateServer] = await Promise.all([listen(app), listen(late)]);
    try {
      expect(await (await fetch(`${server.base}/api/plugins/fms/fiber-strands/`)).json()).toMatchObject({ name: 'strands' });
      expect(tried).toEqual(['/api/:app/search/', '/api/plugins/fms/fiber-strands/:id/trace/', '/api/plugins/fms/fiber-strands/']);
      expect(await (await fetch(`${lateServer.base}/api/early/`)).json()).toEqual({ name: 'early' });
      expect(await (await fetch(`${lateServer.base}/api/late/`)).json()).toEqual({ name: 'late' });
    } finally {
      await Promise.all([server, lateServer].map(({ server: open }) => new Promise((resolve) => open.close(resolve))));
    }
  });
});
