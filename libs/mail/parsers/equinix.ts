import type { CarrierParser } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { htmlLabelledCells, htmlTableRows, parseUtc, required, stampOf } from './notice-text';

/**
 * Equinix: HTML. Two-cell rows "Ticket Number", "Account", "Scheduled Start (UTC)", "Scheduled End
 * (UTC)", "Impact", "Description"; affected products in a table headed "Account # | Product | IBX |
 * Service Serial #" (the serial number is the circuit id). The status is in the subject (COMPLETED,
 * CANCELLED, RESCHEDULED, else scheduled = confirmed).
 */
function parseEquinix(email: ParsedEmail): ParsedMaintenance[] {
  const fields = htmlLabelledCells(email.html);
  const rows = htmlTableRows(email.html);
  const header = rows.findIndex((cells) => cells.some((cell) => cell.toLowerCase() === 'service serial #'));
  if (header < 0) throw new MailParseError('unsupported_format', 'equinix: no product table with "Service Serial #"');
  const serialColumn = rows[header].findIndex((cell) => cell.toLowerCase() === 'service serial #');
  const impact = equinixImpact(fields.get('impact') ?? '');
  const circuits = rows
    .slice(header + 1)
    .filter((cells) => cells.length === rows[header].length)
    .map((cells) => ({ circuitId: cells[serialColumn], impact }));
  return [
    {
      provider: 'equinix',
      account: fields.get('account') ?? '',
      maintenanceId: required(fields, 'ticket number', 'equinix'),
      status: equinixStatus(email.subject),
      circuits,
      start: parseUtc(required(fields, 'scheduled start (utc)', 'equinix'), 'equinix'),
      end: parseUtc(required(fields, 'scheduled end (utc)', 'equinix'), 'equinix'),
      stamp: stampOf(email.date, 'equinix'),
      sequence: -1,
      summary: fields.get('description') ?? '',
    },
  ];
}

function equinixStatus(subject: string): ParsedStatus {
  const upper = subject.toUpperCase();
  if (upper.includes('COMPLETED')) return 'COMPLETED';
  if (upper.includes('CANCELLED')) return 'CANCELLED';
  if (upper.includes('RESCHEDULED')) return 'RE-SCHEDULED';
  return 'CONFIRMED';
}

function equinixImpact(text: string): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.startsWith('no impact')) return 'NO-IMPACT';
  if (lower.includes('redundancy')) return 'REDUCED-REDUNDANCY';
  if (lower.includes('degrad') || lower.includes('latency')) return 'DEGRADED';
  return 'OUTAGE';
}

export const equinixParser: CarrierParser = {
  name: 'equinix',
  label: 'Equinix',
  senderDomains: ['equinix.com'],
  reads: ['html', 'subject'],
  parse: (email) => parseEquinix(email),
};
