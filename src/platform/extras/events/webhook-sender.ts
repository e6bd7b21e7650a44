/**
 * Sends a built webhook request. node:http / node:https rather than fetch, so that a webhook without SSL
 * verification can turn certificate checks off for its own request only.
 */
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { WebhookRequest } from './webhook-request';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** Receivers' replies are only kept for logs and error messages; the rest is not read. */
export const MAX_RESPONSE_BODY_BYTES = 64 * 1024;

const ERROR_BODY_EXCERPT_CHARACTERS = 200;

export interface WebhookResponse {
  status: number;
  body: string;
}

/**
 * A delivery that did not succeed: a non-2xx status (`status` set) or no response at all (`status` null).
 * Thrown so that the job queue retries the delivery, as NetBox's worker does.
 */
export class WebhookDeliveryError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Sends `request` and resolves with the response when its status is 2xx. `timeoutMs` bounds the whole exchange,
 * from connecting to the end of the response body. Messages name the method and the URL's origin only: paths and
 * query strings of webhook URLs often carry tokens.
 */
export async function sendWebhookRequest(
  request: WebhookRequest,
  timeoutMs: number = DEFAULT_WEBHOOK_TIMEOUT_MS,
): Promise<WebhookResponse> {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`timeout must be a positive number of milliseconds, got ${timeoutMs}`);
  }
  const url = URL.canParse(request.url) ? new URL(request.url) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new WebhookDeliveryError(`Webhook ${request.method} failed: the URL is not an http:// or https:// URL`, null);
  }
  const target = `${request.method} ${url.origin}`;

  let ca: Buffer | undefined;
  if (url.protocol === 'https:' && request.caFilePath !== null) {
    try {
      ca = await readFile(request.caFilePath);
    } catch (error) {
      throw new WebhookDeliveryError(`Webhook ${target} failed: cannot read the CA file: ${(error as Error).message}`, null, {
        cause: error,
      });
    }
  }

  return new Promise<WebhookResponse>((resolve, reject) => {
    const options: RequestOptions = {
      method: request.method,
      headers: { ...request.headers, 'Content-Length': String(request.body.length) },
      // A fresh connection per delivery: nothing lingers in a shared pool between retries.
      agent: false,
      rejectUnauthorized: request.verifyTls,
      ca,
    };
    const outgoing = url.protocol === 'https:' ? httpsRequest(url, options) : httpRequest(url, options);

    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (reason: string, status: number | null, cause?: unknown) => {
      const errorOptions = cause === undefined ? undefined : { cause };
      settle(() => reject(new WebhookDeliveryError(`Webhook ${target} failed: ${reason}`, status, errorOptions)));
    };

    const timer = setTimeout(() => {
      fail(`no complete response within ${timeoutMs} ms`, null);
      outgoing.destroy();
    }, timeoutMs);

    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const finish = () => {
        const status = response.statusCode ?? 0;
        const body = Buffer.concat(chunks, received).toString('utf8');
        if (status >= 200 && status <= 299) settle(() => resolve({ status, body }));
        else fail(`status ${status}, ${describeBody(body)}`, status);
      };
      response.on('data', (chunk: Buffer) => {
        const kept = chunk.subarray(0, MAX_RESPONSE_BODY_BYTES - received);
        chunks.push(kept);
        received += kept.length;
        if (received >= MAX_RESPONSE_BODY_BYTES) {
          finish();
          // Stops a receiver that keeps sending from holding the delivery until the timeout.
          response.destroy();
        }
      });
      response.on('end', finish);
      response.on('error', (error) => fail(describeNetworkError(error), null, error));
    });
    outgoing.on('error', (error) => fail(describeNetworkError(error), null, error));
    outgoing.end(request.body);
  });
}

function describeBody(body: string): string {
  if (body === '') return 'empty body';
  const excerpt = body.length > ERROR_BODY_EXCERPT_CHARACTERS ? `${body.slice(0, ERROR_BODY_EXCERPT_CHARACTERS)}…` : body;
  return `body ${JSON.stringify(excerpt)}`;
}

function describeNetworkError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  // Failing to connect to every address of a host gives an AggregateError whose own message is empty.
  const innerMessages = error instanceof AggregateError ? error.errors.map((inner: Error) => inner.message).join('; ') : '';
  const message = error.message || innerMessages;
  if (message === '') return code ?? error.name;
  return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
}
