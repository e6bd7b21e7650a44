import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, createBootstrapSuperuser, PASSWORD } from './support/api-client';
import { startWorker } from './support/mail-worker-process';
import { freePort, ServerProcess } from './support/server-process';
import { createTestDatabase } from './support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from './support/timing';

// Each test boots server processes itself; a loaded machine makes each boot many times slower.
jest.setTimeout(PROCESS_TEST_TIMEOUT_MS);

/** An OTLP/HTTP receiver: keeps every request body (JSON, as the server's exporter sends it). */
class OtlpReceiver {
  readonly requests: Array<{ path: string; contentType: string; body: string }> = [];
  private readonly server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.requests.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface ExportedSpan {
  serviceName: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

/** The spans of OTLP JSON export requests, each with its resource's service.name and its attributes as a map. */
function spansOf(bodies: string[]): ExportedSpan[] {
  type KeyValue = { key: string; value: Record<string, unknown> };
  const attributes = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));
  return bodies.flatMap((body) =>
    (JSON.parse(body) as { resourceSpans: any[] }).resourceSpans.flatMap((resourceSpans) => {
      const serviceName = attributes(resourceSpans.resource.attributes)['service.name'] as string;
      return (resourceSpans.scopeSpans as any[]).flatMap((scope) =>
        (scope.spans as any[]).map((span) => ({
          serviceName,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind,
          attributes: attributes(span.attributes),
        })),
      );
    }),
  );
}

/**
 * The built server with OpenTelemetry tracing: on when OTEL_EXPORTER_OTLP_ENDPOINT is set (spans
 * POSTed to its /v1/traces as OTLP JSON), absent otherwise. A preloaded script records, per process,
 * which modules were loaded, so "off" is checked as "the SDK was never loaded", not only "nothing sent".
 */

describe('tracing (OpenTelemetry)', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'tracing-'));
  const modulesDir = join(workDir, 'modules');
  const preload = join(workDir, 'record-modules.js');
  let receiver: OtlpReceiver;
  let collectorUrl: string;

  beforeAll(async () => {
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(modulesDir)} + '/' + process.pid + '.json', JSON.stringify(Object.keys(require.cache))));\n`,
    );
    receiver = new OtlpReceiver();
    collectorUrl = await receiver.start();
  });

  afterAll(async () => {
    await receiver?.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  /** The modules each process of a run loaded, by pid. */
  const loadedModules = (): Map<number, string[]> => {
    const byPid = new Map<number, string[]>();
    for (const file of readdirSync(modulesDir)) {
      byPid.set(Number(file.replace('.json', '')), JSON.parse(readFileSync(join(modulesDir, file), 'utf8')) as string[]);
    }
    return byPid;
  };
  const loadsTracingSdk = (modules: string[]) => modules.some((path) => path.includes('/node_modules/@opentelemetry/sdk-trace'));

  const runServer = async (env: Record<string, string>, exercise: (api: ApiClient) => Promise<void>) => {
    rmSync(modulesDir, { recursive: true, force: true });
    mkdirSync(modulesDir);
    // A database per run: each test starts from an empty one.
    const database = await createTestDatabase();
    // A cluster (a primary and two workers) on PostgreSQL; the embedded broker serves one process.
    const workers = process.env.E2E_DB_MODE === 'server' ? 2 : 1;
    const server = ServerProcess.spawn(
      {
        DATABASE_URL: database.url,
        WEB_CONCURRENCY: String(workers),
        PORT: String(await freePort()),
        LOG_LEVEL: 'info',
        NODE_OPTIONS: `--require ${preload}`,
        ...env,
      },
      workDir,
    );
    try {
      await server.waitUntilHealthy();
      // Health answers once one worker listens; a worker stopped while starting would leave no record.
      const listening = () => server.logEntries().filter((entry) => String(entry.msg).startsWith('server listening')).length;
      while (listening() < workers) await new Promise((resolve) => setTimeout(resolve, 100));
      await exercise(new ApiClient(server.baseUrl));
    } finally {
      // The batch of spans is exported at graceful shutdown: nothing below waits for a timer.
      expect(await server.stop('SIGTERM')).toBe(0);
      await database.drop();
    }
    return server;
  };

  it('exports HTTP, route and pg spans of each request as service.name, with no token or password', async () => {
    let token = '';
    const server = await runServer({ OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_SERVICE_NAME: 'pki-under-test' }, async (api) => {
      token = (await createBootstrapSuperuser(api)).token;
      expect((await api.get('/users/me', token)).status).toBe(200);
      // A client putting its token in the query string (not how the API takes it) must not leak it either.
      expect((await api.get(`/users/me?access_token=${encodeURIComponent(token)}`, token)).status).toBe(200);
      expect((await api.get('/users/me', 'not-a-valid-token-at-all')).status).toBe(401);
    });

    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) {
      expect(request.path).toBe('/v1/traces');
      expect(request.contentType).toMatch(/^application\/json/);
    }
    const bodies = receiver.requests.map((request) => request.body);
    const spans = spansOf(bodies);
    expect(new Set(spans.map((span) => span.serviceName))).toEqual(new Set(['pki-under-test']));

    const meSpans = spans.filter((span) => span.kind === SPAN_KIND_SERVER && span.name === 'GET /api/v1/users/me');
    expect(meSpans.length).toBe(3);
    for (const span of meSpans) expect(span.attributes['http.route']).toBe('/api/v1/users/me');
    expect(meSpans.map((span) => span.attributes['http.response.status_code']).sort()).toEqual([200, 200, 401]);
    const withQuery = meSpans.find((span) => span.attributes['url.query'] !== undefined);
    expect(withQuery?.attributes['url.query']).toBe('access_token=REDACTED');

    // A query run while serving GET /users/me belongs to that request's trace.
    const meTraces = new Set(meSpans.map((span) => span.traceId));
    const pgSpans = spans.filter((span) => span.attributes['db.system.name'] === 'postgresql' && span.attributes['db.query.text']);
    expect(pgSpans.some((span) => meTraces.has(span.traceId))).toBe(true);
    const login = spans.find((span) => span.kind === SPAN_KIND_SERVER && span.name === 'POST /api/v1/auth/token');
    expect(login).toBeDefined();
    // Health probes (the test's own, polling until the server is up) are not traced.
    expect(spans.filter((span) => String(span.attributes['url.path']).startsWith('/health'))).toEqual([]);

    const exported = bodies.join('\n');
    expect(token.length).toBeGreaterThan(20);
    for (const secret of [token, PASSWORD, 'not-a-valid-token-at-all', 'Bearer', 'authorization']) {
      expect(exported).not.toContain(secret);
    }

    // The SDK runs in the processes that serve; a cluster primary serves nothing and does not load it.
    const modules = loadedModules();
    const clustered = process.env.E2E_DB_MODE === 'server';
    expect(modules.size).toBe(clustered ? 3 : 1);
    for (const [pid, loaded] of modules) {
      const serves = !clustered || pid !== server.pid;
      expect({ pid, tracing: loadsTracingSdk(loaded) }).toEqual({ pid, tracing: serves });
    }
  });

  it("puts the mail worker's calls to the API and the API's handling of them in one trace", async () => {
    receiver.requests.length = 0;
    const workerToken = 'worker-token-that-must-not-be-exported';
    let apiOrigin = '';
    await runServer({ OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl }, async (api) => {
      apiOrigin = api.baseUrl;
      const worker = await startWorker({
        OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
        PLATFORM_URL: api.baseUrl,
        PLATFORM_API_TOKEN: workerToken,
        MAIL_FROM_ADDRESS: 'noc@example.com',
        SMTP_URL: 'smtp://127.0.0.1:9',
      });
      try {
        // The worker polls the API at start; the token is refused, which is enough to make the call.
        while (!worker.output().includes('outbound poll failed')) await new Promise((resolve) => setTimeout(resolve, 100));
        // The worker's own HTTP side: a tracking event it refuses (not an SNS envelope) still makes a server span.
        const refused = await fetch(`http://127.0.0.1:${worker.httpPort}/webhook/tracking`, { method: 'POST', body: '{}' });
        expect(refused.status).toBeGreaterThanOrEqual(400);
      } finally {
        await worker.stop();
      }
    });

    const bodies = receiver.requests.map((request) => request.body);
    const spans = spansOf(bodies);
    const calls = spans.filter((span) => span.serviceName === 'pki-mail-worker' && span.kind === SPAN_KIND_CLIENT);
    expect(calls.length).toBeGreaterThan(0);
    // Only the origin of the call is recorded.
    for (const call of calls) {
      expect(call.attributes['url.full']).toBe(apiOrigin);
      expect(call.attributes['url.path']).toBeUndefined();
    }
    const handled = spans.filter(
      (span) =>
        span.serviceName === 'pki-inventory' && span.kind === SPAN_KIND_SERVER && calls.some((call) => call.spanId === span.parentSpanId),
    );
    expect(handled.length).toBe(calls.length);
    for (const span of handled) expect(calls.find((call) => call.spanId === span.parentSpanId)?.traceId).toBe(span.traceId);
    expect(
      spans
        .filter((span) => span.serviceName === 'pki-mail-worker' && span.kind === SPAN_KIND_SERVER)
        .map((span) => span.attributes['url.path']),
    ).toEqual(['/webhook/tracking']);
    expect(bodies.join('\n')).not.toContain(workerToken);
  });

  it('sends nothing and never loads the SDK when no OTLP endpoint is set', async () => {
    receiver.requests.length = 0;
    await runServer({}, async (api) => {
      const root = await createBootstrapSuperuser(api);
      expect((await api.get('/users/me', root.token)).status).toBe(200);
    });
    expect(receiver.requests).toEqual([]);
    const modules = loadedModules();
    expect(modules.size).toBeGreaterThan(0);
    // At least one record is of a process that served (it loaded express); none loaded any of the SDK
    // (@opentelemetry/api is prom-client's, a no-op without an SDK).
    expect([...modules.values()].some((loaded) => loaded.some((path) => path.includes('/node_modules/express/')))).toBe(true);
    for (const loaded of modules.values()) {
      expect(loaded.filter((path) => path.includes('/node_modules/@opentelemetry/') && !path.includes('/@opentelemetry/api/'))).toEqual([]);
    }
  });
});
