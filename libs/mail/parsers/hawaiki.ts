import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlLines } from './support/html';

/**
 * Hawaiki Submarine Cable (NOC run by BW Digital, OTRS tickets): the subject carries the ticket
 * ("[Ticket#2026072290001004] Hawaiki Submarine Cable: …"); the body lists "Service ID:" lines, a
 * "Maintenance Window" block ("Start: 2026-August-05 20:00 UTC" / "End: …"), a "Contingency Window"
 * held in reserve (not a second window: it is used only when the first fails), "Reason for
 * Notification:" and one "Service impact:" line for every service. Ticket follow-ups without a
 * window (completion, updates) carry no maintenance data.
 */
export const hawaikiParser: CarrierParser = {
  name: 'hawaiki',
  label: 'Hawaiki',
  senderDomains: ['bw-digital.com'],
  reads: ['subject', 'text', 'html'],
  parse: parseHawaiki,
};

function parseHawaiki(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const lines = (email.text ? email.text.split(/\r?\n/) : htmlLines(email.html)).map((line) => line.trim());
  const maintenanceId = /\[Ticket#(\S+?)\]/.exec(email.subject)?.[1];
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'hawaiki: no "[Ticket#…]" in the subject');
  const heading = lines.indexOf('Maintenance Window');
  const after = (label: string) => lines.slice(heading + 1).find((line) => line.startsWith(label));
  const start = heading >= 0 ? after('Start:') : undefined;
  const end = heading >= 0 ? after('End:') : undefined;
  if (!start || !end)
    throw new MailParseError('no_maintenance_data', `hawaiki: ticket ${maintenanceId} has no "Maintenance Window" (a follow-up)`);
  const impactLine = lines.find((line) => /^Service impact\s*:/i.test(line));
  if (!impactLine) notes.uncertain('hawaiki: no "Service impact:" line; every service read as an outage');
  const impact = impactOf(impactLine?.replace(/^[^:]*:/, '') ?? '');
  const circuits = lines
    .filter((line) => /^Service ID\s*:/i.test(line))
    .map((line) => ({ circuitId: line.replace(/^[^:]*:/, '').trim(), impact }))
    .filter((circuit) => circuit.circuitId);
  const reason = lines.find((line) => /^Reason for Notification\s*:/i.test(line));
  notes.reason(`Hawaiki ticket ${maintenanceId}: ${circuits.length} service(s), the "Maintenance Window" block`);
  const at = (line: string) => dateTime(line.replace(/^[^:]*:/, ''), 'hawaiki', { formats: ['yyyy-MMMM-dd HH:mm', 'yyyy-MMM-dd HH:mm'] });
  return [
    {
      provider: 'hawaiki',
      account: '',
      maintenanceId,
      status: 'CONFIRMED',
      circuits,
      start: at(start),
      end: at(end),
      stamp: stampOf(email.date, 'hawaiki'),
      sequence: 1,
      summary: reason ? reason.replace(/^[^:]*:/, '').trim() : email.subject.trim(),
    },
  ];
}

function impactOf(text: string): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.includes('no service impact') || lower.includes('no impact')) return 'NO-IMPACT';
  if (lower.includes('redundancy') || lower.includes('re-routed')) return 'REDUCED-REDUNDANCY';
  return 'OUTAGE';
}
