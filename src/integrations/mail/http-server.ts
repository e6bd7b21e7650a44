import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger';
import { WORKER_METRICS } from './worker-metrics';

/** What a webhook handler answers. */
export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** A handler of one POST path: the raw body bytes (signatures are over them) and the headers. */
export type PostHandler = (raw: Buffer, headers: IncomingMessage['headers']) => Promise<HttpAnswer>;

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The worker's HTTP side (plain node:http): `GET /health`, `GET /metrics` (Prometheus), and the POST webhooks it was given
 * (`/webhook/outbound` only when WEBHOOK_SECRET is set, `/webhook/tracking`). Anything else is 404.
 */
export async function startHttpServer(
  port: number,
  host: string,
  routes: Readonly<Record<string, PostHandler>>,
  logger: Logger,
): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    void handle(request, response, routes, logger);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function handle(request: IncomingMessage, response: ServerResponse, routes: Readonly<Record<string, PostHandler>>, logger: Logger) {
  const path = new URL(request.url ?? '/', 'http://worker').pathname;
  const reply = ({ status, body }: HttpAnswer) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (request.method === 'GET' && path === '/health') return reply({ status: 200, body: { status: 'ok' } });
  if (request.method === 'GET' && path === '/metrics') {
    response.writeHead(200, { 'content-type': WORKER_METRICS.registry.contentType }).end(await WORKER_METRICS.registry.metrics());
    return;
  }
  const route = request.method === 'POST' ? routes[path] : undefined;
  if (!route) return reply({ status: 404, body: { error: 'Not found' } });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return reply({ status: 413, body: { error: 'Body too large' } });
    chunks.push(chunk);
  }
  try {
    reply(await route(Buffer.concat(chunks), request.headers));
  } catch (error) {
    logger.error({ err: (error as Error).message, path }, 'webhook failed');
    reply({ status: 500, body: { error: 'Internal error' } });
  }
}
