import { ProbeModule } from './support/probe.module';
import { startTestApp, TestApp } from './support/test-app';

describe('error responses', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ extraModules: [ProbeModule] });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const url = (path: string) => `${testApp.baseUrl}${path}`;
  const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(url(path), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('answers unknown routes 404 {"detail":"Not Found"} for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await fetch(url('/api/v1/no-such-route'), { method });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const response = await postJson('/api/v1/probe/validate', '{"password": ');
    expect(response.status).toBe(400);
    const { detail } = (await response.json()) as { detail: unknown };
    expect(detail).toEqual(expect.stringContaining('JSON'));
  });

  it('answers a body beyond MAX_BODY_SIZE (2.5 MB by default) with 413', async () => {
    const within = await postJson('/api/v1/probe/validate', JSON.stringify({ password: 'x'.repeat(2_500_000), count: 1 }));
    expect(within.status).toBe(201);
    const response = await postJson('/api/v1/probe/validate', JSON.stringify({ password: 'x'.repeat(2_700_000), count: 1 }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: 'Request body is too large' });
    // Refused by the body parser, yet answered like any other request.
    expect({ requestId: response.headers.get('x-request-id'), nosniff: response.headers.get('x-content-type-options') }).toEqual({
      requestId: expect.stringMatching(/^[\w-]{8,}$/),
      nosniff: 'nosniff',
    });
  });

  it('takes the body limit from MAX_BODY_SIZE, for JSON and form bodies alike', async () => {
    const own = await startTestApp({ extraModules: [ProbeModule], env: { MAX_BODY_SIZE: '2048' } });
    try {
      const post = (body: string, type = 'application/json') =>
        fetch(`${own.baseUrl}/api/v1/probe/validate`, { method: 'POST', headers: { 'content-type': type }, body });
      expect((await post(JSON.stringify({ password: 'x'.repeat(1900), count: 1 }))).status).toBe(201);
      expect((await post(JSON.stringify({ password: 'x'.repeat(2100), count: 1 }))).status).toBe(413);
      expect((await post(`password=${'x'.repeat(2100)}&count=1`, 'application/x-www-form-urlencoded')).status).toBe(413);
    } finally {
      await own.close();
    }
  });

  it('refuses NUL characters and deep nesting before validation, naming where they were', async () => {
    const nul = await postJson(
      '/api/v1/probe/validate',
      JSON.stringify({ password: 'long enough', count: 1, items: [{ name: 'a\u0000' }] }),
    );
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({
      detail: [{ loc: ['body', 'items', 0, 'name'], msg: 'Null characters are not allowed.', type: 'nul_byte' }],
    });
    const deep = await postJson('/api/v1/probe/validate', `{"password": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({ detail: [{ loc: ['body', 'password'], msg: 'Nested deeper than 32 levels.', type: 'too_deep' }] });
  });

  it('answers body validation failures with 400 naming each bad field', async () => {
    const response = await postJson('/api/v1/probe/validate', JSON.stringify({ password: 'short', count: 0 }));
    expect(response.status).toBe(400);
    const { detail } = (await response.json()) as { detail: Array<{ loc: unknown[]; msg: string; type: string }> };
    expect(detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'password'], msg: 'password must be longer than or equal to 8 characters', type: 'minLength' },
        { loc: ['body', 'count'], msg: 'count must not be less than 1', type: 'min' },
      ]),
    );
    expect(detail).toHaveLength(2);
  });

  it('names nested fields by their path and rejects unknown fields', async () => {
    const response = await postJson(
      '/api/v1/probe/validate',
      JSON.stringify({ password: 'long enough', count: 2, items: [{ name: 'ok' }, { name: 5 }], admin: true }),
    );
    expect(response.status).toBe(400);
    const { detail } = (await response.json()) as { detail: Array<{ loc: unknown[]; type: string }> };
    expect(detail.map((problem) => problem.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'items', 1, 'name'],
        ['body', 'admin'],
      ]),
    );
  });

  it('answers a missing body with 400, not 500', async () => {
    const response = await fetch(url('/api/v1/probe/validate'), { method: 'POST' });
    expect(response.status).toBe(400);
    const { detail } = (await response.json()) as { detail: Array<{ loc: unknown[] }> };
    expect(detail.length).toBeGreaterThan(0);
    expect(detail[0].loc[0]).toBe('body');
  });

  it('passes a valid body through with its types', async () => {
    const response = await postJson('/api/v1/probe/validate', JSON.stringify({ password: 'long enough', count: 3 }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ password: 'long enough', count: 3 });
  });

  it('answers query validation failures with 400 located in the query', async () => {
    for (const skip of ['-1', 'abc']) {
      const response = await fetch(url(`/api/v1/probe/query?skip=${skip}`));
      expect(response.status).toBe(400);
      const { detail } = (await response.json()) as { detail: Array<{ loc: unknown[] }> };
      expect(detail[0].loc).toEqual(['query', 'skip']);
    }
    const ok = await fetch(url('/api/v1/probe/query?skip=5'));
    expect(await ok.json()).toEqual({ skip: 5 });
  });

  it('maps typed domain errors to their status with a message or a structured detail', async () => {
    const notFound = await fetch(url('/api/v1/probe/not-found'));
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ detail: 'Widget with ID 7 not found' });

    const structured = await fetch(url('/api/v1/probe/structured'));
    expect(structured.status).toBe(400);
    expect(await structured.json()).toEqual({
      detail: { code: 'policy_violation', field: 'cn_patterns', value: 'evil.example.org' },
    });
  });

  it('answers an unexpected error with a bare 500 and logs it with the request id', async () => {
    const response = await fetch(url('/api/v1/probe/crash'), { headers: { 'X-Request-ID': 'crash-probe-1' } });
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('{"detail":"Internal Server Error"}');
    const logged = testApp.logs.entries().find((entry) => entry.msg === 'unhandled error');
    expect(logged).toMatchObject({ level: 'error', request_id: 'crash-probe-1' });
  });

  it('never lets SQL reach the client', async () => {
    const response = await fetch(url('/api/v1/probe/bad-sql'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).toBe('{"detail":"Internal Server Error"}');
  });

  it('keeps passwords and bearer tokens out of the logs', async () => {
    await postJson('/api/v1/probe/validate', JSON.stringify({ password: 'correct-horse-battery', count: 1 }), {
      Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.secret-token-value.sig',
    });
    await fetch(url('/api/v1/probe/query?skip=1&token=query-string-secret'));
    const text = testApp.logs.text();
    expect(text).toContain('/api/v1/probe/validate');
    expect(text).not.toContain('correct-horse-battery');
    expect(text).not.toContain('secret-token-value');
    expect(text).not.toContain('query-string-secret');
  });

  it('lets in-flight requests finish when the app closes', async () => {
    const own = await startTestApp({ extraModules: [ProbeModule] });
    const inFlight = fetch(`${own.baseUrl}/api/v1/probe/slow`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = own.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await closing;
    await expect(fetch(`${own.baseUrl}/health/live`)).rejects.toThrow();
  });
});

describe('CORS and proxies', () => {
  it('sends no CORS headers unless BACKEND_CORS_ORIGINS is set', async () => {
    const testApp = await startTestApp();
    try {
      const response = await fetch(`${testApp.baseUrl}/health/live`, { headers: { Origin: 'https://evil.example' } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await testApp.close();
    }
  });

  it('allows exactly the configured origins', async () => {
    const testApp = await startTestApp({ env: { BACKEND_CORS_ORIGINS: 'https://ui.example.com,http://localhost:3000' } });
    try {
      const preflight = await fetch(`${testApp.baseUrl}/health/live`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://ui.example.com', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://ui.example.com');
      const other = await fetch(`${testApp.baseUrl}/health/live`, { headers: { Origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await testApp.close();
    }
  });

  it('takes the client address from X-Forwarded-For only when TRUST_PROXY allows it', async () => {
    for (const [trustProxy, expected] of [
      ['false', '127.0.0.1'],
      ['loopback', '203.0.113.9'],
    ]) {
      const testApp = await startTestApp({ env: { TRUST_PROXY: trustProxy } });
      try {
        await fetch(`${testApp.baseUrl}/health/live`, {
          headers: { 'X-Forwarded-For': '203.0.113.9', 'X-Request-ID': `xff-${trustProxy}` },
        });
        const line = testApp.logs.entries().find((entry) => entry.request_id === `xff-${trustProxy}`);
        expect(line?.remote_address).toBe(expected);
      } finally {
        await testApp.close();
      }
    }
  });
});
