import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlLines } from './support/html';

/**
 * Seaborn Networks: HTML notices in two layouts.
 * - Ticket form: "Be advised that this maintenance has been scheduled|rescheduled …", then
 *   "Description:", "Seaborn Ticket number:", "Start date/time: 8/12/2021 2:00:00 am GMT" (US
 *   month-first), "Finish date/time:", "Circuit impacted:"; the account is the subject's "[## 12345 ##]".
 * - Customer-direct form: upper-case labels "DESCRIPTION:", "SCHEDULE: (UTC):" with the window on the
 *   next line ("13-Aug-2021 04:00 - 13-Aug-2021 11:00"), "AFFECTED CIRCUIT:"; the subject is
 *   "[<account>] <ticket> <m/d> …".
 * Circuit ids lose any byte that is not printable ASCII (the notices carry stray encoded bytes there).
 */
export const seabornParser: CarrierParser = {
  name: 'seaborn',
  label: 'Seaborn Networks',
  senderDomains: ['seabornnetworks.com'],
  reads: ['subject', 'html'],
  parse: parseSeaborn,
};

/** "8/12/2021 2:00:00 am GMT" (US month first) and the customer-direct "13-Aug-2021 04:00" (UTC). */
const TICKET_TIME = { formats: ['M/d/yyyy h:mm:ss a'] };
const SCHEDULE_TIME = { zone: 'UTC', formats: ['dd-MMM-yyyy HH:mm'] };

function parseSeaborn(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const lines = htmlLines(email.html);
  const value = (label: RegExp) => {
    for (const line of lines) {
      const match = label.exec(line);
      if (match) return line.slice(match[0].length).trim();
    }
    return undefined;
  };
  const circuits = lines
    .filter((line) => /^(?:circuit impacted|affected circuit)\s*:/i.test(line))
    .map((line) =>
      line
        .replace(/^[^:]*:/, '')
        .replace(/[^\x20-\x7e]/g, '')
        .trim(),
    )
    .filter(Boolean)
    .map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const }));
  const subject = email.subject;
  const bracketAccount = /\[##\s*([^#\]]+?)\s*##\]/.exec(subject)?.[1];
  const direct = /\[([^\]#]+)\]\s*(\d+)\b/.exec(subject);

  let window: [number, number];
  let maintenanceId: string | undefined;
  const start = value(/^start date\/time\s*:/i);
  if (start !== undefined) {
    const end = value(/^finish date\/time\s*:/i);
    if (!end) throw new MailParseError('unsupported_format', 'seaborn: "Start date/time" without "Finish date/time"');
    window = [dateTime(start, 'seaborn', TICKET_TIME), dateTime(end, 'seaborn', TICKET_TIME)];
    maintenanceId = value(/^seaborn ticket number\s*:/i) || /TT#\s*(\d+)/i.exec(subject)?.[1];
    notes.reason('Seaborn ticket notice: "Seaborn Ticket number", "Start/Finish date/time"');
  } else {
    const heading = lines.findIndex((line) => /^schedule\b/i.test(line));
    const schedule = heading >= 0 ? lines[heading + 1] : undefined;
    const bounds = schedule?.split(/\s+-\s+/);
    if (!bounds || bounds.length !== 2)
      throw new MailParseError('unsupported_format', 'seaborn: no "Start date/time" nor "SCHEDULE" window');
    window = [dateTime(bounds[0], 'seaborn', SCHEDULE_TIME), dateTime(bounds[1], 'seaborn', SCHEDULE_TIME)];
    maintenanceId = direct?.[2];
    notes.reason('Seaborn customer-direct notice: "SCHEDULE" window, ticket in the subject');
  }
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'seaborn: no ticket number in the email or its subject');
  const account = bracketAccount ?? direct?.[1]?.trim() ?? '';
  if (!account) notes.uncertain('seaborn: no account in the subject');
  return [
    {
      provider: 'seaborn',
      account,
      maintenanceId: maintenanceId.trim(),
      status: seabornStatus(lines),
      circuits,
      start: window[0],
      end: window[1],
      stamp: stampOf(email.date, 'seaborn'),
      sequence: 1,
      summary: value(/^description\s*:/i) ?? '',
    },
  ];
}

function seabornStatus(lines: readonly string[]): ParsedStatus {
  const advice = (lines.find((line) => /be advised/i.test(line)) ?? '').toLowerCase();
  if (advice.includes('cancel')) return 'CANCELLED';
  if (advice.includes('completed')) return 'COMPLETED';
  if (advice.includes('been rescheduled')) return 'RE-SCHEDULED';
  return 'CONFIRMED';
}
