import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlTables } from './support/html';

/**
 * Tata Communications (ServiceNow "Planned Work Notification"): the subject carries the notice kind
 * ("TCL TT: "CHGP…" / "Normal" / "Scheduled" / Planned Work Notification", prefixed "First Reminder /",
 * "Reschedule Notification /", "Extension Notification /", "Cancellation Notification /",
 * "Completion Notification /"); the body is a label/value table: "Ticket Reference - TCL",
 * "Service ID" (comma-separated), "Activity Window (GMT)" or "Revised Activity Window (GMT)"
 * ("2024-12-22 00:01:00 GMT to 2024-12-30 23:59:00 GMT"), and on an extension "Extended Up to Time
 * Window (GMT)", the new end. Other Tata emails (no "Planned Work Notification" subject) are not notices.
 */
export const tataParser: CarrierParser = {
  name: 'tata',
  label: 'Tata Communications',
  senderDomains: ['tatacommunications.com'],
  reads: ['subject', 'html'],
  parse: parseTata,
};

/** "2024-12-22 00:01:00 GMT". */
const GMT_TIME = { formats: ['yyyy-MM-dd HH:mm:ss'] };

/** circuit-maintenance-parser's account for Tata, whose notices name none (kept so records compare). */
const NO_ACCOUNT = 'N/A';

function parseTata(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const subject = email.subject.replace(/\s*\r?\n\s*/g, ' ').trim();
  if (!/planned work notification/i.test(subject)) {
    throw new MailParseError('unsupported_format', 'tata: the subject is no "Planned Work Notification"');
  }
  const fields = new Map<string, string>();
  for (const rows of htmlTables(email.html)) {
    for (const cells of rows) {
      const label = cells[0]?.toLowerCase().replace(/\s*:\s*$/, '');
      if (cells.length === 2 && label && !fields.has(label)) fields.set(label, cells[1]);
    }
  }
  const maintenanceId = fields.get('ticket reference - tcl');
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'tata: no "Ticket Reference - TCL" row');
  const window = fields.get('revised activity window (gmt)') ?? fields.get('activity window (gmt)');
  const bounds = window?.split(/\s+to\s+/i);
  if (!bounds || bounds.length !== 2) throw new MailParseError('unsupported_format', 'tata: no "Activity Window (GMT)" row');
  let end = dateTime(bounds[1], 'tata', GMT_TIME);
  const extended = fields.get('extended up to time window (gmt)');
  if (extended && /gmt/i.test(extended)) {
    end = dateTime(extended, 'tata', GMT_TIME);
    notes.reason('Tata extension: the end is the "Extended Up to Time Window (GMT)"');
  }
  const circuits = (fields.get('service id') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const }));
  notes.reason('Tata Planned Work Notification: status from the subject, window from the GMT row');
  return [
    {
      provider: 'tata',
      account: NO_ACCOUNT,
      maintenanceId,
      status: tataStatus(subject),
      circuits,
      start: dateTime(bounds[0], 'tata', GMT_TIME),
      end,
      stamp: stampOf(email.date, 'tata'),
      sequence: 1,
      summary: subject,
    },
  ];
}

function tataStatus(subject: string): ParsedStatus {
  const lower = subject.toLowerCase();
  if (lower.includes('completion')) return 'COMPLETED';
  if (lower.includes('reschedule') || lower.includes('extension')) return 'RE-SCHEDULED';
  if (lower.includes('cancellation')) return 'CANCELLED';
  return 'CONFIRMED';
}
