import type * as Mailparser from 'mailparser';

/**
 * Delivery reports arriving at the SMTP listener, read by their machine-readable parts only: an
 * RFC 3464 DSN's `message/delivery-status` part (the per-message block, then one block per
 * recipient, each a run of one-line fields) and an RFC 5965 complaint's `message/feedback-report`
 * part, plus the returned headers (`text/rfc822-headers` or `message/rfc822`) for X-Notification-ID.
 * What is read is capped (the message, each part, the recipients), so a crafted report costs time
 * in proportion to the caps, not to its size.
 */
export const REPORT_MAX_BYTES = 1024 * 1024;
export const REPORT_PART_MAX_BYTES = 64 * 1024;
export const REPORT_MAX_RECIPIENTS = 100;

export interface RecipientStatus {
  recipient: string;
  action: string;
  status: string;
  diagnostic: string;
}

export interface DeliveryReport {
  type: 'delivery-status' | 'feedback-report';
  /** The report's own Message-ID (null: none). */
  messageId: string | null;
  /** Original-Envelope-Id of the delivery-status part (our signed ENVID), or null. */
  envelopeId: string | null;
  /** X-Notification-ID of the returned headers, or null. */
  headerId: string | null;
  recipients: RecipientStatus[];
  feedbackType: string;
  originalRecipient: string;
}

/** The report type of a message whose top-level Content-Type is multipart/report; null for any other message. */
export function reportType(raw: string): 'delivery-status' | 'feedback-report' | null {
  const end = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, end < 0 ? Math.min(raw.length, REPORT_PART_MAX_BYTES) : end + 1);
  const type = /^Content-Type:[ \t]*multipart\/report[ \t]*;([^\n]*(?:\n[ \t][^\n]*)*)/im.exec(head)?.[1] ?? '';
  const value = /report-type[ \t]*=[ \t]*"?([a-z-]+)"?/i.exec(type)?.[1]?.toLowerCase();
  return value === 'delivery-status' || value === 'feedback-report' ? value : null;
}

/** Header-style fields of one block (`Name: value`, folded lines joined); names lowercased, the first of each kept. */
function fields(block: string): Map<string, string> {
  const found = new Map<string, string>();
  let last: string | null = null;
  for (const line of block.split('\n')) {
    if (/^[ \t]/.test(line) && last !== null) {
      found.set(last, `${found.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      last = null;
      continue;
    }
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[a-z0-9-]+$/.test(name) || found.has(name)) {
      last = null;
      continue;
    }
    found.set(name, line.slice(colon + 1).trim());
    last = name;
  }
  return found;
}

/** `rfc822; alice@acme.example` → `alice@acme.example`. */
const addressOf = (value: string) => value.slice(value.indexOf(';') + 1).trim();

function mailparser(): typeof Mailparser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('mailparser') as typeof Mailparser;
}

/** Reads a report (see reportType); null when the message is not one. */
export async function readDeliveryReport(raw: string): Promise<DeliveryReport | null> {
  const type = reportType(raw);
  if (!type) return null;
  const mail = await mailparser().simpleParser(raw.slice(0, REPORT_MAX_BYTES), {
    keepDeliveryStatus: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const part = (...types: string[]) =>
    mail.attachments
      .find((attachment) => types.includes(attachment.contentType.toLowerCase()))
      ?.content.subarray(0, REPORT_PART_MAX_BYTES)
      .toString('utf8')
      .replace(/\r\n/g, '\n') ?? '';
  const returned = fields(part('text/rfc822-headers', 'message/rfc822').split('\n\n')[0]);
  const report: DeliveryReport = {
    type,
    messageId: mail.messageId ?? null,
    envelopeId: null,
    headerId: returned.get('x-notification-id') ?? null,
    recipients: [],
    feedbackType: 'unknown',
    originalRecipient: 'unknown',
  };
  if (type === 'feedback-report') {
    const feedback = fields(part('message/feedback-report'));
    report.feedbackType = feedback.get('feedback-type')?.split(/\s/)[0] || 'unknown';
    report.originalRecipient = feedback.get('original-rcpt-to')?.split(/\s/)[0] || 'unknown';
    return report;
  }
  const [perMessage, ...perRecipient] = part('message/delivery-status')
    .split(/\n[ \t]*\n/)
    .filter((block) => block.trim());
  report.envelopeId = fields(perMessage ?? '').get('original-envelope-id') ?? null;
  for (const block of perRecipient.slice(0, REPORT_MAX_RECIPIENTS)) {
    const recipient = fields(block);
    const action = recipient.get('action');
    if (!recipient.has('final-recipient') || !action) continue;
    report.recipients.push({
      recipient: addressOf(recipient.get('final-recipient')!),
      action: action.toLowerCase(),
      status: recipient.get('status') ?? 'unknown',
      diagnostic: recipient.get('diagnostic-code') ?? '',
    });
  }
  return report;
}
