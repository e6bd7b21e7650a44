import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlLines, loadHtml, squash } from './support/html';

/**
 * Sparkle (Telecom Italia Sparkle): an HTML table of label/value rows. "Sparkle Ticket Number" may
 * list several tickets ("1111111 / 22222 / 33333"), one per window: the n-th ticket takes the n-th
 * "Start Date/Time (UTC) …" and "End Date/Time (UTC) …" rows (Day 1, Day 2, BACKUP), dates US
 * month-first. "Circuits Involved in the Activity" holds the circuits, one per line or nested row;
 * "Description of Work" the summary. The notices name no customer account.
 */
export const sparkleParser: CarrierParser = {
  name: 'sparkle',
  label: 'Sparkle',
  senderDomains: ['tisparkle.com'],
  reads: ['html'],
  parse: parseSparkle,
};

/** Sparkle's date-times: "08/10/2021 03:00 UTC", US month first. */
const US_TIME = { formats: ['MM/dd/yyyy HH:mm'] };

/** circuit-maintenance-parser's account for Sparkle, whose notices name none (kept so records compare). */
const NO_ACCOUNT = 'Not Available';

function parseSparkle(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(email.html);
  const rows = $('tr')
    .toArray()
    .map((row) => $(row).children('td').toArray())
    .filter((cells) => cells.length >= 2)
    .map((cells) => ({ label: squash($(cells[0]).text()).toLowerCase(), cell: cells[1] }));
  const text = (cell: (typeof rows)[number]['cell']) => squash($(cell).text());
  const tickets = rows.find((row) => row.label.startsWith('sparkle ticket number'));
  if (!tickets) throw new MailParseError('unsupported_format', 'sparkle: no "Sparkle Ticket Number" row');
  const ids = text(tickets.cell)
    .split('/')
    .map((id) => id.trim())
    .filter(Boolean);
  const starts = rows.filter((row) => row.label.startsWith('start date/time')).map((row) => dateTime(text(row.cell), 'sparkle', US_TIME));
  const ends = rows.filter((row) => row.label.startsWith('end date/time')).map((row) => dateTime(text(row.cell), 'sparkle', US_TIME));
  if (starts.length < ids.length || ends.length < ids.length) {
    throw new MailParseError(
      'unsupported_format',
      `sparkle: ${ids.length} ticket(s) but ${Math.min(starts.length, ends.length)} window(s)`,
    );
  }
  const circuitsRow = rows.find((row) => row.label.startsWith('circuits involved'));
  const circuits = (circuitsRow ? htmlLines($.html(circuitsRow.cell)) : []).map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const }));
  const description = rows.find((row) => row.label.startsWith('description of work'));
  notes.reason(`Sparkle table: ${ids.length} ticket(s), each with its own Start/End Date/Time row pair`);
  return ids.map((maintenanceId, index) => ({
    provider: 'sparkle',
    account: NO_ACCOUNT,
    maintenanceId,
    status: 'CONFIRMED',
    circuits,
    start: starts[index],
    end: ends[index],
    stamp: stampOf(email.date, 'sparkle'),
    sequence: 1,
    summary: description ? text(description.cell) : '',
  }));
}
