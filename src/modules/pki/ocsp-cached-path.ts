import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { OcspHttpResponse, OcspService } from './ocsp.service';

/** The largest OCSP request body taken here, as the `application/ocsp-request` body parser's limit. */
const MAX_REQUEST_BYTES = 16 * 1024;

/** `/ocsp/<slug>/<base64 request>` (GET) or `/ocsp/<slug>` (POST), without the query string. */
const OCSP_PATH = /^\/ocsp\/([^/?]+)(?:\/([^?]+))?(?:\?.*)?$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Cached OCSP answers sent before the Express and Nest pipeline. A responder's answers are public,
 * unauthenticated DER whose bytes are already signed and cached: metrics, access log, security
 * headers, body parsers, guards and interceptors would cost several times the lookup. This listener
 * goes in front of Express on the HTTP server; for `/ocsp/` GETs and `application/ocsp-request` POSTs
 * it asks `OcspService.cachedAnswer` (no parsing, signing or query) and sends a hit itself. Everything
 * else — misses, nonces, several certificates, errors, other paths and methods — goes on to Express
 * unchanged, a POST with the body it already read as `req.body` (the body parsers skip a request
 * whose body has been read), and is answered by `OcspController` through the whole pipeline.
 */
@Injectable()
export class OcspCachedPath implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly ocsp: OcspService,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    const pipeline = server.listeners('request') as RequestListener[];
    server.removeAllListeners('request');
    const passOn = (req: IncomingMessage, res: ServerResponse) => {
      for (const listener of pipeline) listener.call(server, req, res);
    };
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!req.url?.startsWith('/ocsp/') || !this.take(req, res, passOn)) passOn(req, res);
    });
  }

  /** Answers or passes on a request under `/ocsp/`; false when it did neither and the pipeline should. */
  private take(req: IncomingMessage, res: ServerResponse, passOn: RequestListener): boolean {
    const match = OCSP_PATH.exec(req.url!);
    if (!match) return false;
    const slug = match[1];
    if (req.method === 'GET' && match[2] !== undefined) {
      const der = getRequestDer(match[2]);
      const answer = der && this.ocsp.cachedAnswer(slug, der);
      if (!answer) return false;
      send(res, answer);
      return true;
    }
    if (req.method !== 'POST' || match[2] !== undefined || !isOcspRequestBody(req)) return false;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const der = Buffer.concat(chunks);
      const answer = this.ocsp.cachedAnswer(slug, der);
      if (answer) return send(res, answer);
      (req as IncomingMessage & { body?: Buffer }).body = der;
      passOn(req, res);
    });
    return true;
  }
}

/** The DER a GET path carries, or null when it is not base64 (the pipeline answers malformedRequest). */
function getRequestDer(encoded: string): Buffer | null {
  let base64 = encoded;
  if (encoded.includes('%')) {
    try {
      base64 = decodeURIComponent(encoded);
    } catch {
      return null;
    }
  }
  return BASE64.test(base64) ? Buffer.from(base64, 'base64') : null;
}

/** A DER body of declared length within the limit; chunked or larger bodies are the pipeline's (413). */
function isOcspRequestBody(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || type.split(';', 1)[0].trim().toLowerCase() !== 'application/ocsp-request') return false;
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length > 0 && length <= MAX_REQUEST_BYTES;
}

/** The headers OcspController sends for a cacheable answer (RFC 5019 §6), and nosniff. */
function send(res: ServerResponse, answer: OcspHttpResponse): void {
  const nextUpdate = answer.nextUpdate!;
  const maxAge = Math.max(0, Math.floor((nextUpdate.getTime() - Date.now()) / 1000));
  res.writeHead(200, {
    'Content-Type': 'application/ocsp-response',
    'Content-Length': answer.der.length,
    'Cache-Control': `public, max-age=${maxAge}, no-transform, must-revalidate`,
    Expires: nextUpdate.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(answer.der);
}
