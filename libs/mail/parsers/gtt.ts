import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { hasBcopCalendar, parseBcopCalendars } from './bcop-ical';
import { dateTime, stampOf } from './support/dates';
import { loadHtml, squash } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * EXA Infrastructure (formerly GTT). Newer notices carry a BCOP iCalendar, read as such. The HTML
 * notices: a heading cell "Planned Work Notification: 60543210 - New" (New/Reminder confirmed,
 * Update/Rescheduled re-scheduled, Cancelled, Completed); "Start" and "End" rows ("2021-11-09
 * 04:00:00 GMT"; a rescheduled notice strikes the old time through and writes the new one beside
 * it); the services table "Services Affected | SLID/CCSD | Customer PON | …", whose SLID/CCSD is the
 * circuit and Customer PON the account. A cancellation gives no window: start 0 and end 1, as
 * circuit-maintenance-parser records it, and the summary is empty as there (the "Planned work
 * Reason" paragraph is absent from cancellations). A calendar without X-MAINTNOTE properties (an
 * invite for the window) adds nothing to the HTML.
 */
function parseGtt(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  if (hasBcopCalendar(email)) {
    // EXA's calendars name the provider "EXA Infrastructure", not a domain: the records are the sender's, gtt.
    return parseBcopCalendars(email, 'gtt', notes).map((maintenance) => {
      if (/^(exa|gtt)\b/i.test(maintenance.provider.trim())) return { ...maintenance, provider: 'gtt' };
      return maintenance;
    });
  }
  const $ = loadHtml(htmlBody(email));
  let heading: RegExpExecArray | null = null;
  const times = new Map<string, number>();
  $('td').each((_, cell) => {
    const text = squash($(cell).text());
    heading ??= /Planned Work Notification:\s*(\d+)\s*-\s*([A-Za-z]+)/.exec(text);
    if ((text === 'Start' || text === 'End') && !times.has(text)) {
      const value = $(cell).nextAll('td').first().clone();
      value.find('strike, s, del').remove();
      const written = squash(value.text());
      if (written) times.set(text, dateTime(written, 'gtt'));
    }
  });
  const subject = /Work Notification\s*(?:TT\s*)?#?\s*(\d+)\s*[-–]\s*([A-Za-z]+)/i.exec(email.subject);
  const found = heading ?? subject;
  if (!found) throw new MailParseError('unsupported_format', 'gtt: no "Planned Work Notification: <id> - <status>" heading');
  const [, maintenanceId, word] = found;
  const status = gttStatus(word);

  const circuits: string[] = [];
  let account = '';
  $('table').each((_, table) => {
    const headings = $(table)
      .find('th')
      .toArray()
      .map((cell) => squash($(cell).text()).toLowerCase());
    if (!headings.length) return;
    const column = (name: string, fallback: number) => (headings.includes(name) ? headings.indexOf(name) : fallback);
    const circuitColumn = column('slid/ccsd', 1);
    const accountColumn = column('customer pon', 2);
    for (const row of $(table).find('tr').toArray()) {
      const cells = $(row)
        .children('td')
        .toArray()
        .map((cell) => squash($(cell).text()));
      if (cells.length <= circuitColumn) continue;
      circuits.push(cells[circuitColumn]);
      account ||= cells[accountColumn] ?? '';
    }
  });

  let start = times.get('Start');
  let end = times.get('End');
  if ((start === undefined || end === undefined) && status === 'CANCELLED') {
    notes.reason('a cancellation without a window: start 0, end 1');
    start = 0;
    end = 1;
  }
  if (start === undefined || end === undefined) throw new MailParseError('unsupported_format', 'gtt: no "Start"/"End" rows');
  notes.reason(
    `work ${maintenanceId} (${word}) from the ${heading ? 'heading' : 'subject'}; ${circuits.length} service(s) from the services table`,
  );
  return [
    {
      provider: 'gtt',
      account,
      maintenanceId,
      status,
      circuits: circuits.map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const })),
      start,
      end,
      stamp: stampOf(email.date, 'gtt'),
      sequence: 1,
      summary: '',
    },
  ];
}

function gttStatus(word: string): ParsedStatus {
  switch (word.toLowerCase()) {
    case 'update':
    case 'rescheduled':
    case 'reschedule':
      return 'RE-SCHEDULED';
    case 'cancelled':
    case 'canceled':
      return 'CANCELLED';
    case 'completed':
      return 'COMPLETED';
    default:
      return 'CONFIRMED';
  }
}

export const gttParser: CarrierParser = {
  name: 'gtt',
  label: 'EXA Infrastructure (GTT)',
  senderDomains: ['exainfra.net', 'gtt.net', 'gttcorp.org'],
  reads: ['html', 'subject', 'calendar'],
  parse: parseGtt,
};
