import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedImpact, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlLines, htmlTables, labelKey, loadHtml } from './support/html';

/**
 * Equinix: HTML from no-reply@equinix.com, often bilingual (a local-language section first, English
 * after). The subject carries the status and, in brackets at its end, the maintenance id
 * ("COMPLETED - Scheduled … Network Maintenance -16-NOV-2021 [EQ-GL-20211027-00621]"); the body has
 * "SPAN: 02-JUL-2021 - 03-JUL-2021" (the years), "UTC: FRIDAY, 02 JUL 10:00 - FRIDAY, 02 JUL 15:00"
 * (the window, without years), "IMPACT:" in words shared by every circuit, and per product a table
 * headed "Account # | Product | [IBX |] Service Serial #" whose serial numbers are the circuits.
 */
function parseEquinix(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const subject = email.subject.replace(/\r?\n/g, '').trim();
  const $ = loadHtml(email.html);
  const lines = htmlLines($);
  const maintenanceId =
    /\[([^[\]]+)\]\s*$/.exec(subject)?.[1] ?? lines.map((line) => /Please reference ([\w.-]+?)\.?\s*$/.exec(line)?.[1]).find(Boolean);
  if (!maintenanceId)
    throw new MailParseError('unsupported_format', 'equinix: no [id] at the end of the subject nor "Please reference" line');
  const [start, end] = window(lines);
  const impact = equinixImpact(lines, notes);
  const { account, circuits } = serials($, impact);
  notes.reason(
    `id ${maintenanceId} from the subject, UTC window with the SPAN years, ${circuits.length} service serial(s) with impact ${impact}`,
  );
  return [
    {
      provider: 'equinix',
      account,
      maintenanceId,
      status: equinixStatus(subject),
      circuits,
      start,
      end,
      stamp: stampOf(email.date, 'equinix'),
      sequence: 1,
      summary: subject,
    },
  ];
}

/** The English "UTC:" line, its days completed with the years of the "SPAN:" line. */
function window(lines: readonly string[]): [number, number] {
  const span = lines.map((line) => /^SPAN:\s*\d{1,2}-[A-Z]{3}-(\d{4})\s*-\s*\d{1,2}-[A-Z]{3}-(\d{4})/i.exec(line)).find(Boolean);
  if (!span) throw new MailParseError('unsupported_format', 'equinix: no "SPAN:" line');
  for (const line of lines) {
    // A local-language copy of the line comes first in bilingual notices: the English one is ASCII.
    const match = /^UTC:\s*(?:[A-Z]+,\s*)?(\d{1,2} [A-Z]{3} \d{1,2}:\d{2})\s*-\s*(?:[A-Z]+,\s*)?(\d{1,2} [A-Z]{3} \d{1,2}:\d{2})/i.exec(
      line,
    );
    if (!match) continue;
    const at = (dayTime: string, year: string) => {
      const [day, month, time] = dayTime.split(' ');
      return dateTime(`${day} ${month[0]}${month.slice(1).toLowerCase()} ${year} ${time}`, 'equinix', { zone: 'UTC' });
    };
    return [at(match[1], span[1]), at(match[2], span[2])];
  }
  throw new MailParseError('unsupported_format', 'equinix: no "UTC:" window line in English');
}

function equinixImpact(lines: readonly string[], notes: ParseNotes): ParsedImpact {
  const index = lines.findIndex((line) => /^IMPACT:/.test(line));
  const text = index < 0 ? '' : `${lines[index]} ${lines[index + 1] ?? ''}`;
  if (text.includes('No impact to your service')) return 'NO-IMPACT';
  if (text.includes('There will be service interruptions')) return 'OUTAGE';
  if (text.includes('Loss of redundancy') || text.includes('Traffic will be re-routed')) return 'REDUCED-REDUNDANCY';
  notes.uncertain(index < 0 ? 'no "IMPACT:" line: circuits read as OUTAGE' : `impact "${lines[index]}" read as OUTAGE`);
  return 'OUTAGE';
}

/** Every product table's rows: the Service Serial # is the circuit, the Account # the account (the last row's). */
function serials($: ReturnType<typeof loadHtml>, impact: ParsedImpact): { account: string; circuits: ParsedMaintenance['circuits'] } {
  const result = { account: '', circuits: [] as ParsedMaintenance['circuits'] };
  for (const rows of htmlTables($)) {
    const header = rows.findIndex((cells) => cells.some((cell) => labelKey(cell) === 'account'));
    if (header < 0) continue;
    const headings = rows[header].map(labelKey);
    const accountColumn = headings.indexOf('account');
    const serialColumn = headings.indexOf('service serial');
    if (serialColumn < 0) continue;
    for (const cells of rows.slice(header + 1)) {
      if (cells.length !== headings.length || !cells[serialColumn]) continue;
      result.account = cells[accountColumn];
      result.circuits.push({ circuitId: cells[serialColumn], impact });
    }
  }
  return result;
}

function equinixStatus(subject: string): ParsedStatus {
  const lower = subject.toLowerCase();
  if (lower.includes('completed')) return 'COMPLETED';
  if (lower.includes('rescheduled')) return 'RE-SCHEDULED';
  if (lower.includes('scheduled') || lower.includes('reminder')) return 'CONFIRMED';
  if (lower.includes('cancelled')) return 'CANCELLED';
  return 'CONFIRMED';
}

export const equinixParser: CarrierParser = {
  name: 'equinix',
  label: 'Equinix',
  senderDomains: ['equinix.com'],
  reads: ['html', 'subject'],
  parse: parseEquinix,
};
