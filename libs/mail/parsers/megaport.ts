import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { loadHtml, squash } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * Megaport: HTML paragraphs — "Hi <account>", "This is a reminder that Planned maintenance
 * (<b>987654321-1</b>) that will impact the services listed below." (the bold reference is the id),
 * "Purpose of Maintenance: …" (the summary, kept as written), "Start Date and Time: Wed, 12 May
 * 2021 10:00:00 UTC", "End Date and Time: …" — and a "Service ID | Service Type | Service Name"
 * table whose Service IDs are the circuits.
 */
function parseMegaport(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(htmlBody(email));
  let maintenanceId = '';
  let announcement = '';
  let account = '';
  let summary = '';
  const times = new Map<string, number>();
  for (const paragraph of $('p').toArray()) {
    const raw = $(paragraph).text().replace(/\r\n?/g, '\n');
    const text = squash(raw);
    const reference = $(paragraph).find('b').first();
    if (!maintenanceId && /maintenance\s*\(/i.test(text) && reference.length) {
      maintenanceId = squash(reference.text());
      announcement = text;
    } else if (!account && /^Hi\s/.test(text)) account = text.replace(/^Hi\s+/, '').replace(/,$/, '');
    else if (!summary && text.startsWith('Purpose of Maintenance:'))
      summary = raw.slice(raw.indexOf('Purpose of Maintenance:') + 24).replace(/^ /, '');
    const time = /^(Start|End) Date and Time:\s*(.+?)\s*$/.exec(text);
    if (time && !times.has(time[1])) times.set(time[1], dateTime(time[2], 'megaport'));
  }
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'megaport: no "maintenance (<b>reference</b>)" paragraph');
  const start = times.get('Start');
  const end = times.get('End');
  if (start === undefined || end === undefined) throw new MailParseError('unsupported_format', 'megaport: no "Start/End Date and Time"');

  const circuits: string[] = [];
  $('table').each((_, table) => {
    if ($(table).find('table').length) return; // a layout table around the services table
    const headings = $(table)
      .find('th')
      .toArray()
      .map((cell) => squash($(cell).text()));
    if (headings[0] !== 'Service ID') return;
    for (const row of $(table).find('tr').toArray()) {
      const first = squash($(row).children('td').first().text());
      if (first) circuits.push(first);
    }
  });
  notes.reason(`reference ${maintenanceId} from "${announcement.slice(0, 50)}…"; ${circuits.length} service(s) from the Service ID table`);
  return [
    {
      provider: 'megaport',
      account,
      maintenanceId,
      status: megaportStatus(announcement),
      circuits: circuits.map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const })),
      start,
      end,
      stamp: stampOf(email.date, 'megaport'),
      sequence: 1,
      summary,
    },
  ];
}

function megaportStatus(announcement: string): ParsedStatus {
  const lower = announcement.toLowerCase();
  if (/cancel/.test(lower)) return 'CANCELLED';
  if (/complete/.test(lower)) return 'COMPLETED';
  if (/reschedul/.test(lower)) return 'RE-SCHEDULED';
  return 'CONFIRMED';
}

export const megaportParser: CarrierParser = {
  name: 'megaport',
  label: 'Megaport',
  senderDomains: ['megaport.com'],
  reads: ['html'],
  parse: parseMegaport,
};
