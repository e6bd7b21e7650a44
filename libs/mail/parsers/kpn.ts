import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { xlsxAttachments } from './support/attachments';
import { stampOf } from './support/dates';
import { rowRecords, xlsxRows } from './support/tabular';

/**
 * KPN (gepland werk): the email body says nothing; an XLSX attachment (Trans_….xlsx) has one row per
 * affected line under bilingual headings — "Astrid/IDA" (the work id), "Aankondiging" (announcement,
 * wijziging = change, annulering = cancellation, afsluiting = closure), "Startdatum | Start date"
 * (dd-mm-yyyy) with "Starttijd | Start time" (hh:mm), the same for the end, "V/G/A-nummer | V/G/A
 * number" (the circuit), "Onderbrekingsduur | Downtime" (minutes; 0 = no impact), "Lijnbenaming |
 * Line ID" and "Bedrijfsnaam A-locatie | Company A-location" (the account). One record per work id.
 */
export const kpnParser: CarrierParser = {
  name: 'kpn',
  label: 'KPN',
  senderDomains: ['kpn.com'],
  reads: ['xlsx'],
  parse: parseKpn,
};

const COLUMNS = {
  circuit: 'v/g/a-nummer | v/g/a number',
  id: 'astrid/ida',
  startDate: 'startdatum | start date',
  startTime: 'starttijd | start time',
  endDate: 'einddatum | end date',
  endTime: 'eindtijd | end time',
  downtime: 'onderbrekingsduur | downtime',
  line: 'lijnbenaming | line id',
  kind: 'aankondiging',
  account: 'bedrijfsnaam a-locatie | company a-location',
};

const KINDS: Record<string, ParsedStatus> = {
  aankondiging: 'CONFIRMED',
  wijziging: 'CONFIRMED',
  annulering: 'CANCELLED',
  afsluiting: 'COMPLETED',
};

async function parseKpn(email: ParsedEmail, notes: ParseNotes): Promise<ParsedMaintenance[]> {
  const sheets = xlsxAttachments(email);
  if (!sheets.length) throw new MailParseError('unsupported_format', 'kpn: no XLSX attachment');
  const records: Array<Map<string, string>> = [];
  for (const sheet of sheets) {
    for (const rows of await xlsxRows(sheet.content)) {
      records.push(...(rowRecords(rows, [COLUMNS.id, COLUMNS.circuit, COLUMNS.startDate, COLUMNS.startTime]) ?? []));
    }
  }
  if (!records.length) throw new MailParseError('no_maintenance_data', 'kpn: the spreadsheet has no rows under the KPN headings');
  notes.uncertain('kpn: the spreadsheet gives its times without a zone; they are read as UTC');
  const works = new Map<string, Array<Map<string, string>>>();
  for (const record of records) {
    const id = record.get(COLUMNS.id) ?? '';
    if (id) works.set(id, [...(works.get(id) ?? []), record]);
  }
  const stamp = stampOf(email.date, 'kpn');
  return [...works].map(([maintenanceId, rows]) => {
    const first = rows[0];
    const kind = (first.get(COLUMNS.kind) ?? '').toLowerCase();
    if (!KINDS[kind]) notes.uncertain(`kpn: unknown Aankondiging "${kind}"; read as CONFIRMED`);
    const line = first.get(COLUMNS.line) ?? '';
    return {
      provider: 'kpn',
      account: first.get(COLUMNS.account) ?? '',
      maintenanceId,
      status: KINDS[kind] ?? 'CONFIRMED',
      circuits: rows
        .filter((row) => row.get(COLUMNS.circuit))
        .map((row) => ({
          circuitId: row.get(COLUMNS.circuit) ?? '',
          impact: row.get(COLUMNS.downtime)?.trim() === '0' ? 'NO-IMPACT' : 'OUTAGE',
        })),
      start: kpnTime(first.get(COLUMNS.startDate), first.get(COLUMNS.startTime)),
      end: kpnTime(first.get(COLUMNS.endDate), first.get(COLUMNS.endTime)),
      stamp,
      sequence: 1,
      summary: `KPN maintenance ${maintenanceId}${line ? ` (${line})` : ''}`,
    };
  });
}

/** A date cell (dd-mm-yyyy text, or a date the sheet stores) and a time cell (hh:mm, or a stored time) as UTC. */
function kpnTime(date = '', time = ''): number {
  const written = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(date.trim());
  const stored = /^(\d{4})-(\d{2})-(\d{2})T/.exec(date.trim());
  const clock = /^(\d{1,2}):(\d{2})/.exec(time.trim()) ?? /T(\d{2}):(\d{2})/.exec(time.trim());
  const [year, month, day] = written ? [written[3], written[2], written[1]] : stored ? [stored[1], stored[2], stored[3]] : [];
  if (!year || !month || !day || !clock) throw new MailParseError('unsupported_format', `kpn: unreadable date-time "${date} ${time}"`);
  return Date.UTC(+year, +month - 1, +day, +clock[1], +clock[2]) / 1000;
}
