import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlLines, htmlTables } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * HGC Global Communications: the subject ends with the ticket — "HGC Maintenance Work Notification -
 * Customer | CIR000001 | TIC000000000000001" or "… _ CIR000001 (TIC000000000000001)". The HTML
 * gives "Circuit ID", "Customer" (the account), "Maintenance Window start date & time" / "end date
 * & time" ("15-Aug-2021 07:01 UTC"), "Service Impact" and "Description" (the summary), either as
 * three-cell rows (label | ":" | value) or as "Label: value" lines; the rows win.
 */
function parseHgc(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const html = htmlBody(email);
  const subject = email.subject.replace(/\s+/g, ' ').trim();
  const maintenanceId = /\(([^()]+)\)\s*$/.exec(subject)?.[1] ?? subject.split('|').pop()?.trim();
  if (!maintenanceId || !/\d/.test(maintenanceId)) {
    throw new MailParseError('unsupported_format', 'hgc: no ticket at the end of the subject');
  }
  const fields = new Map<string, string>();
  const keep = (label: string, value: string) => {
    const key = label.toLowerCase().replace(/\s+/g, ' ').trim();
    if (value && !fields.has(key)) fields.set(key, value.trim());
  };
  for (const cells of htmlTables(html).flat()) {
    if (cells.length === 3 && cells[1] === ':') keep(cells[0], cells[2]);
  }
  for (const line of htmlLines(html)) {
    const match = /^([^:]+?)\s*:\s*(.+)$/.exec(line);
    if (match) keep(match[1], match[2]);
  }
  const field = (label: string) => {
    const value = fields.get(label);
    if (!value) throw new MailParseError('unsupported_format', `hgc: no "${label}"`);
    return value;
  };
  const circuits = field('circuit id')
    .split(/\s*[,;]\s*/)
    .filter(Boolean);
  const impact = fields.get('service impact') ?? '';
  notes.reason(`ticket ${maintenanceId} from the subject; circuit, customer, window and description from the HTML`);
  return [
    {
      provider: 'hgc',
      account: fields.get('customer') ?? '',
      maintenanceId,
      status: /cancel/i.test(subject) ? 'CANCELLED' : 'CONFIRMED',
      circuits: circuits.map((circuitId) => ({
        circuitId,
        impact: /no (service )?impact/i.test(impact) ? ('NO-IMPACT' as const) : ('OUTAGE' as const),
      })),
      start: dateTime(field('maintenance window start date & time'), 'hgc'),
      end: dateTime(field('maintenance window end date & time'), 'hgc'),
      stamp: stampOf(email.date, 'hgc'),
      sequence: 1,
      summary: fields.get('description') ?? '',
    },
  ];
}

export const hgcParser: CarrierParser = {
  name: 'hgc',
  label: 'HGC Global Communications',
  senderDomains: ['hgc.com.hk'],
  reads: ['subject', 'html'],
  parse: parseHgc,
};
