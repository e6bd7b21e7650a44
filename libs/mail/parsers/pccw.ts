import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { hasBcopCalendar, parseBcopCalendars } from './bcop-ical';
import { dateTime, stampOf } from './support/dates';
import { htmlLines } from './support/html';

/**
 * PCCW Global (gsoc-planned-event@pccwglobal.com): planned, urgent, amendment and cancellation notices
 * carry a BCOP iCalendar (iCal4j) whose X-MAINTNOTE-OBJECT-ID values break onto lines without the
 * leading space of a fold — such a stray line is dropped with a warning, not guessed at (lenient
 * reading, support/calendar.ts). Completion notices have no calendar: the subject ("Completion -
 * Planned Outage Notification … - <id>") gives the id and the status, the HTML "Customer Name :" and
 * "Date Time : dd/mm/yyyy hh:mm:ss to dd/mm/yyyy hh:mm:ss GMT".
 */
function parsePccw(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  if (hasBcopCalendar(email)) {
    return parseBcopCalendars(email, 'pccw', notes).map((maintenance) => {
      if (!/pccw/i.test(maintenance.provider)) {
        throw new MailParseError('provider_mismatch', `pccw: the calendar names provider "${maintenance.provider}", not PCCW Global`);
      }
      return { ...maintenance, provider: 'pccw' };
    });
  }
  if (!/^\s*(?:\[[^\]]*\]\s*)?Completion\b/i.test(email.subject)) {
    throw new MailParseError('unsupported_format', 'pccw: no BCOP calendar, and the subject is no "Completion - …" notice');
  }
  const lines = htmlLines(email.html || email.text.replace(/\n/g, '<br>'));
  const field = (label: RegExp) => lines.map((line) => label.exec(line)?.[1]?.trim()).find(Boolean);
  const window = field(/^Date Time\s*:\s*(.+)$/i);
  const match =
    window && /(\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2}:\d{2})\s*to\s*(\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2}:\d{2})/i.exec(window);
  if (!match) throw new MailParseError('unsupported_format', 'pccw: no "Date Time : … to …" line in the completion notice');
  const subject = email.subject.replace(/\r?\n/g, '').trim();
  const maintenanceId = subject.split('-').pop()!.trim();
  notes.reason(`completion notice: id ${maintenanceId} from the subject, window from "Date Time"`);
  return [
    {
      provider: 'pccw',
      account: field(/^Customer Name\s*:\s*(.+)$/i) ?? '',
      maintenanceId,
      status: 'COMPLETED',
      circuits: [],
      start: dateTime(match[1], 'pccw', { dayFirst: true, zone: 'UTC' }),
      end: dateTime(match[2], 'pccw', { dayFirst: true, zone: 'UTC' }),
      stamp: stampOf(email.date, 'pccw'),
      sequence: 1,
      summary: subject,
    },
  ];
}

export const pccwParser: CarrierParser = {
  name: 'pccw',
  label: 'PCCW Global',
  senderDomains: ['pccwglobal.com'],
  reads: ['calendar', 'subject', 'html'],
  parse: parsePccw,
};
