import type { CarrierParser } from '../carrier-parser';
import type { ParsedEmail, ParsedMaintenance, ParsedStatus } from '../parsed-maintenance';
import { labelledLines, parseUtc, required, stampOf } from './notice-text';

/**
 * Cogent: plain text. Labelled lines "Ticket", "Account", "Start time" / "End time" (US
 * mm/dd/yyyy GMT), "Work to be performed", "Expected Outage Duration" and a comma-separated
 * "Order ID(s) impacted"; the status is in the subject (Cancelled / Rescheduled / Completed, else
 * confirmed). An outage duration means every order has an outage.
 */
function parseCogent(email: ParsedEmail): ParsedMaintenance[] {
  const fields = labelledLines(email.text);
  const orders = required(fields, 'order id(s) impacted', 'cogent')
    .split(/[,\s]+/)
    .filter(Boolean);
  const duration = (fields.get('expected outage duration') ?? '').toLowerCase();
  const impact = !duration || duration.startsWith('none') || duration.startsWith('no ') ? 'NO-IMPACT' : 'OUTAGE';
  return [
    {
      provider: 'cogent',
      account: fields.get('account') ?? '',
      maintenanceId: required(fields, 'ticket', 'cogent'),
      status: cogentStatus(email.subject),
      circuits: orders.map((circuitId) => ({ circuitId, impact })),
      start: parseUtc(required(fields, 'start time', 'cogent'), 'cogent'),
      end: parseUtc(required(fields, 'end time', 'cogent'), 'cogent'),
      stamp: stampOf(email.date, 'cogent'),
      sequence: -1,
      summary: fields.get('work to be performed') ?? '',
    },
  ];
}

function cogentStatus(subject: string): ParsedStatus {
  const lower = subject.toLowerCase();
  if (lower.includes('cancel')) return 'CANCELLED';
  if (lower.includes('reschedul')) return 'RE-SCHEDULED';
  if (lower.includes('complete')) return 'COMPLETED';
  return 'CONFIRMED';
}

export const cogentParser: CarrierParser = {
  name: 'cogent',
  label: 'Cogent',
  senderDomains: ['cogentco.com'],
  reads: ['text', 'subject'],
  parse: (email) => parseCogent(email),
};
