import type { CarrierParser } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { htmlLabelledCells, htmlTableRows, parseUtc, required, stampOf } from './notice-text';

/**
 * Zayo: HTML notices. The status is in the subject ("MAINTENANCE NOTIFICATION", "START …",
 * "COMPLETED …", "CANCELLED …", "RESCHEDULE …"); the ticket, window (GMT), customer and reason are
 * two-cell rows; circuits are rows of a table headed "Circuit Id | Expected Impact | …".
 */
function parseZayo(email: ParsedEmail): ParsedMaintenance[] {
  const fields = htmlLabelledCells(email.html);
  const maintenanceId = required(fields, 'maintenance ticket', 'zayo');
  const rows = htmlTableRows(email.html);
  const header = rows.findIndex((cells) => cells[0]?.toLowerCase() === 'circuit id');
  if (header < 0) throw new MailParseError('unsupported_format', 'zayo: no circuit table in the email');
  const circuits = rows
    .slice(header + 1)
    .filter((cells) => cells.length >= 2)
    .map((cells) => ({ circuitId: cells[0], impact: zayoImpact(cells[1]) }));
  return [
    {
      provider: 'zayo',
      account: fields.get('customer') ?? '',
      maintenanceId,
      status: zayoStatus(email.subject),
      circuits,
      start: parseUtc(required(fields, 'maintenance window start (gmt)', 'zayo'), 'zayo'),
      end: parseUtc(required(fields, 'maintenance window end (gmt)', 'zayo'), 'zayo'),
      stamp: stampOf(email.date, 'zayo'),
      sequence: -1,
      summary: fields.get('reason for maintenance') ?? '',
    },
  ];
}

function zayoStatus(subject: string): ParsedStatus {
  const upper = subject.toUpperCase();
  if (upper.includes('CANCELLED')) return 'CANCELLED';
  if (upper.includes('COMPLETED')) return 'COMPLETED';
  if (upper.includes('RESCHEDULE')) return 'RE-SCHEDULED';
  if (upper.includes('START')) return 'IN-PROCESS';
  if (upper.includes('MAINTENANCE NOTIFICATION')) return 'CONFIRMED';
  return 'NO-CHANGE';
}

function zayoImpact(text: string): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.includes('no expected impact')) return 'NO-IMPACT';
  if (lower.includes('switch hit') || lower.includes('redundancy')) return 'REDUCED-REDUNDANCY';
  if (lower.includes('degrad')) return 'DEGRADED';
  return 'OUTAGE';
}

export const zayoParser: CarrierParser = {
  name: 'zayo',
  label: 'Zayo',
  senderDomains: ['zayo.com'],
  reads: ['html', 'subject'],
  parse: (email) => parseZayo(email),
};
