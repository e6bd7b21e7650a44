import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlTables, labelKey } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * Aqua Comms: the subject "Aqua Comms Planned Outage Work ISSUE=11111 PROJ=999" (ISSUE the ticket,
 * PROJ the account) and an HTML body of two-cell rows — "Ticket Number:", "Scheduled Start Date &
 * Time:" / "Scheduled End Date & Time:" ("22:00 12/10/2020 GMT", day first), "Service ID:" (one row
 * per circuit) — with the latest "- Update - …" line as the summary.
 */
function parseAquaComms(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const subject = /ISSUE=(\d+)\W+PROJ=(\w+)/i.exec(email.subject);
  const fields = new Map<string, string>();
  const circuits: string[] = [];
  let summary = '';
  for (const cells of htmlTables(htmlBody(email)).flat()) {
    const update = /^-?\s*Update\s*-\s*(.+)$/i.exec(cells[0] ?? '');
    if (update && !summary) summary = update[1].trim();
    if (cells.length < 2) continue;
    const key = labelKey(cells[0]);
    if (key === 'service id') circuits.push(cells[1]);
    else if (!fields.has(key)) fields.set(key, cells[1]);
  }
  const maintenanceId = fields.get('ticket number') || subject?.[1];
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'aquacomms: no "Ticket Number" row and no ISSUE= in the subject');
  const window = (label: string) => {
    const value = fields.get(label);
    if (!value) throw new MailParseError('unsupported_format', `aquacomms: no "${label}" row`);
    return dateTime(value, 'aquacomms', { formats: ['HH:mm dd/MM/yyyy', 'H:mm d/M/yyyy'], dayFirst: true });
  };
  if (!subject) notes.uncertain('aquacomms: no "ISSUE=… PROJ=…" in the subject: the account is unknown');
  notes.reason(`ticket ${maintenanceId} and window from the HTML rows; account from the subject's PROJ=`);
  return [
    {
      provider: 'aquacomms',
      account: subject?.[2] ?? '',
      maintenanceId,
      status: aquaCommsStatus(email.subject),
      circuits: circuits.map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const })),
      start: window('scheduled start date & time'),
      end: window('scheduled end date & time'),
      stamp: stampOf(email.date, 'aquacomms'),
      sequence: 1,
      summary,
    },
  ];
}

function aquaCommsStatus(subject: string): ParsedStatus {
  if (/cancel/i.test(subject)) return 'CANCELLED';
  if (/complet/i.test(subject)) return 'COMPLETED';
  return 'CONFIRMED';
}

export const aquaCommsParser: CarrierParser = {
  name: 'aquacomms',
  label: 'Aqua Comms',
  senderDomains: ['aquacomms.com'],
  reads: ['subject', 'html'],
  parse: parseAquaComms,
};
