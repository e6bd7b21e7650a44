import type { CarrierParser } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { labelledLines, parseUtc, required, stampOf } from './notice-text';

/**
 * Colt: plain-text "Planned Work Notification". Labelled lines (Planned Work ID, Customer, Status,
 * Start/End Date and Time (UTC), Description) and an "Affected services:" block of
 * "<circuit id> - <expected impact>" lines ending at the first blank line.
 */
function parseColt(email: ParsedEmail): ParsedMaintenance[] {
  const fields = labelledLines(email.text);
  const lines = email.text.split(/\r?\n/);
  const blockStart = lines.findIndex((line) => /^\s*affected services\s*:\s*$/i.test(line));
  if (blockStart < 0) throw new MailParseError('unsupported_format', 'colt: no "Affected services:" block in the email');
  const circuits = [];
  for (const line of lines.slice(blockStart + 1)) {
    if (!line.trim()) break;
    const match = /^\s*(\S+)\s+-\s+(.+)$/.exec(line);
    if (match) circuits.push({ circuitId: match[1], impact: coltImpact(match[2]) });
  }
  return [
    {
      provider: 'colt',
      account: fields.get('customer') ?? '',
      maintenanceId: required(fields, 'planned work id', 'colt'),
      status: coltStatus(required(fields, 'status', 'colt')),
      circuits,
      start: parseUtc(required(fields, 'start date and time (utc)', 'colt'), 'colt'),
      end: parseUtc(required(fields, 'end date and time (utc)', 'colt'), 'colt'),
      stamp: stampOf(email.date, 'colt'),
      sequence: -1,
      summary: fields.get('description') ?? '',
    },
  ];
}

function coltStatus(text: string): ParsedStatus {
  const lower = text.toLowerCase();
  if (lower.startsWith('cancel')) return 'CANCELLED';
  if (lower.startsWith('complete')) return 'COMPLETED';
  if (lower.startsWith('start') || lower.startsWith('in progress')) return 'IN-PROCESS';
  if (lower.startsWith('reschedul')) return 'RE-SCHEDULED';
  if (lower.startsWith('tentative')) return 'TENTATIVE';
  if (lower.startsWith('scheduled') || lower.startsWith('confirmed')) return 'CONFIRMED';
  return 'NO-CHANGE';
}

function coltImpact(text: string): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.includes('no impact')) return 'NO-IMPACT';
  if (lower.includes('resilience') || lower.includes('redundancy')) return 'REDUCED-REDUNDANCY';
  if (lower.includes('degrad')) return 'DEGRADED';
  return 'OUTAGE';
}

export const coltParser: CarrierParser = {
  name: 'colt',
  label: 'Colt',
  senderDomains: ['colt.net'],
  reads: ['text'],
  parse: (email) => parseColt(email),
};
