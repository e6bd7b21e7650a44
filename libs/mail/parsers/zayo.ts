import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { boldLabelledValues, htmlLines, htmlTables, labelKey, loadHtml } from './support/html';

/**
 * Zayo: HTML notices from mr@zayo.com. Running text of `<b>Label: </b> value` pairs ("Maintenance
 * Ticket #", "Date Notice Sent", "Customer", "Reason for Maintenance"); one window per "n-th Activity
 * Date" block, each written in the local zone and in GMT (the GMT line is read; "Backup Date" blocks
 * are fallbacks, not windows); a circuit table headed "Circuit Id | Expected Impact | …" (ids kept as
 * written, inner spaces included). The subject ("START MAINTENANCE NOTIFICATION***Customer***ZAYO TTN-…
 * Planned***") names the notification type and the account; the body's opening sentence says the status too.
 */
function parseZayo(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(email.html);
  const fields = boldLabelledValues($);
  const subject = subjectParts(email.subject);
  const maintenanceId = fields.get('maintenance ticket') || subject.maintenanceId;
  if (!maintenanceId)
    throw new MailParseError('unsupported_format', 'zayo: no "Maintenance Ticket #:" in the body nor TTN id in the subject');
  const lines = htmlLines($);
  const windows = activityWindows(lines);
  if (!windows.length) throw new MailParseError('unsupported_format', 'zayo: no "Activity Date" window with a GMT line');
  const circuits = circuitRows($, notes);
  const status = zayoStatus(lines.join('\n'), email.subject, notes);
  const noticeSent = fields.get('date notice sent');
  const stamp = noticeSent ? dateTime(noticeSent, 'zayo') : stampOf(email.date, 'zayo');
  notes.reason(
    `ticket ${maintenanceId}, ${windows.length} activity window(s) in GMT, ${circuits.length} circuit(s) from the circuit table`,
  );
  const account = fields.get('customer') || subject.account;
  if (!account) notes.uncertain('no "Customer:" line nor account in the subject');
  return windows.map(([start, end]) => ({
    provider: 'zayo',
    account,
    maintenanceId,
    status,
    circuits,
    start,
    end,
    stamp,
    sequence: 1,
    summary: fields.get('reason for maintenance') ?? '',
  }));
}

/** "[list] TYPE***Account***ZAYO TTN-0001234567 Planned***": the account (when the subject has one) and the ticket. */
function subjectParts(subject: string): { account: string; maintenanceId: string } {
  const tokens = subject.split(/\*+/);
  const ticket = /\bZAYO\s+(TTN-\d+)/i.exec(subject);
  return { account: tokens.length === 4 ? tokens[1].trim() : '', maintenanceId: ticket?.[1] ?? '' };
}

/** Each "Activity Date" heading's first "… to … ( GMT )" line, as [start, end]. */
function activityWindows(lines: readonly string[]): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  lines.forEach((line, index) => {
    if (!/activity date/i.test(line)) return;
    for (const next of lines.slice(index + 1, index + 6)) {
      if (/activity date|backup date/i.test(next)) break;
      const match = /^(.+?)\s+to\s+(.+?)\s*\(\s*GMT\s*\)/i.exec(next);
      if (!match) continue;
      windows.push([dateTime(match[1], 'zayo'), dateTime(match[2], 'zayo')]);
      break;
    }
  });
  return windows;
}

const CIRCUIT_HEADINGS = ['circuit id', 'expected impact'];

function circuitRows($: ReturnType<typeof loadHtml>, notes: ParseNotes): ParsedMaintenance['circuits'] {
  const circuits: ParsedMaintenance['circuits'] = [];
  for (const rows of htmlTables($, { raw: true })) {
    const header = rows.findIndex((cells) => CIRCUIT_HEADINGS.every((heading, column) => labelKey(cells[column] ?? '') === heading));
    if (header < 0) continue;
    for (const cells of rows.slice(header + 1)) {
      if (!cells[0]) continue;
      circuits.push({ circuitId: cells[0], impact: zayoImpact(cells[1] ?? '', notes) });
    }
  }
  return circuits;
}

function zayoImpact(text: string, notes: ParseNotes): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.includes('hard down')) return 'OUTAGE';
  if (lower.includes('no expected impact')) return 'NO-IMPACT';
  // A switch hit is the protection path taking over: the service stays up without its redundancy.
  if (lower.includes('switch hit') || lower.includes('protection switch')) return 'REDUCED-REDUNDANCY';
  notes.uncertain(`impact "${text}" read as OUTAGE`);
  return 'OUTAGE';
}

/** The subject's notification type, else the body's opening sentence (Zayo writes both; they agree). */
function zayoStatus(text: string, subject: string, notes: ParseNotes): ParsedStatus {
  const upper = subject.toUpperCase();
  if (upper.includes('CANCEL')) return 'CANCELLED';
  if (upper.includes('END OF WINDOW') || upper.includes('COMPLETED')) return 'COMPLETED';
  if (upper.includes('START MAINTENANCE')) return 'IN-PROCESS';
  if (upper.includes('RESCHEDULE')) return 'RE-SCHEDULED';
  const lower = text.toLowerCase();
  if (lower.includes('has cancelled')) return 'CANCELLED';
  if (lower.includes('will be commencing momentarily')) return 'IN-PROCESS';
  if (lower.includes('has been completed') || lower.includes('has closed')) return 'COMPLETED';
  if (lower.includes('has rescheduled')) return 'RE-SCHEDULED';
  if (lower.includes('serves as official notification') && lower.includes('will be performing maintenance')) return 'CONFIRMED';
  notes.uncertain('no notification type in the subject nor status sentence in the body: read as CONFIRMED');
  return 'CONFIRMED';
}

export const zayoParser: CarrierParser = {
  name: 'zayo',
  label: 'Zayo',
  senderDomains: ['zayo.com'],
  reads: ['html', 'subject'],
  parse: parseZayo,
};
