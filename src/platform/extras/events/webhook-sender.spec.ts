import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EgressPolicy } from '../../../common/http/egress-policy';
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

/** The test receivers listen on loopback, which the policy refuses unless it is allowed. */
const LOOPBACK = ['127.0.0.0/8', '::1'];

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
  const egress = new EgressPolicy({ allow: LOOPBACK, caDirectory: undefined });

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

    await expect(sendWebhookRequest(request, egress)).resolves.toEqual({ status: 204, body: '' });

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
    await expect(sendWebhookRequest(request, egress)).resolves.toEqual({ status: 201, body: '{"accepted": true}' });
  });

  it('throws with the status and an excerpt of the body, but no secret, path or query, on a non-2xx status', async () => {
    const baseUrl = await serveHttp((_request, _body, response) => response.writeHead(500).end(`upstream\nfailure ${'x'.repeat(500)}`));
    const secret = 'never-in-messages';
    const request = buildWebhookRequest({ ...webhook, payload_url: `${baseUrl}/T000/B000/token-xyz?key=token-abc`, secret }, payload);

    const error = await rejectionOf(sendWebhookRequest(request, egress));
    expect(error.status).toBe(500);
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: status 500, body "upstream\\nfailure ${'x'.repeat(183)}…"`);
    expect(error.message).not.toMatch(/never-in-messages|token-xyz|token-abc/);
  });

  it('throws on a redirect instead of following it', async () => {
    const baseUrl = await serveHttp((_request, _body, response) => response.writeHead(302, { Location: '/elsewhere' }).end());
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), egress));
    expect(error.status).toBe(302);
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: status 302, empty body`);
  });

  it('throws when no complete response arrives within the timeout', async () => {
    const baseUrl = await serveHttp(() => undefined);
    const started = Date.now();
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), egress, 300));
    expect(error.status).toBeNull();
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: no complete response within 300 ms`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('throws when the response body stalls past the timeout', async () => {
    const baseUrl = await serveHttp((_request, _body, response) => {
      response.writeHead(200);
      response.write('partial');
    });
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), egress, 300));
    expect(error.message).toMatch(/no complete response within 300 ms$/);
  });

  it('throws with the network error when nothing listens', async () => {
    const baseUrl = await serveHttp(() => undefined);
    const closed = servers.pop() as Server;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), egress));
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
    const result = await sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), egress, 5_000);
    expect(result.status).toBe(200);
    expect(result.body).toBe('a'.repeat(MAX_RESPONSE_BODY_BYTES));
  });

  it('refuses a request whose URL is not http(s), without echoing it', async () => {
    const request: WebhookRequest = {
      ...buildWebhookRequest({ ...webhook, payload_url: 'http://localhost' }, payload),
      url: 'file:///etc/token',
    };
    const error = await rejectionOf(sendWebhookRequest(request, egress));
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

  let egress: EgressPolicy;
  beforeAll(() => {
    egress = new EgressPolicy({ allow: LOOPBACK, caDirectory: realpathSync(certificateDirectory) });
  });

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
    const error = await rejectionOf(sendWebhookRequest(request, egress));
    expect(error.status).toBeNull();
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`);
  });

  it('accepts it when SSL verification is off', async () => {
    const baseUrl = await serveHttps();
    const request = buildWebhookRequest({ ...webhook, payload_url: baseUrl, ssl_verification: false }, payload);
    await expect(sendWebhookRequest(request, egress)).resolves.toEqual({ status: 200, body: `received ${request.body.length} bytes` });
  });

  it('accepts it when it is the CA file', async () => {
    const baseUrl = await serveHttps();
    const request = buildWebhookRequest({ ...webhook, payload_url: baseUrl, ca_file_path: certificatePath }, payload);
    await expect(sendWebhookRequest(request, egress)).resolves.toMatchObject({ status: 200 });
  });

  it('throws when the CA file cannot be read', async () => {
    const baseUrl = await serveHttps();
    const request = buildWebhookRequest(
      { ...webhook, payload_url: baseUrl, ca_file_path: join(certificateDirectory, 'missing.pem') },
      payload,
    );
    const error = await rejectionOf(sendWebhookRequest(request, egress));
    expect(error.message).toBe(`Webhook POST ${baseUrl} failed: cannot read the CA file: ca_file_path: no such file in the CA folder`);
  });

  it('does not read a CA file outside WEBHOOK_CA_DIR (/etc/shadow), nor one reached by a symbolic link leaving it', async () => {
    const baseUrl = await serveHttps();
    const link = join(certificateDirectory, 'escape.pem');
    symlinkSync('/etc/hostname', link);
    for (const caFile of ['/etc/shadow', join(certificateDirectory, '..', '..', 'etc', 'shadow'), link]) {
      const request = buildWebhookRequest({ ...webhook, payload_url: baseUrl, ca_file_path: caFile }, payload);
      const error = await rejectionOf(sendWebhookRequest(request, egress));
      expect(error.message).toBe(
        `Webhook POST ${baseUrl} failed: cannot read the CA file: ca_file_path: must name a file inside the CA folder ${realpathSync(certificateDirectory)}`,
      );
    }
  });
});

describe('sendWebhookRequest under the egress policy', () => {
  it('refuses a literal loopback or metadata address without connecting', async () => {
    let reached = 0;
    const baseUrl = await serveHttp((_request, _body, response) => {
      reached++;
      response.writeHead(204).end();
    });
    const egress = new EgressPolicy({ allow: [], caDirectory: undefined });
    for (const url of [baseUrl, 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:127.0.0.1]:9/']) {
      const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: url }, payload), egress));
      expect(error.status).toBeNull();
      expect(error.message).toMatch(/failed: refused by the egress policy: .* is a (loopback|link-local) /);
    }
    expect(reached).toBe(0);
  });

  it('refuses a host name that resolves to loopback (localhost) or to the metadata address', async () => {
    let reached = 0;
    const baseUrl = await serveHttp((_request, _body, response) => {
      reached++;
      response.writeHead(204).end();
    });
    const port = new URL(baseUrl).port;
    const resolveAll = (hostname: string) =>
      Promise.resolve(hostname === 'metadata.test' ? [{ address: '169.254.169.254', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const egress = new EgressPolicy({ allow: [], caDirectory: undefined }, resolveAll);
    const local = await rejectionOf(
      sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: `http://localhost:${port}/` }, payload), egress),
    );
    expect(local.message).toBe(
      `Webhook POST http://localhost:${port} failed: refused by the egress policy: localhost may not be reached: 127.0.0.1 is a loopback (127.0.0.0/8) address, which EGRESS_ALLOW does not list`,
    );
    const metadata = await rejectionOf(
      sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: 'http://metadata.test/latest/' }, payload), egress),
    );
    expect(metadata.message).toContain('169.254.169.254 is a link-local (169.254.0.0/16) address');
    expect(reached).toBe(0);
  });

  it('delivers to a host name listed in EGRESS_ALLOW, whatever it resolves to', async () => {
    const baseUrl = await serveHttp((_request, _body, response) => response.writeHead(204).end());
    const port = new URL(baseUrl).port;
    const resolveAll = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const egress = new EgressPolicy({ allow: ['hooks.internal.test'], caDirectory: undefined }, resolveAll);
    const request = buildWebhookRequest({ ...webhook, payload_url: `http://hooks.internal.test:${port}/` }, payload);
    await expect(sendWebhookRequest(request, egress)).resolves.toEqual({ status: 204, body: '' });
  });

  it('does not follow a redirect: a 3xx is a failed delivery', async () => {
    let redirected = 0;
    const target = await serveHttp((_request, _body, response) => {
      redirected++;
      response.writeHead(204).end();
    });
    const baseUrl = await serveHttp((_request, _body, response) => response.writeHead(307, { location: `${target}/inside` }).end());
    const egress = new EgressPolicy({ allow: LOOPBACK, caDirectory: undefined });
    const error = await rejectionOf(sendWebhookRequest(buildWebhookRequest({ ...webhook, payload_url: baseUrl }, payload), egress));
    expect(error.status).toBe(307);
    expect(redirected).toBe(0);
  });
});
