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
import { htmlLines, htmlTables, labelKey, loadHtml } from './support/html';

/**
 * Lumen (formerly CenturyLink / Level 3): HTML from Lumen's scheduled-maintenance system. Headings
 * "Scheduled Maintenance [Window] #: <id>", "Summary:" (its first paragraph is the summary), "Updates:"
 * (newest first: "<yyyy-mm-dd hh:mm:ss> GMT - <what happened>": the status, and the stamp when the
 * email has no Date header); per window a
 * "Start | End" table whose GMT row is read (a primary night and an alternate night are two windows);
 * circuit tables headed "Customer Name | Circuit ID | Alt Circuit ID | … | Impact Type | … [| Status]" —
 * the circuit is the Circuit ID, or the Alt Circuit ID when that is "_" or "N/A"; a Status column
 * (Completed, Cancelled, Postponed, Alternate Night) gives the status.
 */
function parseLumen(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(email.html);
  const lines = htmlLines($, { keepSpacing: true });
  const idLine = lines.map((line) => /^Scheduled Maintenance (?:Window )?#:\s*(\S+)/i.exec(line)).find(Boolean);
  if (!idLine) throw new MailParseError('unsupported_format', 'lumen: no "Scheduled Maintenance #:" heading');
  const maintenanceId = idLine[1];
  const tables = htmlTables($);
  const windows = tables.flatMap((rows) => windowOf(rows));
  if (!windows.length) throw new MailParseError('unsupported_format', 'lumen: no Start | End table with GMT times');
  const impact = impactRows(tables, notes);
  const update = latestUpdate(lines);
  const updated = update ? dateTime(update.time, 'lumen', { zone: 'UTC' }) : null;
  // The Date header orders notices like every carrier's; the newest update's time stands in without one.
  const stamp = email.date || updated === null ? stampOf(email.date, 'lumen') : updated;
  const status = impact.status ?? updateStatus(update?.text ?? '', updated ?? stamp, windows[0][0], notes);
  notes.reason(
    `maintenance ${maintenanceId}: ${windows.length} window(s) from the GMT rows, ${impact.circuits.length} circuit(s), status from ${impact.status ? 'the Status column' : 'the latest update'}`,
  );
  return windows.map(([start, end]) => ({
    provider: 'lumen',
    account: impact.account,
    maintenanceId,
    status,
    circuits: impact.circuits,
    start,
    end,
    stamp,
    sequence: 1,
    summary: sectionText(lines, 'summary'),
  }));
}

/** The first line after a "Heading:" line. */
function sectionText(lines: readonly string[], heading: string): string {
  const index = lines.findIndex((line) => labelKey(line) === heading && line.trim().endsWith(':'));
  return index < 0 ? '' : (lines[index + 1] ?? '');
}

/** The newest entry of "Updates:" ("2021-05-20 07:00:21 GMT - The scheduled maintenance work has begun."). */
function latestUpdate(lines: readonly string[]): { time: string; text: string } | null {
  const index = lines.findIndex((line) => labelKey(line) === 'updates');
  const match = index < 0 ? null : /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})?) GMT\s*-\s*(.*)$/s.exec(lines[index + 1] ?? '');
  return match ? { time: match[1], text: match[2] } : null;
}

function updateStatus(text: string, stamp: number, start: number, notes: ParseNotes): ParsedStatus {
  const lower = text.toLowerCase();
  if (lower.includes('cancelled')) return 'CANCELLED';
  if (lower.includes('has begun')) return 'IN-PROCESS';
  if (lower.includes('has ended') || lower.includes('completed')) return 'COMPLETED';
  if (lower.includes('rescheduled')) return 'RE-SCHEDULED';
  // "This maintenance is scheduled." announces the window; sent once it has begun, the work is under way.
  if (lower.includes('is scheduled')) return stamp >= start ? 'IN-PROCESS' : 'CONFIRMED';
  notes.uncertain(`update "${text}" names no status: read as CONFIRMED`);
  return 'CONFIRMED';
}

/** A "Start | End" table's first row written in GMT, as [start, end]. */
function windowOf(rows: readonly string[][]): Array<[number, number]> {
  if (rows[0]?.[0] !== 'Start' || rows[0]?.[1] !== 'End') return [];
  const gmt = rows.slice(1).find((cells) => / GMT\b/.test(cells[0] ?? '') && / GMT\b/.test(cells[1] ?? ''));
  if (!gmt) return [];
  const read = (cell: string) => dateTime(cell.split(' GMT')[0], 'lumen', { zone: 'UTC' });
  return [[read(gmt[0]), read(gmt[1])]];
}

const NONE = new Set(['_', 'N/A', '']);

function impactRows(
  tables: readonly string[][][],
  notes: ParseNotes,
): { account: string; circuits: ParsedCircuit[]; status?: ParsedStatus } {
  const result: { account: string; circuits: ParsedCircuit[]; status?: ParsedStatus } = { account: '', circuits: [] };
  for (const rows of tables) {
    const headings = (rows[0] ?? []).map(labelKey);
    if (headings[0] !== 'customer name') continue;
    const column = (name: string) => headings.indexOf(name);
    for (const cells of rows.slice(1)) {
      const cell = (name: string) => (column(name) < 0 ? '' : (cells[column(name)] ?? ''));
      if (!result.account) result.account = cell('customer name');
      const circuitId = NONE.has(cell('circuit id')) ? cell('alt circuit id') : cell('circuit id');
      if (NONE.has(circuitId)) {
        notes.uncertain('a circuit row without a Circuit ID or Alt Circuit ID: skipped');
        continue;
      }
      result.circuits.push({ circuitId, impact: lumenImpact(cell('impact type'), notes) });
      const status = rowStatus(cell('status'));
      if (status) result.status = status;
    }
  }
  return result;
}

function rowStatus(text: string): ParsedStatus | undefined {
  switch (text.toLowerCase()) {
    case 'completed':
      return 'COMPLETED';
    case 'postponed':
    case 'alternate night':
      return 'RE-SCHEDULED';
    case 'not completed':
    case 'cancelled':
      return 'CANCELLED';
    default:
      return undefined;
  }
}

function lumenImpact(text: string, notes: ParseNotes): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.includes('outage')) return 'OUTAGE';
  if (lower.includes('protected') || lower.includes('switch')) return 'REDUCED-REDUNDANCY';
  if (lower.includes('degrad') || lower.includes('latency')) return 'DEGRADED';
  if (lower.includes('no impact') || lower === 'none') return 'NO-IMPACT';
  notes.uncertain(`impact type "${text}" read as OUTAGE`);
  return 'OUTAGE';
}

export const lumenParser: CarrierParser = {
  name: 'lumen',
  label: 'Lumen',
  senderDomains: ['lumen.com', 'centurylink.com', 'level3.com'],
  reads: ['html'],
  parse: parseLumen,
};
