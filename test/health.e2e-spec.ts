import { DATABASE_PROBE_TIMEOUT_MS } from '../src/health/health.service';
import { startTestApp, TestApp } from './support/test-app';
import { TcpProxy } from './support/tcp-proxy';
import { LOADED_MACHINE_LATENESS_MS } from './support/timing';

describe('GET /health', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 200 {"status":"ok"} when the database answers', async () => {
    const response = await fetch(`${testApp.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('has a liveness probe that does not touch the database', async () => {
    const response = await fetch(`${testApp.baseUrl}/health/live`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('is mounted at the root, not under the API prefix', async () => {
    const response = await fetch(`${testApp.baseUrl}${testApp.config.apiV1Str}/health`);
    expect(response.status).toBe(404);
  });

  it('sends the security headers and forbids caching', async () => {
    const response = await fetch(`${testApp.baseUrl}/health`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('echoes an acceptable X-Request-ID and logs the request under it', async () => {
    const response = await fetch(`${testApp.baseUrl}/health/live`, { headers: { 'X-Request-ID': 'probe-42.a' } });
    expect(response.headers.get('x-request-id')).toBe('probe-42.a');
    const line = testApp.logs.entries().find((entry) => entry.request_id === 'probe-42.a');
    expect(line).toMatchObject({ method: 'GET', path: '/health/live', status: 200, level: 'info' });
  });

  it('replaces an unacceptable X-Request-ID with a generated UUID', async () => {
    const response = await fetch(`${testApp.baseUrl}/health/live`, { headers: { 'X-Request-ID': 'bad id <script>' } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('GET /health when the database goes away', () => {
  let testApp: TestApp;
  let proxy: TcpProxy;

  beforeAll(async () => {
    testApp = await startTestApp({
      databaseUrl: async (url) => {
        proxy = TcpProxy.forUrl(url);
        await proxy.start();
        return proxy.rewrite(url);
      },
    });
  });

  afterAll(async () => {
    proxy.blackhole(false);
    await proxy.start();
    await testApp.close();
    await proxy.stop();
  });

  async function timedHealth(): Promise<{ status: number; body: unknown; ms: number }> {
    const started = Date.now();
    const response = await fetch(`${testApp.baseUrl}/health`);
    return { status: response.status, body: await response.json(), ms: Date.now() - started };
  }

  async function eventuallyHealthy(): Promise<void> {
    const deadline = Date.now() + 15000;
    while (Date.now() < deadline) {
      if ((await timedHealth()).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('/health did not return to 200');
  }

  it('answers 503 within the probe timeout when the server is down, and 200 again when it is back', async () => {
    // Healthy first, waited for rather than asserted at once: on embedded PGlite one process serves
    // both jest workers' databases, so a probe can queue behind the other file's statements past 2 s.
    await eventuallyHealthy();
    await proxy.stop();
    const down = await timedHealth();
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable' });
    expect(down.ms).toBeLessThan(DATABASE_PROBE_TIMEOUT_MS + LOADED_MACHINE_LATENESS_MS);

    await proxy.start();
    await eventuallyHealthy();
  });

  it('answers 503 after the probe timeout when the database hangs instead of refusing', async () => {
    proxy.blackhole(true);
    const hung = await timedHealth();
    expect(hung.status).toBe(503);
    expect(hung.ms).toBeGreaterThanOrEqual(DATABASE_PROBE_TIMEOUT_MS - 100);
    expect(hung.ms).toBeLessThan(DATABASE_PROBE_TIMEOUT_MS + LOADED_MACHINE_LATENESS_MS);

    proxy.blackhole(false);
    await eventuallyHealthy();
  });
});
