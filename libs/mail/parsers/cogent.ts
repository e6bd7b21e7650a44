import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf, zoneFrom } from './support/dates';
import { htmlLines } from './support/html';
import { zoneOfPlace } from './support/locations';

/**
 * Cogent: one notice in text or HTML from Cogent-NoReply@cogentco.com. Lines "Start time:" / "End time:"
 * as "<time> <zone> <M/D/YYYY>" where the zone is a word (CT, ET …) or "(local time)" — then the zone
 * of the place in "Cogent customers receiving service in <City, ST> …"; "Work order number:" (the
 * maintenance id); "Order ID(s) impacted:" (comma-separated, each an outage); "Dear <account>,". The
 * summary is the notice's title line ("… Network Maintenance") or its "During this maintenance" line;
 * the status is in the subject ("Correction …" / rescheduled, cancellation, completed, else planned).
 */
function parseCogent(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const lines = email.html ? htmlLines(email.html) : email.text.split(/\r?\n/).map((line) => line.trim());
  const find = (pattern: RegExp) =>
    lines
      .map((line) => pattern.exec(line))
      .find((match) => match)?.[1]
      ?.trim() ?? '';
  const maintenanceId = find(/^Work order number:\s*(.+)$/i);
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'cogent: no "Work order number:" line');
  const place = find(/^Cogent customers receiving service in (?:the greater )?(.+?)(?: metro area)? will be affected/i);
  const start = cogentTime(find(/^Start time:\s*(.+)$/i), place, notes);
  const end = cogentTime(find(/^End time:\s*(.+)$/i), place, notes);
  const circuits = find(/^Order ID\(s\) impacted:\s*(.+)$/i)
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const }));
  const title = lines.find((line) => /Network Maintenance$/.test(line) && !/^Subject:|\d{1,2}\/\d{1,2}\/\d{4}/.test(line));
  const during = lines.find((line) => line.startsWith('During this maintenance'));
  notes.reason(`work order ${maintenanceId}, window from the Start/End time lines, ${circuits.length} order id(s) as outages`);
  return [
    {
      provider: 'cogent',
      account: find(/^Dear (.+?),/),
      maintenanceId,
      status: cogentStatus(email.subject || (lines.find((line) => /Maintenance - /.test(line)) ?? '').replace(/^Subject:\s*/i, '')),
      circuits,
      start,
      end,
      stamp: stampOf(email.date, 'cogent'),
      sequence: 1,
      summary: title ?? during ?? 'Cogent circuit maintenance',
    },
  ];
}

/** "12:00 AM (local time) 06/12/2021", "10:00pm CT 11/3/2022 (Day 3 of 3)": US month/day dates. */
function cogentTime(text: string, place: string, notes: ParseNotes): number {
  const match = /^(\d{1,2}:\d{2}\s*[ap]m)\s+(\(local time\)|[A-Za-z]{1,5})\s+(\d{1,2}\/\d{1,2}\/\d{4})/i.exec(text);
  if (!match) throw new MailParseError('unsupported_format', `cogent: unreadable time "${text}"`);
  const [, time, zoneWord, date] = match;
  let zone = zoneWord.toLowerCase() === '(local time)' ? null : zoneFrom(zoneWord)?.name;
  if (!zone) {
    const local = zoneOfPlace(place);
    if (!local)
      throw new MailParseError('unsupported_format', `cogent: "${text}" is in local time, and the place "${place}" names no known zone`);
    if (!local.exact) notes.uncertain(`local time of "${place}" read in ${local.zone}, the zone of most of its state`);
    zone = local.zone;
  }
  return dateTime(`${date} ${time}`, 'cogent', { zone });
}

function cogentStatus(subject: string): ParsedStatus {
  const lower = subject.toLowerCase();
  if (lower.startsWith('correction') || lower.includes('rescheduled')) return 'RE-SCHEDULED';
  if (lower.includes('cancellation') || lower.includes('cancelled')) return 'CANCELLED';
  if (lower.includes('completed')) return 'COMPLETED';
  if (lower.includes('planned') || lower.includes('provider') || lower.includes('emergency')) return 'CONFIRMED';
  return 'NO-CHANGE';
}

export const cogentParser: CarrierParser = {
  name: 'cogent',
  label: 'Cogent',
  senderDomains: ['cogentco.com'],
  reads: ['text', 'html', 'subject'],
  parse: parseCogent,
};
