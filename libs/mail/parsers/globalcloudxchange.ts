import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlTables, htmlText } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * Global Cloud Xchange (GCX): the subject carries the ticket, kind, notice type, title and window —
 * "PE2024020844407 | Emergency | Service Advisory Notice | Span Loss Rectification | 12-Feb-2024
 * 09:00 (GMT) - 12-Feb-2024 17:00 (GMT)" — and the status words (completed, rescheduled, cancelled;
 * otherwise confirmed). The HTML opens "Dear <customer>," (the account) and lists services in a
 * "Service ID | Impact" table ("At Risk" is reduced redundancy). Without the window in the subject,
 * the schedule table's first primary window is read.
 */
const SUBJECT_WINDOW = /(\d{1,2}-[A-Za-z]{3}-\d{4} \d{1,2}:\d{2})\s*\(GMT\)\s*-\s*(\d{1,2}-[A-Za-z]{3}-\d{4} \d{1,2}:\d{2})\s*\(GMT\)/;

function parseGcx(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const html = htmlBody(email);
  const subject = email.subject.replace(/\s+/g, ' ').trim();
  const parts = subject.split('|').map((part) => part.trim());
  const ticket = /^[A-Z0-9]{6,}$/.test(parts[0] ?? '') ? parts[0] : /\b(PE\d{6,})\b/.exec(subject)?.[1];
  if (!ticket) throw new MailParseError('unsupported_format', 'globalcloudxchange: no ticket ("PE…") in the subject');
  const tables = htmlTables(html);
  let window: [number, number] | null = null;
  const fromSubject = SUBJECT_WINDOW.exec(subject);
  if (fromSubject) window = [dateTime(fromSubject[1], 'globalcloudxchange'), dateTime(fromSubject[2], 'globalcloudxchange')];
  else {
    for (const rows of tables) {
      const header = rows[0]?.map((cell) => cell.toLowerCase()) ?? [];
      const startColumn = header.findIndex((cell) => cell.startsWith('primary start'));
      const endColumn = header.findIndex((cell) => cell.startsWith('primary end'));
      if (startColumn < 0 || endColumn < 0 || !rows[1]) continue;
      window = [dateTime(rows[1][startColumn], 'globalcloudxchange'), dateTime(rows[1][endColumn], 'globalcloudxchange')];
      notes.uncertain('globalcloudxchange: no window in the subject: read the schedule table');
      break;
    }
  }
  if (!window) throw new MailParseError('unsupported_format', 'globalcloudxchange: no maintenance window');

  const circuits = tables
    .flatMap((rows) => rows)
    .filter((cells) => cells.length === 2 && !/service id/i.test(cells[0]) && cells[0] !== '')
    .map(([circuitId, impact]) => ({
      circuitId,
      impact: /at risk/i.test(impact) ? ('REDUCED-REDUNDANCY' as const) : ('OUTAGE' as const),
    }));
  const account = /Dear ([^,\n]+),/.exec(htmlText(html))?.[1].trim() ?? '';
  notes.reason(`ticket ${ticket}, window and status from the subject; account and ${circuits.length} service(s) from the HTML`);
  return [
    {
      provider: 'globalcloudxchange',
      account,
      maintenanceId: ticket,
      status: gcxStatus(subject),
      circuits,
      start: window[0],
      end: window[1],
      stamp: stampOf(email.date, 'globalcloudxchange'),
      sequence: 1,
      summary: parts.length >= 5 ? parts[3] : '',
    },
  ];
}

function gcxStatus(subject: string): ParsedStatus {
  const lower = subject.toLowerCase();
  if (lower.includes('completed')) return 'COMPLETED';
  if (lower.includes('rescheduled')) return 'RE-SCHEDULED';
  if (lower.includes('cancelled') || lower.includes('canceled')) return 'CANCELLED';
  return 'CONFIRMED';
}

export const globalCloudXchangeParser: CarrierParser = {
  name: 'globalcloudxchange',
  label: 'Global Cloud Xchange',
  senderDomains: ['globalcloudxchange.com', 'gcxworld.com'],
  reads: ['subject', 'html'],
  parse: parseGcx,
};
