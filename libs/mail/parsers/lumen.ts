import type { CarrierParser } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { htmlLabelledCells, htmlTableRows, parseUtc, required, stampOf } from './notice-text';

/**
 * Lumen: HTML. Two-cell rows "Scheduled Maintenance #", "Status", "Summary", "Customer Name"; a window
 * table headed "Start | End" (UTC); a circuit table headed "Circuit ID | Customer Name | Alt Circuit ID
 * | Impact" where "Outage" is an outage and "Protected" reduced redundancy.
 */
function parseLumen(email: ParsedEmail): ParsedMaintenance[] {
  const fields = htmlLabelledCells(email.html);
  const rows = htmlTableRows(email.html);
  const windowHeader = rows.findIndex((cells) => cells[0]?.toLowerCase() === 'start' && cells[1]?.toLowerCase() === 'end');
  const circuitHeader = rows.findIndex((cells) => cells[0]?.toLowerCase() === 'circuit id');
  if (windowHeader < 0 || !rows[windowHeader + 1]) throw new MailParseError('unsupported_format', 'lumen: no Start | End window table');
  if (circuitHeader < 0) throw new MailParseError('unsupported_format', 'lumen: no circuit table');
  const impactColumn = rows[circuitHeader].findIndex((cell) => cell.toLowerCase() === 'impact');
  const circuits = rows
    .slice(circuitHeader + 1)
    .filter((cells) => cells.length === rows[circuitHeader].length)
    .map((cells) => ({ circuitId: cells[0], impact: lumenImpact(cells[impactColumn] ?? '') }));
  const [start, end] = rows[windowHeader + 1];
  return [
    {
      provider: 'lumen',
      account: fields.get('customer name') ?? '',
      maintenanceId: required(fields, 'scheduled maintenance', 'lumen'),
      status: lumenStatus(fields.get('status') ?? ''),
      circuits,
      start: parseUtc(start, 'lumen'),
      end: parseUtc(end, 'lumen'),
      stamp: stampOf(email.date, 'lumen'),
      sequence: -1,
      summary: fields.get('summary') ?? '',
    },
  ];
}

function lumenStatus(text: string): ParsedStatus {
  const lower = text.toLowerCase();
  if (lower.startsWith('cancel')) return 'CANCELLED';
  if (lower.startsWith('complete')) return 'COMPLETED';
  if (lower.startsWith('in progress')) return 'IN-PROCESS';
  if (lower.startsWith('reschedul')) return 'RE-SCHEDULED';
  if (lower.startsWith('scheduled')) return 'CONFIRMED';
  return 'NO-CHANGE';
}

function lumenImpact(text: string): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.startsWith('protected')) return 'REDUCED-REDUNDANCY';
  if (lower.startsWith('none')) return 'NO-IMPACT';
  if (lower.startsWith('degrad')) return 'DEGRADED';
  return 'OUTAGE';
}

export const lumenParser: CarrierParser = {
  name: 'lumen',
  label: 'Lumen',
  senderDomains: ['lumen.com'],
  reads: ['html'],
  parse: (email) => parseLumen(email),
};
