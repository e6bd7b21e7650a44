import type { CheerioAPI } from 'cheerio';
import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { loadHtml, squash } from './support/html';
import { textNodes } from './support/html-residue-mail-c';

/**
 * Windstream (WMT notices): the `<h1>` names the kind ("Planned|Demand|Emergency Maintenance
 * Notification", "Updated …", "Postponed …", "Cancelled …", "Completed …"); the paragraph after it is
 * the summary; "WMT:" is the id; "Event Start/End Date & Time:" are US dates in US zone letters
 * ("03/20/24 02:00 ET", daylight saving applied); the impact table's type ("Outage") is every
 * circuit's impact; the circuit table (Name | Account | Circuit ID | …) gives the circuits and the
 * account (its Name column).
 */
export const windstreamParser: CarrierParser = {
  name: 'windstream',
  label: 'Windstream',
  senderDomains: ['windstream.com'],
  reads: ['html'],
  parse: parseWindstream,
};

/** The US zone letters Windstream writes, as the zones they name (EST/EDT chosen by the date). */
const US_ZONES: Record<string, string> = {
  ET: 'America/New_York',
  CT: 'America/Chicago',
  MT: 'America/Denver',
  PT: 'America/Los_Angeles',
};

function parseWindstream(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(email.html);
  const heading = $('h1').first();
  if (!heading.length) throw new MailParseError('unsupported_format', 'windstream: no notice heading (<h1>)');
  const valueOf = (label: string) => {
    const cell = $('td')
      .toArray()
      .find((td) => squash($(td).text()) === label);
    return cell ? $(cell).nextAll('td').first().text().trim() : '';
  };
  const maintenanceId = valueOf('WMT:');
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'windstream: no "WMT:" cell');
  const { circuits, account } = circuitTable($, impactOf($));
  notes.reason(`Windstream WMT notice "${squash(heading.text())}": ${circuits.length} circuit(s)`);
  return [
    {
      provider: 'windstream',
      account,
      maintenanceId,
      status: statusOf(squash(heading.text())),
      circuits,
      start: windstreamTime(valueOf('Event Start Date & Time:')),
      end: windstreamTime(valueOf('Event End Date & Time:')),
      stamp: stampOf(email.date, 'windstream'),
      sequence: 1,
      summary: summaryOf(heading.nextAll('div').first()),
    },
  ];
}

function statusOf(heading: string): ParsedStatus {
  if (/^completed\b/i.test(heading)) return 'COMPLETED';
  if (/^updated\b/i.test(heading)) return 'RE-SCHEDULED';
  if (/postponed|cancel+ed/i.test(heading)) return 'CANCELLED';
  return 'CONFIRMED';
}

/** The impact table's first type cell: "Outage", a hit, or nothing (no impact). */
function impactOf($: CheerioAPI): ParsedImpact {
  const header = $('td')
    .toArray()
    .find((td) => squash($(td).text()) === 'Impact Type:');
  const type = header ? squash($(header).closest('tr').next('tr').children('td').first().text()).toLowerCase() : '';
  if (type.includes('outage')) return 'OUTAGE';
  if (type.includes('hit') || type.includes('redundan')) return 'REDUCED-REDUNDANCY';
  if (type.includes('degrad')) return 'DEGRADED';
  return 'NO-IMPACT';
}

/** The circuit table: the rows under the header row that names "Name" and "Circuit ID" (cells as written). */
function circuitTable($: CheerioAPI, impact: ParsedImpact) {
  const circuits: Array<{ circuitId: string; impact: ParsedImpact }> = [];
  let account = '';
  for (const table of $('table').toArray()) {
    const rows = $(table)
      .children('tbody')
      .addBack()
      .children('tr')
      .toArray()
      .map((row) =>
        $(row)
          .children('td,th')
          .toArray()
          .map((cell) => $(cell).text().trim()),
      );
    const header = rows.findIndex((cells) => cells.includes('Circuit ID') && cells.includes('Name'));
    if (header < 0) continue;
    const [name, id] = [rows[header].indexOf('Name'), rows[header].indexOf('Circuit ID')];
    for (const cells of rows.slice(header + 1)) {
      if (!cells[id]) continue;
      account = cells[name] ?? account;
      circuits.push({ circuitId: cells[id], impact });
    }
  }
  return { circuits, account };
}

function windstreamTime(text: string): number {
  const match = /^(.*?)\s+([ECMP]T)$/i.exec(text.trim());
  if (!match) return dateTime(text, 'windstream', { formats: ['MM/dd/yy HH:mm'] });
  return dateTime(match[1], 'windstream', { zone: US_ZONES[match[2].toUpperCase()], formats: ['MM/dd/yy HH:mm'] });
}

/** The text of the block under the heading, up to "DESCRIPTION OF MAINTENANCE", one line per text run. */
function summaryOf(block: ReturnType<CheerioAPI>): string {
  const runs = textNodes(loadHtml(block.html() ?? ''))
    .map((text) => text.trim())
    .filter(Boolean);
  return runs.join('\n').split('\nDESCRIPTION OF MAINTENANCE')[0];
}
