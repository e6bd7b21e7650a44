/**
 * Sends a built webhook request through the egress policy, which refuses internal addresses, reads the CA file only
 * from WEBHOOK_CA_DIR and follows no redirect (a 3xx answer is a failed delivery). Certificate checks are turned off
 * for a webhook's own request only when it asks so.
 */
import { EgressDeniedError, type EgressPolicy } from '../../../common/http/egress-policy';
import type { WebhookRequest } from './webhook-request';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** The part of a receiver's reply that is read. */
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
  egress: EgressPolicy,
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
  const fail = (reason: string, status: number | null, cause?: unknown): never => {
    throw new WebhookDeliveryError(`Webhook ${target} failed: ${reason}`, status, cause === undefined ? undefined : { cause });
  };

  let ca: Buffer | undefined;
  if (url.protocol === 'https:' && request.caFilePath !== null) {
    try {
      ca = await egress.readCaFile(request.caFilePath);
    } catch (error) {
      fail(`cannot read the CA file: ${(error as Error).message}`, null, error);
    }
  }

  let response;
  try {
    response = await egress.request(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      timeoutMs,
      // Receivers' replies are only kept for logs and error messages; the rest is not read.
      maxResponseBytes: MAX_RESPONSE_BODY_BYTES,
      overflow: 'truncate',
      rejectUnauthorized: request.verifyTls,
      ca,
    });
  } catch (error) {
    const reason =
      error instanceof EgressDeniedError ? `refused by the egress policy: ${error.message}` : describeNetworkError(error as Error);
    return fail(reason, null, error);
  }
  const body = response.body.toString('utf8');
  if (response.status < 200 || response.status > 299) fail(`status ${response.status}, ${describeBody(body)}`, response.status);
  return { status: response.status, body };
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
