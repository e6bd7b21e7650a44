import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { csvAttachments } from './support/attachments';
import { dateTime, stampOf } from './support/dates';
import { csvRows, rowRecords } from './support/tabular';

/**
 * Colt: the subject carries the id, the window (day/month/year, GMT) and the status; the affected
 * services are rows of an attached CSV (UTF-16, tab-separated, columns "OCN", "Circuit ID", …), each
 * an outage, the account the digits of the first row's OCN. Two subject forms:
 * "[Cancellation ]Colt <kind> Maintenance Notification - CRQ1-… [dd/mm/yyyy hh:mm:ss GMT - …] for <customer>"
 * and "MAINTENANCE ALERT: CRQ1-… dd/mm/yyyy hh:mm:ss GMT - … GMT is about to START | - COMPLETED".
 * The calendar invite Colt attaches (not BCOP) and the HTML body repeat what the subject says.
 */
const WHEN = String.raw`(\d{1,2}/\d{1,2}/\d{4}\s+\d{1,2}:\d{2}:\d{2}\s+[A-Z]+)`;
const NOTIFICATION = new RegExp(String.raw`^(?:\[[^\]]*\]\s*)?(\S+)\s+(.+?)[\s-]+(CRQ\w*-\w+)\s*\[${WHEN}\s*-\s*${WHEN}\]`, 'i');
const ALERT = new RegExp(
  String.raw`^(?:\[[^\]]*\]\s*)?([A-Za-z ]+?):?\s+(CRQ\w*-\w+)\s+${WHEN}\s*-\s*${WHEN}.*?\b(START|COMPLETED)?\s*$`,
  'i',
);

function parseColt(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const subject = email.subject.replace(/\s+/g, ' ').trim();
  const heading = readSubject(subject);
  if (!heading) throw new MailParseError('unsupported_format', `colt: the subject "${subject}" is no Colt notification`);
  const services = serviceRows(email, notes);
  notes.reason(
    `${heading.maintenanceId} and its GMT window from the subject, ${services.circuits.length} service(s) from the CSV attachment`,
  );
  return [
    {
      provider: 'colt',
      account: services.account,
      maintenanceId: heading.maintenanceId,
      status: heading.status,
      circuits: services.circuits,
      start: dateTime(heading.start, 'colt', { dayFirst: true }),
      end: dateTime(heading.end, 'colt', { dayFirst: true }),
      stamp: stampOf(email.date, 'colt'),
      sequence: 1,
      summary: heading.summary,
    },
  ];
}

interface SubjectHeading {
  maintenanceId: string;
  start: string;
  end: string;
  status: ParsedStatus;
  summary: string;
}

function readSubject(subject: string): SubjectHeading | null {
  const alert = ALERT.exec(subject);
  if (alert && /alert/i.test(alert[1])) {
    const word = (alert[5] ?? '').toUpperCase();
    const status: ParsedStatus = word === 'START' ? 'IN-PROCESS' : word === 'COMPLETED' ? 'COMPLETED' : 'CONFIRMED';
    return { maintenanceId: alert[2], start: alert[3], end: alert[4], status, summary: alert[1].trim() };
  }
  const notification = NOTIFICATION.exec(subject);
  if (!notification) return null;
  return {
    maintenanceId: notification[3],
    start: notification[4],
    end: notification[5],
    status: notification[1].toLowerCase() === 'cancellation' ? 'CANCELLED' : 'CONFIRMED',
    summary: notification[2].trim(),
  };
}

function serviceRows(email: ParsedEmail, notes: ParseNotes): { account: string; circuits: ParsedMaintenance['circuits'] } {
  const result = { account: '', circuits: [] as ParsedMaintenance['circuits'] };
  for (const attachment of csvAttachments(email)) {
    for (const record of rowRecords(csvRows(attachment.content), ['circuit id']) ?? []) {
      const circuitId = record.get('circuit id') ?? '';
      if (!circuitId) continue;
      result.circuits.push({ circuitId, impact: 'OUTAGE' });
      if (!result.account) result.account = /\d+/.exec(record.get('ocn') ?? '')?.[0] ?? '';
    }
  }
  if (!result.circuits.length) notes.uncertain('no CSV attachment with a "Circuit ID" column: no circuits');
  return result;
}

export const coltParser: CarrierParser = {
  name: 'colt',
  label: 'Colt',
  senderDomains: ['colt.net'],
  reads: ['subject', 'csv'],
  parse: parseColt,
};
