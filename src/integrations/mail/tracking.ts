import { createHash, createVerify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { EgressPolicy } from '../../common/http/egress-policy';
import type { HttpAnswer } from './http-server';
import type { Logger } from './logger';
import { validSignature } from './outbound';
import { readDeliveryReport } from './delivery-report';
import type { PlatformClient } from './platform-client';
import { verifiedTrackingId } from './tracking-id';
import { WORKER_METRICS } from './worker-metrics';

/**
 * Tracking: delivery events → the platform (`prepared-notifications/{id}/delivery-event/`, which
 * applies the spec's table in one locked step). Sources: SES event JSON inside SNS envelopes (the
 * signature verified, v1 SHA1 and v2 SHA256, the certificate fetched only from an SNS host;
 * subscriptions confirmed; topics not in TRACKING_TOPIC_ARNS refused), SES event JSON posted
 * directly (signed like the outbound webhook: X-Hook-Signature with WEBHOOK_SECRET), and, over the
 * SMTP listener, RFC 3464 delivery status notifications and RFC 5965 complaint reports (believed
 * only when they carry our signed notification id, tracking-id.ts).
 *
 * Replays: an SNS notification or a signed SES event older (or further ahead) than
 * TRACKING_MAX_EVENT_AGE_SECONDS is refused, and every event goes to the platform with its own id
 * (the SNS MessageId, the hash of a signed body, the report's Message-ID), which applies it once.
 */
export type DeliveryEventKind =
  'Delivery' | 'Bounce' | 'Complaint' | 'Reject' | 'Rendering Failure' | 'Send' | 'Open' | 'Click' | 'Delivery Delay';

export interface DeliveryEvent {
  kind: DeliveryEventKind;
  notificationId: number;
  message: string;
}

/** How SNS envelopes are fetched (certificates, subscription confirmations): injectable for tests. */
export type Fetcher = (url: string) => Promise<{ status: number; text: string }>;

/** Through the egress policy without an allow-list: SNS hosts are public. */
const SNS_EGRESS = new EgressPolicy({ allow: [], caDirectory: undefined });

export const httpsFetcher: Fetcher = async (url) => {
  const response = await SNS_EGRESS.request(url, { timeoutMs: 10_000, maxResponseBytes: 1024 * 1024, overflow: 'fail' });
  return { status: response.status, text: response.body.toString('utf8') };
};

const SES_KINDS: Readonly<Record<string, DeliveryEventKind>> = {
  Delivery: 'Delivery',
  Bounce: 'Bounce',
  Complaint: 'Complaint',
  Reject: 'Reject',
  'Rendering Failure': 'Rendering Failure',
  RenderingFailure: 'Rendering Failure',
  Send: 'Send',
  Open: 'Open',
  Click: 'Click',
  DeliveryDelay: 'Delivery Delay',
  'Delivery Delay': 'Delivery Delay',
};

type JsonObject = Record<string, unknown>;

/** The value at a path of parsed JSON (undefined when any step is missing). */
const at = (value: unknown, ...path: Array<string | number>): unknown =>
  path.reduce<unknown>(
    (current, step) => (current !== null && typeof current === 'object' ? (current as JsonObject)[step] : undefined),
    value,
  );

const or = (value: unknown) => (value === undefined || value === null || value === '' ? 'unknown' : String(value));
const list = (values: unknown, key?: string) =>
  Array.isArray(values) && values.length
    ? values.map((v: unknown) => (key ? (v as Record<string, unknown>)[key] : v)).join(', ')
    : 'unknown';

/** An SES event (documented JSON shape) as a delivery event; null without the notification_id tag or of an unknown type. */
export function sesEvent(json: JsonObject): DeliveryEvent | null {
  const kind = SES_KINDS[String(json.eventType ?? json.notificationType ?? '')];
  const tag = at(json, 'mail', 'tags', 'notification_id', 0) ?? headerValue(at(json, 'mail', 'headers'), 'X-Notification-ID');
  // The header carries the signed form `<id>.<tag>`; the SES event itself is authenticated (SNS or X-Hook-Signature).
  const notificationId = Number(String(tag ?? '').split('.')[0]);
  if (!kind || !Number.isInteger(notificationId) || notificationId < 1) return null;
  const messages: Record<DeliveryEventKind, () => string> = {
    Delivery: () => `Delivered to ${list(at(json, 'delivery', 'recipients'))}. SMTP: ${or(at(json, 'delivery', 'smtpResponse'))}`,
    Bounce: () =>
      `Bounce (${or(at(json, 'bounce', 'bounceType'))}/${or(at(json, 'bounce', 'bounceSubType'))}) for ${list(at(json, 'bounce', 'bouncedRecipients'), 'emailAddress')}`,
    Complaint: () =>
      `Complaint (${or(at(json, 'complaint', 'complaintFeedbackType'))}) from ${list(at(json, 'complaint', 'complainedRecipients'), 'emailAddress')}`,
    Reject: () => `Rejected: ${or(at(json, 'reject', 'reason'))}`,
    'Rendering Failure': () => `Rendering failure: ${or(at(json, 'failure', 'errorMessage'))}`,
    Send: () => 'Email accepted by SES for delivery',
    Open: () => `Opened from ${or(at(json, 'open', 'ipAddress'))} (${or(at(json, 'open', 'userAgent'))})`,
    Click: () => `Link clicked: ${or(at(json, 'click', 'link'))}`,
    'Delivery Delay': () => `Delivery delayed: ${or(at(json, 'deliveryDelay', 'delayType'))}`,
  };
  return { kind, notificationId, message: messages[kind]() };
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  const found = headers.find((h: { name?: string }) => h?.name?.toLowerCase() === name.toLowerCase()) as { value?: string } | undefined;
  return found?.value;
}

/** SNS signing certificates come only from an SNS host over HTTPS. */
export function isSnsUrl(url: string, path?: RegExp): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' &&
      /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/.test(parsed.hostname) &&
      (path === undefined || path.test(parsed.pathname))
    );
  } catch {
    return false;
  }
}

const SIGNED_KEYS: Readonly<Record<string, readonly string[]>> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** The string SNS signs: `Key\nValue\n` for the type's keys in order (Subject only when present). */
export function snsStringToSign(envelope: Record<string, unknown>): string | null {
  const keys = SIGNED_KEYS[String(envelope.Type)];
  if (!keys) return null;
  return keys
    .filter((key) => envelope[key] !== undefined && envelope[key] !== null)
    .map((key) => `${key}\n${String(envelope[key])}\n`)
    .join('');
}

/** The time an SES event happened: its detail object's timestamp (bounce.timestamp…), else mail.timestamp; NaN when none. */
export function sesEventTime(json: JsonObject): number {
  const detail = Object.values(json).find(
    (value) => value !== null && typeof value === 'object' && !Array.isArray(value) && value !== json.mail && 'timestamp' in value,
  );
  return Date.parse(String(at(detail, 'timestamp') ?? at(json, 'mail', 'timestamp') ?? ''));
}

export interface TrackingSettings {
  trackingTopicArns: readonly string[];
  webhookSecret: string;
  /** Key of the signed notification ids (tracking-id.ts). */
  trackingIdKey: Buffer;
  trackingMaxEventAgeSeconds: number;
}

export class Tracking {
  private readonly certificates = new Map<string, string>();

  constructor(
    private readonly platform: PlatformClient,
    private readonly settings: TrackingSettings,
    private readonly logger: Logger,
    private readonly fetcher: Fetcher = httpsFetcher,
    private readonly now: () => number = Date.now,
  ) {}

  async apply(event: DeliveryEvent, eventId?: string): Promise<void> {
    const result = await this.platform.deliveryEvent(event.notificationId, event.kind, event.message, eventId);
    const status = result === null ? 'not_found' : result.duplicate ? 'duplicate' : result.status;
    WORKER_METRICS.deliveryEvents.inc({ event_type: event.kind, status });
    this.logger.info({ notification: event.notificationId, event: event.kind, status }, 'delivery event');
  }

  /** Whether an event of `time` (epoch ms) is within TRACKING_MAX_EVENT_AGE_SECONDS of now, either way. */
  private fresh(time: number): boolean {
    return Number.isFinite(time) && Math.abs(this.now() - time) <= this.settings.trackingMaxEventAgeSeconds * 1000;
  }

  async verifySns(envelope: Record<string, unknown>): Promise<boolean> {
    const version = String(envelope.SignatureVersion ?? '1');
    const algorithm = version === '1' ? 'RSA-SHA1' : version === '2' ? 'RSA-SHA256' : null;
    const certUrl = String(envelope.SigningCertURL ?? envelope.SigningCertUrl ?? '');
    const toSign = snsStringToSign(envelope);
    if (!algorithm || !toSign || typeof envelope.Signature !== 'string' || !isSnsUrl(certUrl, /\.pem$/)) return false;
    let certificate = this.certificates.get(certUrl);
    if (!certificate) {
      const fetched = await this.fetcher(certUrl);
      if (fetched.status !== 200 || !fetched.text.includes('BEGIN CERTIFICATE')) return false;
      certificate = fetched.text;
      this.certificates.set(certUrl, certificate);
    }
    try {
      return createVerify(algorithm).update(toSign, 'utf8').verify(certificate, envelope.Signature, 'base64');
    } catch {
      return false;
    }
  }

  /** POST /webhook/tracking. */
  async webhook(raw: Buffer, headers: IncomingHttpHeaders): Promise<HttpAnswer> {
    let body: JsonObject;
    try {
      body = JSON.parse(raw.toString('utf8')) as JsonObject;
    } catch {
      return { status: 400, body: { error: 'Invalid JSON' } };
    }
    if (body === null || typeof body !== 'object') return { status: 400, body: { error: 'Expected a JSON object' } };
    if (typeof body.Type === 'string' && typeof body.TopicArn === 'string') return this.snsMessage(body);
    // SES event JSON without an envelope: authenticated like the outbound webhook.
    if (!validSignature(raw, headers['x-hook-signature'], this.settings.webhookSecret))
      return { status: 403, body: { error: 'Invalid signature' } };
    if (!this.fresh(sesEventTime(body))) return { status: 400, body: { error: 'Event timestamp missing or outside the accepted age' } };
    return this.sesMessage(body, `ses:${createHash('sha256').update(raw).digest('hex')}`);
  }

  private async snsMessage(envelope: JsonObject): Promise<HttpAnswer> {
    if (!(await this.verifySns(envelope))) return { status: 403, body: { error: 'Invalid SNS signature' } };
    if (!this.settings.trackingTopicArns.includes(String(envelope.TopicArn))) return { status: 403, body: { error: 'Unknown topic' } };
    if (envelope.Type === 'SubscriptionConfirmation') {
      if (!isSnsUrl(String(envelope.SubscribeURL ?? ''))) return { status: 400, body: { error: 'SubscribeURL is not an SNS URL' } };
      const confirmed = await this.fetcher(String(envelope.SubscribeURL));
      if (confirmed.status !== 200) return { status: 502, body: { error: `Subscription confirmation answered ${confirmed.status}` } };
      this.logger.info({ topic: envelope.TopicArn }, 'SNS subscription confirmed');
      return { status: 200, body: { confirmed: true } };
    }
    if (envelope.Type !== 'Notification') return { status: 200, body: { ignored: envelope.Type } };
    if (!this.fresh(Date.parse(String(envelope.Timestamp ?? ''))))
      return { status: 400, body: { error: 'Timestamp missing or outside the accepted age' } };
    let message: JsonObject;
    try {
      message = JSON.parse(String(envelope.Message)) as JsonObject;
    } catch {
      return { status: 400, body: { error: 'The SNS Message is not JSON' } };
    }
    return this.sesMessage(message, `sns:${String(envelope.MessageId ?? '').slice(0, 150)}`);
  }

  private async sesMessage(json: JsonObject, eventId: string): Promise<HttpAnswer> {
    const event = sesEvent(json);
    if (!event) return { status: 200, body: { processed: 0, reason: 'not a tracked SES event (type or notification_id tag missing)' } };
    await this.apply(event, eventId);
    return { status: 200, body: { processed: 1, event: event.kind, notification: event.notificationId } };
  }

  /**
   * A message at the SMTP listener that is a delivery report: an RFC 3464 DSN (report-type
   * delivery-status; Action delivered / failed / delayed → Delivery / Bounce / Delivery Delay) or an
   * RFC 5965 complaint (report-type feedback-report → Complaint). The notification is the DSN's
   * Original-Envelope-Id (our signed ENVID) or the X-Notification-ID of the returned headers, and
   * only a signed id that verifies is believed: anything else is ignored. False: not a report.
   */
  async report(raw: string): Promise<boolean> {
    const report = await readDeliveryReport(raw);
    if (!report) return false;
    const notificationId =
      [report.envelopeId, report.headerId]
        .map((claimed) => (claimed ? verifiedTrackingId(claimed, this.settings.trackingIdKey) : null))
        .find((id) => id !== null) ?? null;
    if (notificationId === null) {
      WORKER_METRICS.deliveryEvents.inc({ event_type: report.type, status: 'unverified' });
      this.logger.warn(
        { report_type: report.type, message_id: report.messageId },
        'delivery report without a verifiable notification id; ignored',
      );
      return true;
    }
    const reportId = `report:${(report.messageId ?? createHash('sha256').update(raw).digest('hex')).slice(0, 150)}`;
    if (report.type === 'feedback-report') {
      await this.apply(
        { notificationId, kind: 'Complaint', message: `Complaint (${report.feedbackType}) from ${report.originalRecipient}` },
        reportId,
      );
      return true;
    }
    const actions = report.recipients;
    const diagnostic = actions.find((a) => a.diagnostic)?.diagnostic ?? '';
    const delivered = actions.filter((a) => a.action === 'delivered' || a.action === 'relayed' || a.action === 'expanded');
    const failed = actions.filter((a) => a.action === 'failed');
    const delayed = actions.filter((a) => a.action === 'delayed');
    if (delivered.length)
      await this.apply(
        {
          notificationId,
          kind: 'Delivery',
          message: `Delivered to ${delivered.map((a) => a.recipient).join(', ')}. DSN status ${delivered[0].status}`,
        },
        `${reportId}:delivery`,
      );
    if (failed.length)
      await this.apply(
        {
          notificationId,
          kind: 'Bounce',
          message: `Bounce (${failed[0].status.startsWith('5') ? 'Permanent' : 'Transient'}/${failed[0].status}) for ${failed.map((a) => a.recipient).join(', ')}${diagnostic ? `: ${diagnostic}` : ''}`,
        },
        `${reportId}:bounce`,
      );
    if (delayed.length)
      await this.apply(
        {
          notificationId,
          kind: 'Delivery Delay',
          message: `Delivery delayed: ${delayed.map((a) => `${a.recipient} ${a.status}`).join(', ')}`,
        },
        `${reportId}:delay`,
      );
    return true;
  }
}
