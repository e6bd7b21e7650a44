import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance, type ParsedStatus } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { loadHtml } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * Momentum Telecom: the subject "Momentum Data Services | Planned Network Maintenance , | <customer>
 * |  | 11111111 | [ ref:…:ref ]" — its fifth field the case number (the id). The HTML paragraphs hold
 * "Label: value" lines: "Maintenance start date/time: 2021-08-14 09:30 AM UTC", "Maintenance finish
 * date/time", "Reason for Maintenance" (the summary), "Account", "Circuit ID(s) impacted" (comma
 * separated). Lines are taken as the notice breaks them (`<br>` or a line end), so stray markup
 * the notices leave after a value stays out of it.
 */
function parseMomentum(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const subject = email.subject.replace(/\s+/g, ' ');
  const parts = subject.split('|').map((part) => part.trim());
  const maintenanceId = parts.length === 6 ? parts[4] : [...parts].reverse().find((part) => /^\d{5,}$/.test(part));
  if (!maintenanceId) throw new MailParseError('unsupported_format', 'momentum: no case number in the subject');

  const $ = loadHtml(htmlBody(email));
  $('br').replaceWith('\n');
  const fields = new Map<string, string>();
  for (const paragraph of $('p').toArray()) {
    for (const line of $(paragraph)
      .text()
      .replace(/[^\x20-\x7e\n\t]/g, '')
      .split(/\r?\n/)) {
      const match = /^\s*([^:]+?)\s*:+\s*(.*?)\s*$/.exec(line);
      if (!match || !match[2]) continue;
      const key = match[1].toLowerCase().replace(/\s+/g, ' ');
      if (!fields.has(key)) fields.set(key, match[2]);
    }
  }
  const field = (label: string) => {
    const value = fields.get(label);
    if (!value) throw new MailParseError('unsupported_format', `momentum: no "${label}:" line`);
    return value;
  };
  const circuits = (fields.get('circuit id(s) impacted') ?? fields.get('circuit id') ?? '').split(/\s*,\s*/).filter(Boolean);
  if (!circuits.length) notes.uncertain('momentum: no "Circuit ID(s) impacted:" line');
  notes.reason(`case ${maintenanceId} from the subject; window, account, circuits and reason from the HTML lines`);
  return [
    {
      provider: 'momentum',
      account: fields.get('account') ?? '',
      maintenanceId,
      status: momentumStatus(subject),
      circuits: circuits.map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const })),
      start: dateTime(field('maintenance start date/time'), 'momentum'),
      end: dateTime(field('maintenance finish date/time'), 'momentum'),
      stamp: stampOf(email.date, 'momentum'),
      sequence: 1,
      summary: fields.get('reason for maintenance') ?? '',
    },
  ];
}

function momentumStatus(subject: string): ParsedStatus {
  if (/cancel/i.test(subject)) return 'CANCELLED';
  if (/complet/i.test(subject)) return 'COMPLETED';
  return 'CONFIRMED';
}

export const momentumParser: CarrierParser = {
  name: 'momentum',
  label: 'Momentum Telecom',
  senderDomains: ['momentumtelecom.com'],
  reads: ['subject', 'html'],
  parse: parseMomentum,
};
