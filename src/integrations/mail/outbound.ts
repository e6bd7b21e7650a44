import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { HttpAnswer } from './http-server';
import { signedTrackingId } from './tracking-id';
import type { Logger } from './logger';
import { statusValue, type PlatformClient, type PreparedNotification } from './platform-client';
import { WORKER_METRICS } from './worker-metrics';

/**
 * Outbound: ready prepared notifications sent by email, each exactly once whoever triggers it (the
 * poll, the signed webhook, several worker replicas): the notification is claimed on the platform
 * first (one claimer wins), then sent, then moved to sent with a journal message; a failed send
 * releases the claim with the error (the platform retries it after a backoff, and fails it after
 * its maximum of attempts).
 */

/**
 * Headers the composition or the transport owns: a notification's own `headers` cannot set them
 * (Sender and Return-Path would speak for another mailbox than MAIL_FROM_ADDRESS).
 */
const OWN_HEADERS = new Set([
  'from',
  'sender',
  'return-path',
  'to',
  'cc',
  'bcc',
  'subject',
  'date',
  'message-id',
  'x-notification-id',
  'content-type',
  'mime-version',
]);

export interface OutboundSettings {
  /** smtp: DSN with ENVID = notification id; ses: message tag notification_id and the configuration set. */
  transport: 'smtp' | 'ses';
  mailConfigurationSet: string;
  mailFromAddress: string;
  webhookSecret: string;
  claimLeaseSeconds: number;
  /** Key of the signed notification id (tracking-id.ts). */
  trackingIdKey: Buffer;
}

/** The iCalendar METHOD of a calendar (RFC 6047: the MIME `method` parameter must match it); PUBLISH when absent. */
export function calendarMethod(ical: string): string {
  return /^METHOD:\s*([A-Za-z-]+)\s*$/m.exec(ical)?.[1].toUpperCase() ?? 'PUBLISH';
}

/** The HTML body with the notification's CSS in a <style> element of its head. */
export function htmlWithStyle(html: string, css: string): string {
  if (!css.trim()) return html;
  const style = `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
  if (/<head[^>]*>/i.test(html)) return html.replace(/<head[^>]*>/i, (head) => `${head}${style}`);
  if (/<html[^>]*>/i.test(html)) return html.replace(/<html[^>]*>/i, (tag) => `${tag}<head>${style}</head>`);
  return `<!DOCTYPE html><html><head>${style}</head><body>${html}</body></html>`;
}

/** One email of a notification: every recipient in To, text and HTML alternatives, the calendar attached; X-Notification-ID the signed id. */
export function composeMessage(
  notification: PreparedNotification,
  from: string,
  trackingId: string = String(notification.id),
): Mail.Options & { messageId: string } {
  const recipients = (notification.recipients ?? []).filter((recipient) => recipient.email);
  const domain = from.split('@')[1] ?? 'localhost';
  const extra: Record<string, string> = {};
  for (const [name, value] of Object.entries(notification.headers ?? {})) {
    if (!OWN_HEADERS.has(name.toLowerCase()) && value !== null && value !== undefined) extra[name] = String(value);
  }
  return {
    from,
    to: recipients.map((recipient) => (recipient.name ? { name: recipient.name, address: recipient.email } : recipient.email)),
    subject: notification.subject,
    text: notification.body_text || undefined,
    html: notification.body_html ? htmlWithStyle(notification.body_html, notification.css ?? '') : undefined,
    date: new Date(),
    messageId: `<notification-${notification.id}.${randomBytes(6).toString('hex')}@${domain}>`,
    headers: { ...extra, 'X-Notification-ID': trackingId },
    attachments: notification.ical_content
      ? [
          {
            filename: 'maintenance.ics',
            content: notification.ical_content,
            contentType: `text/calendar; charset=utf-8; method=${calendarMethod(notification.ical_content)}`,
          },
        ]
      : [],
  };
}

export type SendOutcome = 'sent' | 'failed' | 'skipped';

/** An SMTP 5xx reply (no such mailbox, policy) or SES's MessageRejected: sending again cannot help. */
export function isPermanentRefusal(error: unknown): boolean {
  const { responseCode, name } = (error ?? {}) as { responseCode?: unknown; name?: unknown };
  return (typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600) || name === 'MessageRejected';
}

export class Outbound {
  private polling: Promise<unknown> | null = null;

  constructor(
    private readonly platform: PlatformClient,
    private readonly transport: Transporter,
    private readonly settings: OutboundSettings,
    private readonly logger: Logger,
  ) {}

  /** Claims, sends and records one notification. */
  async sendOne(id: number): Promise<SendOutcome> {
    const outcome = await this.claimAndSend(id);
    WORKER_METRICS.outbound.inc({ outcome });
    return outcome;
  }

  private async claimAndSend(id: number): Promise<SendOutcome> {
    const claim = await this.platform.claim(id, this.settings.claimLeaseSeconds);
    if (!claim) return 'skipped';
    const message = composeMessage(claim.notification, this.settings.mailFromAddress, signedTrackingId(id, this.settings.trackingIdKey));
    const to = (claim.notification.recipients ?? []).map((recipient) => recipient.email).filter(Boolean);
    try {
      if (!to.length) throw new Error('the notification has no recipients');
      const info = (await this.transport.sendMail({ ...message, ...this.trackingTag(id) })) as { response?: string };
      const moved = await this.platform.moveStatus(
        id,
        'sent',
        `Sent over ${this.settings.transport === 'ses' ? 'SES' : 'SMTP'} (Message-ID ${message.messageId}; relay: ${info.response ?? 'accepted'})`,
      );
      if (!moved.ok)
        this.logger.error({ notification: id, status: moved.status, body: moved.text }, 'sent, but the move to sent was refused');
      this.logger.info({ notification: id, message_id: message.messageId, recipients: to.length }, 'notification sent');
      return 'sent';
    } catch (error) {
      const reason = (error as Error).message;
      const released = await this.platform.release(id, claim.claim_token, reason, isPermanentRefusal(error));
      this.logger.warn(
        { notification: id, err: reason, status: released.status, next_attempt_at: released.next_attempt_at },
        'send failed',
      );
      return 'failed';
    }
  }

  /** How the notification id travels with the email, for the tracking that reports on it. */
  private trackingTag(id: number): Record<string, unknown> {
    if (this.settings.transport === 'ses')
      return {
        ses: {
          EmailTags: [{ Name: 'notification_id', Value: String(id) }],
          ...(this.settings.mailConfigurationSet ? { ConfigurationSetName: this.settings.mailConfigurationSet } : {}),
        },
      };
    // Delivery status notifications come back to the sender with our signed notification id (RFC 3461 ENVID).
    return {
      dsn: {
        id: signedTrackingId(id, this.settings.trackingIdKey),
        return: 'headers',
        notify: ['success', 'failure', 'delay'],
        recipient: this.settings.mailFromAddress,
      },
    };
  }

  /** One pass over the ready notifications (a pass still running is not started twice). */
  async pollOnce(): Promise<{ sent: number; failed: number; skipped: number }> {
    const run = async () => {
      const counts = { sent: 0, failed: 0, skipped: 0 };
      for (const id of await this.platform.readyNotificationIds()) counts[await this.sendOne(id)] += 1;
      return counts;
    };
    if (this.polling) await this.polling;
    this.polling = run();
    try {
      return (await this.polling) as { sent: number; failed: number; skipped: number };
    } finally {
      this.polling = null;
    }
  }

  /** Polls every `intervalSeconds` from now on; the returned function stops it. */
  startPolling(intervalSeconds: number): () => void {
    const tick = () =>
      this.pollOnce().then(
        (counts) => (counts.sent || counts.failed ? this.logger.info(counts, 'outbound poll') : undefined),
        (error: Error) => this.logger.error({ err: error.message }, 'outbound poll failed'),
      );
    void tick();
    const timer = setInterval(() => void tick(), intervalSeconds * 1000);
    return () => clearInterval(timer);
  }

  /** POST /webhook/outbound: signature first (403), then the payload, then the send. */
  async webhook(raw: Buffer, headers: IncomingHttpHeaders): Promise<HttpAnswer> {
    if (!validSignature(raw, headers['x-hook-signature'], this.settings.webhookSecret))
      return { status: 403, body: { error: 'Invalid signature' } };
    let payload: { data?: { id?: unknown; status?: unknown } };
    try {
      payload = JSON.parse(raw.toString('utf8')) as typeof payload;
    } catch {
      return { status: 400, body: { error: 'Invalid JSON' } };
    }
    const id = payload?.data?.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) return { status: 400, body: { error: 'No notification ID in payload' } };
    const status = statusValue(payload.data!.status as PreparedNotification['status']);
    if (status !== 'ready') return { status: 200, body: { skipped: true, reason: `status is ${String(status)}` } };
    const outcome = await this.sendOne(id);
    if (outcome === 'skipped') return { status: 200, body: { skipped: true, reason: 'no longer ready, or claimed by another sender' } };
    return { status: 200, body: { sent: outcome === 'sent' ? 1 : 0, failed: outcome === 'failed' ? 1 : 0 } };
  }
}

/** `X-Hook-Signature` = lowercase hex HMAC-SHA512 of the raw body, compared in constant time; missing → invalid. */
export function validSignature(raw: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (!secret) return false;
  const given = Buffer.from(typeof header === 'string' ? header : '', 'utf8');
  const expected = Buffer.from(createHmac('sha512', secret).update(raw).digest('hex'), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
