import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlLines, htmlTables, labelKey, loadHtml } from './support/html';

/**
 * Verizon Business: the HTML "Verizon Maintenance Notification". A two-column table of labelled cells —
 * "Maintenance Date/Time (GMT):" as "Aug 16 2021 23:01 GMT - Aug 17 2021 05:01 GMT", "Verizon MASTARS
 * Request number:" (the maintenance id), "Description of Maintenance:", and on updates an "Attention:"
 * row (not completed → cancelled, rescheduled) —; a "Circuits Affected" table headed "Company Name |
 * Circuit ID | …" whose circuits are each an outage; "Dear <account>,".
 */
function parseVerizon(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const $ = loadHtml(email.html);
  const tables = htmlTables($);
  const fields = new Map<string, string>();
  let attention = '';
  for (const cells of tables.flat()) {
    const label = labelKey(cells[0] ?? '');
    if (label.startsWith('attention')) attention = cells.join(' ');
    else if (cells.length >= 2 && !fields.has(label)) fields.set(label, cells[1]);
  }
  const maintenanceId = fields.get('verizon mastars request number');
  const window = fields.get('maintenance date/time (gmt)');
  if (!maintenanceId || !window)
    throw new MailParseError('unsupported_format', 'verizon: no MASTARS Request number or GMT maintenance window');
  const [start, end] = window.split(/\s+-\s+/);
  if (!end) throw new MailParseError('unsupported_format', `verizon: unreadable window "${window}"`);
  const circuits = circuitTable(tables);
  if (!circuits.length) notes.uncertain('no circuit in the Circuits Affected table');
  notes.reason(`MASTARS request ${maintenanceId}, GMT window, ${circuits.length} circuit(s) as outages`);
  const account =
    htmlLines($)
      .map((line) => /^Dear (.+?),/.exec(line)?.[1])
      .find(Boolean) ?? '';
  return [
    {
      provider: 'verizon',
      account,
      maintenanceId,
      status: verizonStatus(attention),
      circuits,
      start: dateTime(start, 'verizon', { zone: 'UTC' }),
      end: dateTime(end, 'verizon', { zone: 'UTC' }),
      stamp: stampOf(email.date, 'verizon'),
      sequence: 1,
      summary: fields.get('description of maintenance') ?? '',
    },
  ];
}

function circuitTable(tables: readonly string[][][]): ParsedMaintenance['circuits'] {
  for (const rows of tables) {
    const header = rows.findIndex((cells) => labelKey(cells[0] ?? '') === 'company name');
    if (header < 0) continue;
    const column = rows[header].findIndex((cell) => labelKey(cell) === 'circuit id');
    return rows
      .slice(header + 1)
      .filter((cells) => cells.length > column && cells[column])
      .map((cells) => ({ circuitId: cells[column], impact: 'OUTAGE' as const }));
  }
  return [];
}

function verizonStatus(attention: string): ParsedStatus {
  const lower = attention.toLowerCase();
  if (lower.includes('maintenance was not completed') || lower.includes('cancel')) return 'CANCELLED';
  if (lower.includes('rescheduled')) return 'RE-SCHEDULED';
  if (lower.includes('completed')) return 'COMPLETED';
  return 'CONFIRMED';
}

export const verizonParser: CarrierParser = {
  name: 'verizon',
  label: 'Verizon Business',
  senderDomains: ['verizon.com', 'verizonbusiness.com'],
  reads: ['html'],
  parse: parseVerizon,
};
