import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWebhookRequest, WebhookDefinition, WebhookRequest } from './webhook-request';
import { MAX_RESPONSE_BODY_BYTES, sendWebhookRequest, WebhookDeliveryError } from './webhook-sender';

type Handler = (request: IncomingMessage, body: Buffer, response: ServerResponse) => void;

interface ReceivedRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

const servers: Server[] = [];

/** Starts `server`, answering with `handler` once each request body is complete; resolves with its base URL. */
async function serve(server: Server, handler: Handler, scheme: 'http' | 'https', host: string): Promise<string> {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, Buffer.concat(chunks), response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `${scheme}://${host}:${(server.address() as AddressInfo).port}`;
}

const serveHttp = (handler: Handler) => serve(createHttpServer(), handler, 'http', '127.0.0.1');

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const webhook: WebhookDefinition = {
  payload_url: '',
  http_method: 'POST',
  http_content_type: 'application/json',
  additional_headers: '',
  body_template: '',
  secret: '',
  ssl_verification: true,
  ca_file_path: null,
};
const payload = { event: 'updated', data: { id: 7, name: 'Zürich' } };

const rejectionOf = async (delivery: Promise<unknown>): Promise<WebhookDeliveryError> => {
  try {
    await delivery;
  } catch (error) {
    if (error instanceof WebhookDeliveryError) return error;
    throw error;
  }
  throw new Error('expected a WebhookDeliveryError');
};

describe('sendWebhookRequest over HTTP', () => {
  it('delivers the method, headers and body exactly as built, with a verifiable signature', async () => {
    const received: ReceivedRequest[] = [];
    const baseUrl = await serveHttp((request, body, response) => {
      received.push({ method: request.method ?? '', url: request.url ?? '', rawHeaders: request.rawHeaders, body });
      response.writeHead(204).end();
    });
    const secret = 'hook-secret';
    const request = buildWebhookRequest(
      {
        ...webhook,
        payload_url: `${baseUrl}/hooks/netbox?source=test`,
        http_method: 'PATCH',
        additional_headers: 'Authorization: Token 0123:abcd\nX-NetBox-Event: updated',
        secret,
      },
      payload,
    );

    await expect(sendWebhookRequest(request)).resolves.toEqual({ status: 204, body: '' });

    expect(received).toHaveLength(1);
    const [delivered] = received;
    expect(delivered.method).toBe('PATCH');
    expect(delivered.url).toBe('/hooks/netbox?source=test');
    expect(delivered.body.equals(Buffer.from(JSON.stringify(payload), 'utf8'))).toBe(true);
    const headerPairs = new Map<string, string>();
    for (let index = 0; index < delivered.rawHeaders.length; index += 2)
      headerPairs.set(delivered.rawHeaders[index], delivered.rawHeaders[index + 1]);
    expect(Object.fromEntries(headerPairs)).toMatchObject({
      ...request.headers,
      'Content-Length': String(delivered.body.length),
    });
    // The receiver's check: HMAC-SHA512 of the bytes it received, keyed by the shared secret.
    expect(headerPairs.get('X-Hook-Signature')).toBe(createHmac('sha512', secret).update(delivered.body).digest('hex'));
  });

  it('resolves with the status and body of a 2xx response', async () => {
    const baseUrl = await serveHttp((_request, _body, response) => response.writeHead(201).end('{"accepted": true}'));
    const request = buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload);
    await expect(sendWebhookRequest(request)).resolves.toEqual({ status: 201, body: '{"accepted": true}' });
  });

  it('throws with the status and an excerpt of the body, but no secret, path or query, on a non-2xx status', async () => {
    const baseUrl = await serveHttp((_request, _body, response) => response.writeHead(500).end(`upstream\nfailure ${'x'.repeat(500)}`));
    const secret = 'never-in-messages';
    const request = buildWebhookRequest({ ...webhook, payload_url: `${baseUrl}/T000/B000/token-xyz?key=token-abc`, secret }, payload);

    const error = await rejectionOf(sendWebhookRequest(request));
    expect(error.status).toBe(500);
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: status 500, body "upstream\\nfailure ${'x'.repeat(183)}…"`);
    expect(error.message).not.toMatch(/never-in-messages|token-xyz|token-abc/);
  });

  it('throws on a redirect instead of following it', async () => {
    const baseUrl = await serveHttp((_request, _body, response) => response.writeHead(302, { Location: '/elsewhere' }).end());
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload)));
    expect(error.status).toBe(302);
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: status 302, empty body`);
  });

  it('throws when no complete response arrives within the timeout', async () => {
    const baseUrl = await serveHttp(() => undefined);
    const started = Date.now();
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), 300));
    expect(error.status).toBeNull();
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: no complete response within 300 ms`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('throws when the response body stalls past the timeout', async () => {
    const baseUrl = await serveHttp((_request, _body, response) => {
      response.writeHead(200);
      response.write('partial');
    });
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), 300));
    expect(error.message).toMatch(/no complete response within 300 ms$/);
  });

  it('throws with the network error when nothing listens', async () => {
    const baseUrl = await serveHttp(() => undefined);
    const closed = servers.pop() as Server;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload)));
    expect(error.status).toBeNull();
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: connect ECONNREFUSED ${new URL(baseUrl).host}`);
    expect(error.cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it(`keeps only the first ${MAX_RESPONSE_BODY_BYTES} bytes of a response body`, async () => {
    const baseUrl = await serveHttp((_request, _body, response) => {
      response.writeHead(200);
      // Never ends on its own: the sender must stop reading rather than wait for the end.
      response.write('a'.repeat(MAX_RESPONSE_BODY_BYTES * 3));
    });
    const result = await sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), 5_000);
    expect(result.status).toBe(200);
    expect(result.body).toBe('a'.repeat(MAX_RESPONSE_BODY_BYTES));
  });

  it('refuses a request whose URL is not http(s), without echoing it', async () => {
    const request: WebhookRequest = {
      ...buildWebhookRequest({ ...webhook, payload_url: 'http://localhost' }, payload),
      url: 'file:///etc/token',
    };
    const error = await rejectionOf(sendWebhookRequest(request));
    expect(error.message).toBe('Webhook POST failed: the URL is not an http:// or https:// URL');
  });
});

describe('sendWebhookRequest over HTTPS', () => {
  let certificateDirectory: string;
  let keyPath: string;
  let certificatePath: string;

  beforeAll(() => {
    certificateDirectory = mkdtempSync(join(tmpdir(), 'webhook-sender-'));
    keyPath = join(certificateDirectory, 'k');
    certificatePath = join(certificateDirectory, 'c');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=localhost', '-days', '1'].concat([
        '-keyout',
        keyPath,
        '-out',
        certificatePath,
      ]),
      { stdio: 'pipe' },
    );
  });

  afterAll(() => rmSync(certificateDirectory, { recursive: true, force: true }));

  const serveHttps = () =>
    serve(
      createHttpsServer({ key: readFileSync(keyPath), cert: readFileSync(certificatePath) }),
      (_request, body, response) => response.writeHead(200).end(`received ${body.length} bytes`),
      'https',
      'localhost',
    );

  it('refuses a self-signed certificate when SSL verification is on', async () => {
    const baseUrl = await serveHttps();
    const request = buildWebhookRequest({ ...webhook, payload_url: baseUrl, ssl_verification: true }, payload);
    const error = await rejectionOf(sendWebhookRequest(request));
    expect(error.status).toBeNull();
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`);
  });

  it('accepts it when SSL verification is off', async () => {
    const baseUrl = await serveHttps();
    const request = buildWebhookRequest({ ...webhook, payload_url: baseUrl, ssl_verification: false }, payload);
    await expect(sendWebhookRequest(request)).resolves.toEqual({ status: 200, body: `received ${request.body.length} bytes` });
  });

  it('accepts it when it is the CA file', async () => {
    const baseUrl = await serveHttps();
    const request = buildWebhookRequest({ ...webhook, payload_url: baseUrl, ca_file_path: certificatePath }, payload);
    await expect(sendWebhookRequest(request)).resolves.toMatchObject({ status: 200 });
  });

  it('throws when the CA file cannot be read', async () => {
    const baseUrl = await serveHttps();
    const request = buildWebhookRequest(
      { ...webhook, payload_url: baseUrl, ca_file_path: join(certificateDirectory, 'missing.pem') },
      payload,
    );
    const error = await rejectionOf(sendWebhookRequest(request));
    expect(error.message).toMatch(new RegExp(`^Webhook POST ${baseUrl} failed: cannot read the CA file: ENOENT`));
  });
});
