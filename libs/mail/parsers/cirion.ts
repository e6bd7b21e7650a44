import type { CheerioAPI } from 'cheerio';
import type { CarrierParser, ParseNotes } from '../carrier-parser';
import {
  MailParseError,
  type ParsedCircuit,
  type ParsedEmail,
  type ParsedImpact,
  type ParsedMaintenance,
  type ParsedStatus,
} from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { loadHtml, squash } from './support/html';

/**
 * Cirion Technologies (Lumen's former Latin American business, ServiceNow notices): the same notice
 * three times, in Spanish, Portuguese and English; the English part is read. Its "Status update"
 * line says "This maintenance is Scheduled|Implement|Closed|Cancelled"; the change id (CHG + 7
 * digits) stands alone above a "Start | End" table of windows in "(Greenwich Mean Time)" — one row
 * per window — and a "Customer Name | Circuit ID | Alt Circuit ID | Bandwidth | A Location |
 * Z Location | Impact Type | Maximum Duration" table (the Alt Circuit ID is the service id Cirion's
 * portal shows; "_" or "N/A" when absent). The summary is the answer to "1. What should be done and why?".
 */
export const cirionParser: CarrierParser = {
  name: 'cirion',
  label: 'Cirion',
  senderDomains: ['ciriontechnologies.com'],
  reads: ['subject', 'html'],
  parse: parseCirion,
};

const ABSENT = new Set(['', '_', 'N/A']);

function parseCirion(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(email.html);
  const maintenanceId =
    $('span')
      .toArray()
      .map((span) => squash($(span).text()))
      .find((text) => /^CHG\d{7}$/.test(text)) ?? /#(CHG\d{7})\b/.exec(email.subject)?.[1];
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'cirion: no change id (CHG…) in the email');
  const windows = windowRows($);
  if (!windows.length) throw new MailParseError('unsupported_format', 'cirion: no "Start | End" window table in English');
  const { circuits, account } = circuitRows($);
  const status = statusOf($, email.subject, notes);
  const summary = answerTo($, /^1\.\s*What should be done/i);
  notes.reason(`Cirion English section: ${windows.length} window(s), ${circuits.length} circuit(s)`);
  return windows.map(([start, end]) => ({
    provider: 'cirion',
    account,
    maintenanceId,
    status,
    circuits,
    start,
    end,
    stamp: stampOf(email.date, 'cirion'),
    sequence: 1,
    summary,
  }));
}

const rowsOf = ($: CheerioAPI, table: Parameters<CheerioAPI>[0]) =>
  $(table)
    .find('tr')
    .toArray()
    .map((row) =>
      $(row)
        .children('td,th')
        .toArray()
        .map((cell) => $(cell).text().trim()),
    );

function windowRows($: CheerioAPI): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  for (const table of $('table').toArray()) {
    const [header, ...rows] = rowsOf($, table);
    if (header?.[0] !== 'Start' || header[1] !== 'End') continue;
    for (const [start, end] of rows) {
      if (!/Greenwich Mean Time/.test(start ?? '') || !/Greenwich Mean Time/.test(end ?? '')) continue;
      const at = (text: string) => dateTime(text.replace(/\(Greenwich Mean Time\)/, ''), 'cirion', { formats: ['yyyy-MM-dd HH:mm:ss'] });
      windows.push([at(start), at(end)]);
    }
  }
  return windows;
}

function circuitRows($: CheerioAPI): { circuits: ParsedCircuit[]; account: string } {
  const circuits: ParsedCircuit[] = [];
  let account = '';
  for (const table of $('table').toArray()) {
    const [header, ...rows] = rowsOf($, table);
    if (header?.[0] !== 'Customer Name') continue;
    const column = (name: string) => header.findIndex((heading) => heading.toLowerCase() === name);
    const [idColumn, altColumn, impactColumn] = [column('circuit id'), column('alt circuit id'), column('impact type')];
    for (const cells of rows) {
      if (cells.length < header.length) continue;
      account ||= cells[0];
      const alternative = cells[altColumn] ?? '';
      const circuitId = ABSENT.has(alternative) ? (cells[idColumn] ?? '') : alternative;
      if (ABSENT.has(circuitId)) continue;
      circuits.push({ circuitId, impact: impactOf(cells[impactColumn] ?? '') });
    }
  }
  return { circuits, account };
}

function impactOf(text: string): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.includes('outage')) return 'OUTAGE';
  if (lower.includes('no impact') || lower.includes('no expected impact')) return 'NO-IMPACT';
  if (lower.includes('switch') || lower.includes('hit') || lower.includes('redundan')) return 'REDUCED-REDUNDANCY';
  if (lower.includes('degrad')) return 'DEGRADED';
  return 'OUTAGE';
}

function statusOf($: CheerioAPI, subject: string, notes: ParseNotes): ParsedStatus {
  const line = $('span')
    .toArray()
    .map((span) => squash($(span).text()).toLowerCase())
    .find((text) => text.includes('this maintenance is '));
  const said = line ?? subject.toLowerCase();
  if (/\bclosed\b/.test(said)) return 'COMPLETED';
  if (/\bcancel/.test(said)) return 'CANCELLED';
  if (/\bimplement/.test(said)) return 'IN-PROCESS';
  if (/\bscheduled\b|\bprogramad|\bschedule/.test(said)) return 'CONFIRMED';
  notes.uncertain(`cirion: no status in "${said.slice(0, 80)}"; read as CONFIRMED`);
  return 'CONFIRMED';
}

/** The text after the `<br>` of the paragraph whose first span asks the question. */
function answerTo($: CheerioAPI, question: RegExp): string {
  for (const paragraph of $('p').toArray()) {
    const spans = $(paragraph).children('span').toArray();
    if (spans.length >= 2 && question.test(squash($(spans[0]).text()))) return squash($(spans[1]).text());
  }
  return '';
}
