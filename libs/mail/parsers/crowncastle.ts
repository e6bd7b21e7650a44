import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { loadHtml, squash } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * Crown Castle Fiber: HTML notices. The underlined heading names the kind ("Maintenance
 * Notification", "Emergency Notification", "Maintenance Notification - Rescheduled Event",
 * "Maintenance Cancellation Notification"); a completion notice says the work "has been
 * completed". "Dear <customer>," is the account, "<strong>Ticket Number: </strong>CM…" the id, the
 * paragraph after "Description:" the summary. The window is the GMT row of the time-zone grid
 * (date, time, date, time, zone: "1/3/2024 | 8:00 AM | 1/3/2024 | 2:00 PM | GMT"); the circuit grid's
 * rows are circuit id, product, A and Z locations, impact ("None" is no impact), notes.
 */
function parseCrownCastle(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(htmlBody(email));
  const text = $('body').length ? $('body').text() : $.root().text();
  const ticket = /Ticket Number:\s*([A-Z]*\d+)/i.exec(text);
  if (!ticket) throw new MailParseError('unsupported_format', 'crowncastle: no "Ticket Number:" in the HTML');
  const account = /Dear ([^,\n]+),/.exec(text)?.[1].trim() ?? '';

  let window: { start: number; end: number } | null = null;
  const grid = $('table.timezonegrid').first();
  const zoneRows = grid
    .find('tr')
    .toArray()
    .map((row) =>
      $(row)
        .children('td')
        .toArray()
        .map((cell) => squash($(cell).text())),
    )
    .filter((cells) => cells.length === 5);
  const gmt = zoneRows.find((cells) => cells[4].toUpperCase() === 'GMT');
  const eastern = zoneRows.find((cells) => cells[4].toLowerCase() === 'eastern');
  const row = gmt ?? eastern;
  if (row) {
    const zone = gmt ? 'UTC' : 'America/New_York';
    window = {
      start: dateTime(`${row[0]} ${row[1]}`, 'crowncastle', { zone }),
      end: dateTime(`${row[2]} ${row[3]}`, 'crowncastle', { zone }),
    };
    if (!gmt) notes.uncertain('crowncastle: no GMT row in the time-zone grid: read the Eastern row');
  }
  if (!window) throw new MailParseError('unsupported_format', 'crowncastle: no time-zone grid with the window');

  const circuits = $('table#circuitgrid')
    .first()
    .find('tr')
    .toArray()
    .map((circuitRow) =>
      $(circuitRow)
        .children('td')
        .toArray()
        .map((cell) => squash($(cell).text())),
    )
    .filter((cells) => cells.length === 6 && cells[0] !== '')
    .map((cells) => ({ circuitId: cells[0], impact: cells[4].toLowerCase() === 'none' ? ('NO-IMPACT' as const) : ('OUTAGE' as const) }));

  let summary = '';
  $('strong').each((_, strong) => {
    if (summary) return;
    const label = squash($(strong).text());
    if (label !== 'Description:' && !label.startsWith('Work Description:')) return;
    for (let node = $(strong).parent().get(0)?.nextSibling; node; node = node.nextSibling) {
      const value = squash(
        $(node)
          .text()
          .replace(/[\r\n]/g, ''),
      );
      if (value) {
        summary = value;
        break;
      }
    }
  });

  const status = crownCastleStatus($, text);
  notes.reason(`ticket ${ticket[1]}, status ${status} from the heading, window from the GMT row, ${circuits.length} circuit(s)`);
  return [
    {
      provider: 'crowncastle',
      account,
      maintenanceId: ticket[1],
      status,
      circuits,
      start: window.start,
      end: window.end,
      stamp: stampOf(email.date, 'crowncastle'),
      sequence: 1,
      summary,
    },
  ];
}

function crownCastleStatus($: ReturnType<typeof loadHtml>, text: string): ParsedStatus {
  if (text.includes('has been completed.')) return 'COMPLETED';
  const heading = $('u')
    .toArray()
    .map((element) => squash($(element).text()))
    .find((value) => value !== '');
  switch (heading) {
    case 'Maintenance Notification':
    case 'Emergency Notification':
      return 'CONFIRMED';
    case 'Maintenance Notification - Rescheduled Event':
      return 'RE-SCHEDULED';
    case 'Maintenance Cancellation Notification':
      return 'CANCELLED';
    default:
      return 'NO-CHANGE';
  }
}

export const crownCastleParser: CarrierParser = {
  name: 'crowncastle',
  label: 'Crown Castle Fiber',
  senderDomains: ['crowncastle.com'],
  reads: ['html'],
  parse: parseCrownCastle,
};
