import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ApiClient, ApiResponse, createBootstrapSuperuser, PASSWORD, readResponse } from './support/api-client';
import { TcpProxy } from './support/tcp-proxy';
import { startTestApp, TestApp } from './support/test-app';
import { LOADED_MACHINE_LATENESS_MS } from './support/timing';

/**
 * API requests while the database is away: closed (refuses connections) or frozen (accepts but never
 * answers). Every request that needs it ends quickly with 503, a clear body and Retry-After.
 */
describe('API requests when the database is unavailable', () => {
  let testApp: TestApp;
  let proxy: TcpProxy;
  let api: ApiClient;
  let token: string;
  let platformToken: string;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { DATABASE_STATEMENT_TIMEOUT_MS: '2000', DATABASE_CONNECT_TIMEOUT_MS: '2000' },
      databaseUrl: async (url) => {
        proxy = TcpProxy.forUrl(url);
        await proxy.start();
        return proxy.rewrite(url);
      },
    });
    api = new ApiClient(testApp.baseUrl);
    token = (await createBootstrapSuperuser(api)).token;
    const provisioned = await api.request('POST', '/api/users/tokens/provision/', { json: { username: 'root', password: PASSWORD } });
    expect(provisioned.status).toBe(201);
    platformToken = provisioned.body.key;
  });

  afterAll(async () => {
    proxy.blackhole(false);
    await proxy.start();
    await testApp.close();
    await proxy.stop();
  });

  const requests: Array<[string, () => Promise<ApiResponse>]> = [
    ['POST /api/v1/auth/token', () => api.login('root', PASSWORD)],
    ['GET /api/v1/users/me', () => api.get('/users/me', token)],
    ['GET /api/v1/cas/', () => api.get('/cas/', token)],
    ['GET /api/dcim/sites/', () => api.request('GET', '/api/dcim/sites/', { headers: { authorization: `Token ${platformToken}` } })],
    [
      'POST /graphql/',
      async () =>
        readResponse(
          await fetch(`${testApp.baseUrl}/graphql/`, {
            method: 'POST',
            headers: { authorization: `Token ${platformToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query: '{ site_list { id } }' }),
          }),
        ),
    ],
  ];

  async function eventuallyAnswers(): Promise<void> {
    const deadline = Date.now() + 20000;
    while (Date.now() < deadline) {
      if ((await api.get('/users/me', token)).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the API did not recover');
  }

  function expectUnavailable(name: string, response: ApiResponse, ms: number, withinMs: number): void {
    const message = name.includes('graphql') ? response.body?.errors?.[0]?.message : response.body?.detail;
    expect({ name, status: response.status, message, retryAfter: response.headers.get('retry-after') }).toEqual({
      name,
      status: 503,
      message: expect.stringMatching(/database is unavailable/i),
      retryAfter: expect.stringMatching(/^\d+$/),
    });
    expect(ms).toBeLessThan(withinMs + LOADED_MACHINE_LATENESS_MS);
  }

  it('answers 503 with Retry-After, fast, while the database refuses connections, and recovers', async () => {
    expect((await api.get('/users/me', token)).status).toBe(200);
    await proxy.stop();
    for (const [name, send] of requests) {
      const started = Date.now();
      const response = await send();
      expectUnavailable(name, response, Date.now() - started, 3000);
    }
    await proxy.start();
    await eventuallyAnswers();
  });

  async function scrapeMetrics(): Promise<{ status: number; text: string; ms: number }> {
    const started = Date.now();
    const response = await fetch(`${testApp.baseUrl}/metrics`);
    return { status: response.status, text: await response.text(), ms: Date.now() - started };
  }

  function expectProcessMetricsOnly(scrape: { status: number; text: string }): void {
    expect(scrape.status).toBe(200);
    expect(scrape.text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(scrape.text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    expect(scrape.text).toMatch(/^http_request_duration_seconds_count\{/m);
    // The queue depth needs the database: left out, and said so.
    expect(scrape.text).toContain('metrics_gauge_read_ok{gauge="jobs_queue_depth"} 0');
    expect(scrape.text).not.toMatch(/^jobs_queue_depth\{/m);
  }

  it('serves the process metrics on /metrics while the database refuses connections or never answers', async () => {
    const before = await scrapeMetrics();
    expect(before.status).toBe(200);
    expect(before.text).toContain('metrics_gauge_read_ok{gauge="jobs_queue_depth"} 1');

    await proxy.stop();
    const refused = await scrapeMetrics();
    expectProcessMetricsOnly(refused);
    expect(refused.ms).toBeLessThan(3000 + LOADED_MACHINE_LATENESS_MS);
    await proxy.start();
    await eventuallyAnswers();

    proxy.blackhole(true);
    const frozen = await scrapeMetrics();
    proxy.blackhole(false);
    expectProcessMetricsOnly(frozen);
    expect(frozen.ms).toBeLessThan(4000 + LOADED_MACHINE_LATENESS_MS);
    await eventuallyAnswers();
  });

  it('answers 503 within a few seconds while the database accepts but never answers, and recovers', async () => {
    expect((await api.get('/users/me', token)).status).toBe(200);
    proxy.blackhole(true);
    const results = await Promise.all(
      requests.map(async ([name, send]) => {
        const started = Date.now();
        const response = await send();
        return { name, response, ms: Date.now() - started };
      }),
    );
    // The read timeout is 2 s past the statement timeout (4 s); a connection kept after it would make a
    // login's ROLLBACK wait out another 4 s.
    for (const { name, response, ms } of results) expectUnavailable(name, response, ms, 6000);
    proxy.blackhole(false);
    await eventuallyAnswers();
  });
});

describe('API requests behind a lock another session holds', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let token: string;
  let locker: Client;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '3000' } });
    api = new ApiClient(testApp.baseUrl);
    token = (await createBootstrapSuperuser(api)).token;
    locker = new Client({ connectionString: testApp.database.url });
    await locker.connect();
  });

  afterAll(async () => {
    await locker.end();
    await testApp.close();
  });

  it('gives up after the lock or statement timeout with 503, and answers again once the lock is gone', async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
    const started = Date.now();
    const blocked = await api.get('/users/me', token);
    const ms = Date.now() - started;
    await locker.query('ROLLBACK');
    expect({ status: blocked.status, retryAfter: blocked.headers.get('retry-after') }).toEqual({
      status: 503,
      retryAfter: expect.stringMatching(/^\d+$/),
    });
    expect(ms).toBeLessThan(6000 + LOADED_MACHINE_LATENESS_MS);
    const deadline = Date.now() + 15000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) status = (await api.get('/users/me', token)).status;
    expect(status).toBe(200);
  });

  // Embedded PGlite serves one session at a time, so there the lock stops authentication first (the 503 above).
  const onServerDatabase = process.env.E2E_DB_MODE !== 'embedded' ? it : it.skip;

  // The embedded PGlite takes no startup settings (nor has it a JIT); there the client's read timeout ends a stuck request.
  onServerDatabase("runs the app's sessions with the configured timeouts and without JIT compilation", async () => {
    const [settings] = await testApp.app
      .get(DataSource)
      .query(
        "SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement, current_setting('jit') AS jit",
      );
    expect(settings).toEqual({ lock: '1s', statement: '3s', jit: 'off' });
  });

  onServerDatabase(
    'answers a GraphQL query whose resolver meets the lock timeout with a SERVICE_UNAVAILABLE error and no internals',
    async () => {
      const provisioned = await api.request('POST', '/api/users/tokens/provision/', { json: { username: 'root', password: PASSWORD } });
      expect(provisioned.status).toBe(201);
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE dcim_site IN ACCESS EXCLUSIVE MODE');
      const blocked = await fetch(`${testApp.baseUrl}/graphql/`, {
        method: 'POST',
        headers: { authorization: `Token ${provisioned.body.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ site_list { id } }' }),
      });
      await locker.query('ROLLBACK');
      // Execution had started, so GraphQL over HTTP (application/json) answers 200 with the error; see docs/architecture.md.
      expect({ status: blocked.status, retryAfter: blocked.headers.get('retry-after'), body: await blocked.json() }).toEqual({
        status: 200,
        retryAfter: expect.stringMatching(/^\d+$/),
        body: {
          data: null,
          errors: [
            { message: 'The database is unavailable; try again shortly', path: ['site_list'], extensions: { code: 'SERVICE_UNAVAILABLE' } },
          ],
        },
      });
    },
  );
});
