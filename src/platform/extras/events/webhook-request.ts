/**
 * The HTTP request NetBox 4 sends for a webhook (netbox/extras/webhooks.py send_webhook and the Webhook model's
 * render_headers / render_body) and the default body it carries.
 */
import { createHmac } from 'node:crypto';

export type WebhookHttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const HTTP_METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A webhook's delivery fields, named as in NetBox's REST API. */
export interface WebhookDefinition {
  payload_url: string;
  http_method: WebhookHttpMethod;
  http_content_type: string;
  /** "Name: value" lines. */
  additional_headers: string;
  /** Empty: the body is the event payload as JSON. */
  body_template: string;
  /** Empty: the request is not signed. */
  secret: string;
  ssl_verification: boolean;
  ca_file_path?: string | null;
}

/** One delivery, ready to send. It holds the signature but not the secret that produced it. */
export interface WebhookRequest {
  method: WebhookHttpMethod;
  url: string;
  headers: Record<string, string>;
  /** The exact bytes that were signed. */
  body: Buffer;
  verifyTls: boolean;
  /** PEM file of the CAs to trust instead of the system's; null for the system's. */
  caFilePath: string | null;
}

export class WebhookConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid webhook: ${problems.join('; ')}`);
    this.name = new.target.name;
  }
}

export type WebhookEventType = 'created' | 'updated' | 'deleted';

export interface EventPayloadInput {
  event: WebhookEventType;
  /** A Date is formatted as NetBox formats it; a string is sent as it is. */
  timestamp: Date | string;
  /** "<app_label>.<model>", e.g. "dcim.site". */
  objectType: string;
  username: string;
  requestId: string | null;
  /** The object as the REST API serializes it. */
  data: Record<string, unknown>;
  prechange: Record<string, unknown> | null;
  postchange: Record<string, unknown> | null;
}

export interface EventPayload {
  event: WebhookEventType;
  timestamp: string;
  object_type: string;
  /** The model part of object_type, which receivers written for NetBox before object_type still read. */
  model: string;
  username: string;
  request_id: string | null;
  data: Record<string, unknown>;
  snapshots: { prechange: Record<string, unknown> | null; postchange: Record<string, unknown> | null };
}

/** NetBox's default webhook body for an object change. */
export function buildEventPayload(input: EventPayloadInput): EventPayload {
  const match = /^([^.]+)\.([^.]+)$/.exec(input.objectType);
  if (match === null) throw new RangeError(`object type "${input.objectType}" is not "<app_label>.<model>"`);
  return {
    event: input.event,
    timestamp: typeof input.timestamp === 'string' ? input.timestamp : formatNetBoxTimestamp(input.timestamp),
    object_type: input.objectType,
    model: match[2],
    username: input.username,
    request_id: input.requestId,
    data: input.data,
    snapshots: { prechange: input.prechange, postchange: input.postchange },
  };
}

/**
 * NetBox sends str(timezone.now()), e.g. "2024-05-01 12:00:00.123000+00:00"; Python leaves the fraction out when it
 * is zero, and receivers parsing NetBox's timestamps expect that too.
 */
function formatNetBoxTimestamp(date: Date): string {
  const iso = date.toISOString();
  const milliseconds = iso.slice(20, 23);
  const fraction = milliseconds === '000' ? '' : `.${milliseconds}000`;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}+00:00`;
}

/**
 * Builds the request for one delivery. The body is `renderedBody` when given (body templates are rendered by the
 * caller), otherwise `payload` as JSON. Templated URLs and headers are likewise rendered by the caller, into the
 * definition it passes. Throws WebhookConfigurationError when the definition cannot produce a valid request.
 */
export function buildWebhookRequest(webhook: WebhookDefinition, payload: object, renderedBody?: string): WebhookRequest {
  const problems: string[] = [];
  if (!HTTP_METHODS.includes(webhook.http_method)) {
    problems.push(`http_method: ${JSON.stringify(webhook.http_method)} is not one of ${HTTP_METHODS.join(', ')}`);
  }
  if (!isHttpUrl(webhook.payload_url)) problems.push('payload_url: not an http:// or https:// URL');
  if (webhook.http_content_type.trim() === '') problems.push('http_content_type: must not be empty');
  else if (!isValidHeaderValue(webhook.http_content_type)) {
    problems.push('http_content_type: contains characters not allowed in an HTTP header');
  }
  const additionalHeaders = parseAdditionalHeaders(webhook.additional_headers);
  problems.push(...additionalHeaders.problems.map((problem) => `additional_headers: ${problem}`));
  if (renderedBody === undefined && webhook.body_template !== '') {
    problems.push('body_template: is set, but no rendered body was given');
  }
  if (problems.length > 0) throw new WebhookConfigurationError(problems);

  const body = Buffer.from(renderedBody ?? JSON.stringify(payload), 'utf8');

  // Later headers replace earlier ones regardless of case, as in the requests library NetBox uses: an additional
  // Content-Type overrides http_content_type, and nothing overrides the signature.
  const headers = new Map<string, [string, string]>();
  const setHeader = (name: string, value: string) => headers.set(name.toLowerCase(), [name, value]);
  setHeader('Content-Type', webhook.http_content_type);
  for (const [name, value] of additionalHeaders.headers) setHeader(name, value);
  if (webhook.secret !== '') setHeader('X-Hook-Signature', signWebhookBody(body, webhook.secret));

  return {
    method: webhook.http_method,
    url: webhook.payload_url,
    headers: Object.fromEntries(headers.values()),
    body,
    // NetBox lets a CA file win over ssl_verification: false (its form refuses that combination anyway).
    verifyTls: webhook.ssl_verification || Boolean(webhook.ca_file_path),
    caFilePath: webhook.ca_file_path || null,
  };
}

/** X-Hook-Signature: lowercase hex HMAC-SHA512 of the body bytes, keyed by the secret's UTF-8 bytes. */
function signWebhookBody(body: Buffer, secret: string): string {
  return createHmac('sha512', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/**
 * The malformed lines of a webhook's additional_headers ("Name: value" per line; blank lines are ignored), as
 * "line <n>: ..." messages; empty when all lines are usable. Values are not echoed, since they often hold tokens.
 */
export function validateAdditionalHeaders(text: string): string[] {
  return parseAdditionalHeaders(text).problems;
}

// Python's str.splitlines boundaries, which NetBox uses to split the headers.
// eslint-disable-next-line no-control-regex -- the separators \x1c-\x1e are among those boundaries
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

// RFC 9110 token, the characters a header name may use.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function parseAdditionalHeaders(text: string): { headers: Array<[string, string]>; problems: string[] } {
  const headers: Array<[string, string]> = [];
  const problems: string[] = [];
  text.split(LINE_BREAK).forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `line ${index + 1}`;
    // Split at the first colon only, so that values such as URLs or "Bearer a:b" keep theirs.
    const colon = line.indexOf(':');
    if (colon === -1) {
      problems.push(`${where}: expected "Name: value"`);
      return;
    }
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name === '') problems.push(`${where}: the header name is empty`);
    else if (!HEADER_NAME.test(name)) problems.push(`${where}: ${JSON.stringify(name)} is not a valid header name`);
    else if (!isValidHeaderValue(value)) {
      problems.push(`${where} (${name}): the value contains characters not allowed in an HTTP header`);
    } else headers.push([name, value]);
  });
  return { headers, problems };
}

// The characters Node's http module accepts in a header value: tab, visible ASCII, space and Latin-1.
function isValidHeaderValue(value: string): boolean {
  return !/[^\t\x20-\x7e\x80-\xff]/.test(value);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
