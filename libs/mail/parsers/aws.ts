import { createHash } from 'node:crypto';
import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlText } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * AWS Direct Connect maintenance notifications: plain text. One sentence holds the window ("…
 * from Thu, 20 May 2021 08:00:00 GMT to Thu, 20 May 2021 14:00:00 GMT …") and says whether the work
 * is scheduled or "has been cancelled"; it is the summary. The affected connections follow, one per
 * line (dxcon-…, dxvif-…, dxlag-…). The subject carries "[AWS Account: 123…]" (or "AWS Account
 * ID:"). AWS gives no maintenance id: it is the SHA-256 of the start, end and circuit ids, as
 * circuit-maintenance-parser derives it, so both name a notice alike.
 */
const WHEN = String.raw`[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2,9} \d{4} \d{2}:\d{2}:\d{2} [A-Z]{2,4}`;
const WINDOW = new RegExp(`(${WHEN}) to (${WHEN})`);
const CONNECTION = /^[a-z]{5}-[a-z0-9]{8}$/;

function parseAws(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const text = email.text || htmlText(htmlBody(email));
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  // A paragraph hard-wrapped by a relay reads as the one line AWS wrote.
  const paragraphs = text.split(/\r?\n\s*\r?\n/).map((paragraph) => paragraph.replace(/\s*\r?\n\s*/g, ' ').trim());
  const sentence = paragraphs.find(
    (paragraph) => /planned maintenance|maintenance has been scheduled/i.test(paragraph) && WINDOW.test(paragraph),
  );
  if (!sentence) throw new MailParseError('unsupported_format', 'aws: no maintenance sentence with a "… to …" window in the text');
  const [, from, to] = WINDOW.exec(sentence) as RegExpExecArray;
  const start = dateTime(from, 'aws');
  const end = dateTime(to, 'aws');
  const circuits = [...new Set(lines.filter((line) => CONNECTION.test(line)))];
  const account = /\[AWS Account ?(?:ID)?:\s*(\d+)\]/i.exec(email.subject.replace(/\s+/g, ' '))?.[1];
  if (!account) notes.uncertain('aws: no "[AWS Account: …]" in the subject: the account is unknown');
  const cancelled = /has been cancell?ed/i.test(sentence);
  notes.reason(
    `window from the sentence "${sentence.slice(0, 60)}…"; ${circuits.length} connection(s); id = SHA-256(start, end, connections)`,
  );
  return [
    {
      provider: 'aws',
      account: account ?? '',
      maintenanceId: createHash('sha256')
        .update(`${start}${end}${circuits.join('')}`)
        .digest('hex'),
      status: cancelled ? 'CANCELLED' : 'CONFIRMED',
      circuits: circuits.map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const })),
      start,
      end,
      stamp: stampOf(email.date, 'aws'),
      sequence: 1,
      summary: sentence,
    },
  ];
}

export const awsParser: CarrierParser = {
  name: 'aws',
  label: 'AWS Direct Connect',
  senderDomains: ['amazon.com'],
  reads: ['text', 'subject'],
  parse: parseAws,
};
