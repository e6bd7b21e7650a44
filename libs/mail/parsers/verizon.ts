import type { CarrierParser } from '../carrier-parser';
import type { ParsedEmail, ParsedMaintenance, ParsedStatus } from '../parsed-maintenance';
import { labelledLines, parseUtc, required, stampOf } from './notice-text';

/**
 * Verizon Business: plain text. Labelled lines "Reference Number", "Company", "Maintenance Status",
 * "Maintenance Date/Time (GMT)" as "<start> - <end>" in dd-Mon-yyyy HH:MM, "Expected Impact",
 * "Description", and one "Circuit ID:" line per circuit.
 */
function parseVerizon(email: ParsedEmail): ParsedMaintenance[] {
  const fields = labelledLines(email.text);
  const [start, end] = required(fields, 'maintenance date/time (gmt)', 'verizon').split(/\s+-\s+/);
  const expected = (fields.get('expected impact') ?? '').toLowerCase();
  const impact = expected.includes('no service impact') ? 'NO-IMPACT' : expected.includes('degrad') ? 'DEGRADED' : 'OUTAGE';
  const circuits = [...email.text.matchAll(/^\s*Circuit ID\s*:\s*(\S+)\s*$/gim)].map((match) => ({ circuitId: match[1], impact }) as const);
  return [
    {
      provider: 'verizon',
      account: fields.get('company') ?? '',
      maintenanceId: required(fields, 'reference number', 'verizon'),
      status: verizonStatus(fields.get('maintenance status') ?? ''),
      circuits,
      start: parseUtc(start, 'verizon'),
      end: parseUtc(end ?? '', 'verizon'),
      stamp: stampOf(email.date, 'verizon'),
      sequence: -1,
      summary: fields.get('description') ?? '',
    },
  ];
}

function verizonStatus(text: string): ParsedStatus {
  const lower = text.toLowerCase();
  if (lower.startsWith('cancel')) return 'CANCELLED';
  if (lower.startsWith('complete')) return 'COMPLETED';
  if (lower.startsWith('reschedul')) return 'RE-SCHEDULED';
  if (lower.startsWith('in progress')) return 'IN-PROCESS';
  if (lower.startsWith('scheduled')) return 'CONFIRMED';
  if (lower.startsWith('tentative')) return 'TENTATIVE';
  return 'NO-CHANGE';
}

export const verizonParser: CarrierParser = {
  name: 'verizon',
  label: 'Verizon',
  senderDomains: ['verizonbusiness.com'],
  reads: ['text'],
  parse: (email) => parseVerizon(email),
};
