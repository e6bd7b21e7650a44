import type { CheerioAPI } from 'cheerio';
import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { loadHtml, squash } from './support/html';
import { carrierCalendars } from './support/carrier-calendar-mail-c';
import { textBetween, undoQuotedPrintable } from './support/html-residue-mail-c';

/**
 * Telstra International: a BCOP calendar when the notice carries one, else one of two HTML layouts.
 * - Notification table (gpen@team.telstra.com): `<th>Label:</th><td>value</td>` rows — "To:" (the
 *   account), "Change Reference:", "Maintenance Window:" ("01-Jun-2021 15:59:00(UTC) to …"),
 *   "Service(s) Impacted:", and "Maintenance Details:" followed by its paragraphs; the status is in
 *   the lead sentence ("has been scheduled", "reminder", "completed", "amended", "withdrawn",
 *   "cancelled").
 * - Telstra Connect cards: `<strong>Label</strong><br>value` — "Reference number", "Start time" /
 *   "End time" ("Tuesday, 11 Oct 2022 15:00:00 (UTC)"), "Service/s under maintenance",
 *   "Maintenance details"; the account follows "Attention"; the status is in the heading.
 * The summary joins the paragraphs of the details section with ". ", as written.
 */
export const telstraParser: CarrierParser = {
  name: 'telstra',
  label: 'Telstra',
  senderDomains: ['telstra.com', 'telstraglobal.com'],
  reads: ['calendar', 'html'],
  parse: parseTelstra,
};

function parseTelstra(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  if (email.calendars.some((calendar) => /X-MAINTNOTE-MAINTENANCE-ID/i.test(calendar))) {
    return carrierCalendars(email, 'telstra', /telstra/i, notes);
  }
  const $ = loadHtml(undoQuotedPrintable(email.html));
  const stamp = stampOf(email.date, 'telstra');
  const headings = $('th')
    .toArray()
    .filter((th) => squash($(th).text()) === 'Change Reference:');
  if (headings.length) return [notificationTable($, stamp, notes)];
  const reference = $('strong')
    .toArray()
    .find((strong) => squash($(strong).text()) === 'Reference number');
  if (reference) return [connectCard($, stamp, notes)];
  throw new MailParseError('unsupported_format', 'telstra: neither a "Change Reference:" row nor a "Reference number" card');
}

function notificationTable($: CheerioAPI, stamp: number, notes: ParseNotes): ParsedMaintenance {
  const field = (label: string) => {
    const th = $('th')
      .toArray()
      .find((cell) => squash($(cell).text()) === label);
    return th ? squash($(th).nextAll('td').first().text()) : undefined;
  };
  const window = field('Maintenance Window:')?.split(/\(UTC\)\s*to\s*/i);
  if (!window || window.length !== 2) throw new MailParseError('unsupported_format', 'telstra: no "Maintenance Window:" row');
  notes.reason('Telstra notification table: "Change Reference:", "Maintenance Window:" (UTC)');
  return {
    provider: 'telstra',
    account: field('To:') ?? '',
    maintenanceId: field('Change Reference:') ?? '',
    status: statusOf(squash($.root().text()).toLowerCase(), TABLE_STATUSES) ?? 'CONFIRMED',
    circuits: circuitsOf(field('Service(s) Impacted:')),
    start: dateTime(window[0].replace(/\(UTC\)/i, ''), 'telstra', { formats: ['dd-MMM-yyyy HH:mm:ss'] }),
    end: dateTime(window[1].replace(/\(UTC\)/i, ''), 'telstra', { formats: ['dd-MMM-yyyy HH:mm:ss'] }),
    stamp,
    sequence: 1,
    summary: textBetween($, 'Maintenance Details:', 'Service(s) Impacted:'),
  };
}

function connectCard($: CheerioAPI, stamp: number, notes: ParseNotes): ParsedMaintenance {
  const field = (label: string) => {
    const strong = $('strong')
      .toArray()
      .find((element) => squash($(element).text()) === label);
    if (!strong) return undefined;
    const own = $(strong).text();
    return squash($(strong).parent().text().replace(own, ''));
  };
  const time = (label: string) => {
    const written = /\d{1,2}\s[A-Za-z]{3}\s\d{4}\s\d{2}:\d{2}:\d{2}/.exec(field(label) ?? '');
    if (!written) throw new MailParseError('unsupported_format', `telstra: no "${label}" in the card`);
    return dateTime(written[0], 'telstra', { formats: ['d MMM yyyy HH:mm:ss'] });
  };
  const attention = $('p')
    .toArray()
    .map((p) => squash($(p).text()))
    .find((text) => /^attention\b/i.test(text));
  const spans = $('span')
    .toArray()
    .map((span) => squash($(span).text()).toLowerCase());
  notes.reason('Telstra Connect card: "Reference number", "Start time", "End time" (UTC)');
  return {
    provider: 'telstra',
    account: attention ? attention.replace(/^attention\s*/i, '') : '',
    maintenanceId: field('Reference number') ?? '',
    status: spans.map((span) => statusOf(span, CARD_STATUSES)).find((status) => status) ?? 'CONFIRMED',
    circuits: circuitsOf(field('Service/s under maintenance')),
    start: time('Start time'),
    end: time('End time'),
    stamp,
    sequence: 1,
    summary: textBetween($, 'Maintenance details', 'Reference number'),
  };
}

const TABLE_STATUSES: ReadonlyArray<[string, ParsedStatus]> = [
  ['maintenance has been scheduled', 'CONFIRMED'],
  ['this is a reminder notification to notify that a planned maintenance', 'CONFIRMED'],
  ['has been completed', 'COMPLETED'],
  ['has been amended', 'RE-SCHEDULED'],
  ['has been withdrawn', 'CANCELLED'],
  ['has been cancelled', 'CANCELLED'],
];

const CARD_STATUSES: ReadonlyArray<[string, ParsedStatus]> = [
  ['planned maintenance to our network infrastructure', 'CONFIRMED'],
  ['emergency maintenance to our network infrastructure', 'CONFIRMED'],
  ['has been rescheduled', 'RE-SCHEDULED'],
  ['has been completed successfully', 'COMPLETED'],
  ['did not proceed', 'CANCELLED'],
  ['has been withdrawn', 'CANCELLED'],
  ['has been cancelled', 'CANCELLED'],
  ['was unsuccessful', 'CANCELLED'],
];

const statusOf = (text: string, phrases: ReadonlyArray<[string, ParsedStatus]>): ParsedStatus | undefined =>
  phrases.find(([phrase]) => text.includes(phrase))?.[1];

const circuitsOf = (text: string | undefined) =>
  (text ?? '')
    .split(', ')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const }));
