import { readFileSync } from 'node:fs';
import { createServer, request, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { OpensslWorkspace } from './support/openssl';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Transport-level behaviour: Strict-Transport-Security only on requests that arrived over HTTPS
 * (directly, or through a proxy TRUST_PROXY believes), and ENABLE_DOCS.
 */

const HSTS = 'max-age=63072000; includeSubDomains';

describe('Strict-Transport-Security', () => {
  let testApp: TestApp;
  let ssl: OpensslWorkspace;
  let httpsServer: Server;
  let httpsPort: number;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
    ssl = new OpensslWorkspace();
    const made = ssl.run(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'tls.key',
      '-out',
      'tls.crt',
      '-subj',
      '/CN=127.0.0.1',
      '-days',
      '1',
    );
    expect(made.status).toBe(0);
    // The same Express app behind a TLS listener: what a deployment terminating TLS in Node would run.
    httpsServer = createServer(
      { key: readFileSync(join(ssl.dir, 'tls.key')), cert: readFileSync(join(ssl.dir, 'tls.crt')) },
      testApp.app.getHttpAdapter().getInstance(),
    );
    await new Promise<void>((resolve) => httpsServer.listen(0, '127.0.0.1', resolve));
    httpsPort = (httpsServer.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => httpsServer?.close(resolve));
    ssl?.dispose();
    await testApp?.close();
  });

  function overHttps(path: string): Promise<{ status: number; hsts: string | undefined }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: httpsPort, path, rejectUnauthorized: false, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, hsts: res.headers['strict-transport-security'] as string | undefined }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('is sent on requests that came over HTTPS directly, on success and error answers alike', async () => {
    expect(await overHttps('/health/live')).toEqual({ status: 200, hsts: HSTS });
    expect(await overHttps('/api/v1/users/me')).toEqual({ status: 401, hsts: HSTS });
  });

  it('is sent when a trusted proxy says the request came over HTTPS', async () => {
    const response = await fetch(`${testApp.baseUrl}/health/live`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('strict-transport-security')).toBe(HSTS);
  });

  it('is not sent over plain HTTP, nor when the proxy says http', async () => {
    expect((await fetch(`${testApp.baseUrl}/health/live`)).headers.get('strict-transport-security')).toBeNull();
    const viaHttp = await fetch(`${testApp.baseUrl}/health/live`, { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(viaHttp.headers.get('strict-transport-security')).toBeNull();
  });

  it('is not sent on an X-Forwarded-Proto from a client that is not a trusted proxy', async () => {
    const untrusting = await startTestApp();
    try {
      const response = await fetch(`${untrusting.baseUrl}/health/live`, { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await untrusting.close();
    }
  });
});

describe('ENABLE_DOCS', () => {
  it('false: /docs, its assets and the PKI OpenAPI document answer 404; the platform schema stays for NetBox clients', async () => {
    const testApp = await startTestApp({ env: { ENABLE_DOCS: 'false' } });
    try {
      for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/api/v1/openapi.json', '/api/docs/']) {
        expect({ path, status: (await fetch(`${testApp.baseUrl}${path}`, { redirect: 'manual' })).status }).toEqual({ path, status: 404 });
      }
      const schema = await fetch(`${testApp.baseUrl}/api/schema/`);
      expect(schema.status).toBe(200);
      const viaDocs = await fetch(`${testApp.baseUrl}/api/docs/?format=openapi`);
      expect(viaDocs.status).toBe(200);
      expect(await viaDocs.json()).toEqual(await schema.json());
    } finally {
      await testApp.close();
    }
  });

  it('true (the default): /docs and the PKI OpenAPI document are served', async () => {
    const testApp = await startTestApp();
    try {
      expect(testApp.config.enableDocs).toBe(true);
      expect((await fetch(`${testApp.baseUrl}/docs`)).status).toBe(200);
      expect((await fetch(`${testApp.baseUrl}/api/v1/openapi.json`)).status).toBe(200);
    } finally {
      await testApp.close();
    }
  });
});
