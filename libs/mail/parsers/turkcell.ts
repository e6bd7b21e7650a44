import type { CheerioAPI } from 'cheerio';
import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedCircuit, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlLines, loadHtml, squash } from './support/html';
import { undoQuotedPrintable } from './support/html-residue-mail-c';

/**
 * Turkcell Superonline: one HTML table of label/value cells — "Maintenance Number:", "Start Time:" /
 * "End Time:" (Turkish dotted İ in some: "Start Tİme:"; "07.08.2021 00:00 GMT+3", day first, Turkey's
 * UTC+3), "Impact of the maintenance:" whose cell opens with the summary and lists the services either
 * as a nested table (circuit | customer | state) or as interface lines ending
 * "<circuit>|<customer>|<location>|<link>". The account is the customer named beside the circuits.
 */
export const turkcellParser: CarrierParser = {
  name: 'turkcell',
  label: 'Turkcell Superonline',
  senderDomains: ['superonline.net', 'turkcell.com.tr'],
  reads: ['html'],
  parse: parseTurkcell,
};

/** "07.08.2021 00:00 GMT+3": day first. */
const TURKISH_TIME = { dayFirst: true, formats: ['dd.MM.yyyy HH:mm'] };

/** A label as written, Turkish dotted capitals folded ("Tİme" → "time"), lowercased, without the colon. */
const labelOf = (text: string) =>
  squash(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s*:\s*$/, '');

function parseTurkcell(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(undoQuotedPrintable(email.html));
  const cells = $('td').toArray();
  const valueCell = (label: string) => {
    const index = cells.findIndex((cell) => labelOf($(cell).text()) === label);
    return index >= 0 && index + 1 < cells.length ? cells[index + 1] : undefined;
  };
  const value = (label: string) => {
    const cell = valueCell(label);
    return cell ? squash($(cell).text()) : undefined;
  };
  const maintenanceId = value('maintenance number');
  const start = value('start time');
  const end = value('end time');
  if (!maintenanceId || !start || !end) {
    throw new MailParseError('unsupported_format', 'turkcell: no "Maintenance Number" / "Start Time" / "End Time" cells');
  }
  const impact = valueCell('impact of the maintenance');
  const circuits: ParsedCircuit[] = [];
  let account = '';
  if (impact) {
    const nested = $(impact).find('table tr').toArray();
    if (nested.length) {
      for (const row of nested) {
        const columns = $(row)
          .children('td')
          .toArray()
          .map((cell) => squash($(cell).text()));
        if (!columns[0]) continue;
        circuits.push({ circuitId: columns[0], impact: 'OUTAGE' });
        account ||= columns[1] ?? '';
      }
      notes.reason('Turkcell: services from the table in the impact cell');
    } else {
      for (const line of htmlLines($.html(impact))) {
        const service = /(\S+)\|([^|]+)\|[^|]*\|[^|]*$/.exec(line);
        if (!service) continue;
        circuits.push({ circuitId: service[1], impact: 'OUTAGE' });
        account ||= service[2].trim();
      }
      notes.reason('Turkcell: services from the "<circuit>|<customer>|<location>|<link>" lines of the impact cell');
    }
  }
  return [
    {
      provider: 'turkcell',
      account,
      maintenanceId,
      status: 'CONFIRMED',
      circuits,
      start: dateTime(start, 'turkcell', TURKISH_TIME),
      end: dateTime(end, 'turkcell', TURKISH_TIME),
      stamp: stampOf(email.date, 'turkcell'),
      sequence: 1,
      summary: impact ? summaryOf($, impact) : '',
    },
  ];
}

/** The impact cell's opening text: its first span as written (trimmed), else its first line. */
function summaryOf($: CheerioAPI, cell: Parameters<CheerioAPI>[0]): string {
  const span = $(cell).find('span').first();
  return span.length ? span.text().trim() : (htmlLines($.html(cell))[0] ?? '');
}
