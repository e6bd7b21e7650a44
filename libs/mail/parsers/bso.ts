import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlLines, loadHtml, squash } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * BSO: HTML notices headed "Maintenance_", "Maintenance Start_", "Maintenance Reminder_",
 * "Maintenance Update_" (re-scheduled), "Maintenance End_" (completed) or "Maintenance Canceled_".
 * Rows of cells: "Maintenance Reason" then the reason; "Maintenance ID"; one or more timeslots
 * ("Timeslot start time" / "Timeslot end time", "… (Backup)" for a fallback slot, "Aug 29, 2022
 * 15:00 UTC"), each followed by "Expected impact level" and one row per service: id, impact ("Hard
 * Down", "Switch hit …", "At risk only"). Several timeslots make one record from the earliest start
 * to the latest end, as circuit-maintenance-parser reads them. The notices name no account.
 */
function parseBso(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const html = htmlBody(email);
  const rows = innermostRows(html);
  let maintenanceId = '';
  let summary = '';
  const starts: number[] = [];
  const ends: number[] = [];
  const circuits = new Map<string, ParsedImpact>();
  for (let index = 0; index < rows.length; index++) {
    const [label = '', value = ''] = rows[index];
    const key = label.toLowerCase();
    if (key === 'maintenance reason' && rows[index].length === 1) summary = rows[index + 1]?.[0] ?? '';
    else if (key === 'maintenance id' && value) maintenanceId = value;
    else if (key.startsWith('timeslot start time') && value) starts.push(dateTime(value, 'bso'));
    else if (key.startsWith('timeslot end time') && value) ends.push(dateTime(value, 'bso'));
    else if (key.startsWith('expected impact level')) {
      for (let next = index + 1; next < rows.length && rows[next].length === 2 && !isBsoLabel(rows[next][0]); next++) {
        const [circuitId, impact] = rows[next];
        if (!circuits.has(circuitId)) circuits.set(circuitId, bsoImpact(impact));
      }
    }
  }
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'bso: no "Maintenance ID" row');
  if (!starts.length || !ends.length) throw new MailParseError('unsupported_format', 'bso: no timeslot');
  if (starts.length > 1) notes.reason(`${starts.length} timeslots: the record spans the earliest start to the latest end`);
  const heading =
    htmlLines(html)
      .map(squash)
      .find((line) => /^Maintenance(?: [A-Za-z]+)?_$/.test(line)) ?? '';
  if (!heading) notes.uncertain('bso: no "Maintenance …_" heading: read as confirmed');
  notes.reason(`maintenance ${maintenanceId}, status from the heading "${heading}"`);
  return [
    {
      provider: 'bso',
      account: 'Customer info unavailable',
      maintenanceId,
      status: bsoStatus(heading),
      circuits: [...circuits].map(([circuitId, impact]) => ({ circuitId, impact })),
      start: Math.min(...starts),
      end: Math.max(...ends),
      stamp: stampOf(email.date, 'bso'),
      sequence: 1,
      summary,
    },
  ];
}

/** The rows that hold no table of their own (the layout nests tables deeply), as their non-empty cell texts. */
function innermostRows(html: string): string[][] {
  const $ = loadHtml(html);
  return $('tr')
    .toArray()
    .filter((row) => $(row).find('tr').length === 0)
    .map((row) =>
      $(row)
        .children('td,th')
        .toArray()
        .map((cell) => squash($(cell).text()))
        .filter((cell) => cell !== ''),
    )
    .filter((cells) => cells.length > 0);
}

const isBsoLabel = (cell: string) => /^(timeslot|expected|maintenance)\b/i.test(cell);

function bsoStatus(heading: string): ParsedStatus {
  const word = heading.toLowerCase();
  if (word.includes('update')) return 'RE-SCHEDULED';
  if (word.includes('end')) return 'COMPLETED';
  if (word.includes('cancel')) return 'CANCELLED';
  return 'CONFIRMED';
}

function bsoImpact(text: string): ParsedImpact {
  const lower = text.toLowerCase();
  if (lower.includes('switch hit')) return 'REDUCED-REDUNDANCY';
  if (lower.includes('at risk only')) return 'NO-IMPACT';
  return 'OUTAGE';
}

export const bsoParser: CarrierParser = {
  name: 'bso',
  label: 'BSO',
  senderDomains: ['bso.co'],
  reads: ['html'],
  parse: parseBso,
};
