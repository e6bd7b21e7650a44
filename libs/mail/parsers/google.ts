import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlText, squash } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * Google peering (AS15169) notices, HTML with a text alternative: the heading "Google Network
 * Maintenance Notification - Reference PCR/123456" (the id after "Reference"; the heading without
 * "Google" is the summary), "Start Time:" / "End Time:" ("2023-12-05 20:55:00 +0000 UTC"), "Peer
 * ASN:" (the account), and pairs of "Google Neighbor Address(es):" / "Peer Neighbor Address(es):",
 * each pair one BGP session, recorded as circuit "<google address>-<peer address>".
 */
function parseGoogle(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const html = htmlBody(email);
  const body = html ? htmlText(html) : email.text;
  const flat = squash(body);
  const heading = body
    .split('\n')
    .map(squash)
    .find((line) => / - Reference \S+/.test(line));
  if (!heading) throw new MailParseError('unsupported_format', 'google: no "… Maintenance Notification - Reference …" heading');
  const maintenanceId = / - Reference (\S+)/.exec(heading)?.[1] as string;
  const time = (label: string) => {
    const match = new RegExp(`${label}:\\s*(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}(?::\\d{2})?(?: [+-]\\d{4})?)`).exec(flat);
    if (!match) throw new MailParseError('unsupported_format', `google: no "${label}:"`);
    return dateTime(match[1], 'google');
  };
  const account = /Peer ASN:\s*(\d+)/.exec(flat)?.[1] ?? '';
  const circuits = [...flat.matchAll(/Google Neighbor Address\(es\):\s*(\S+)\s+Peer Neighbor Address\(es\):\s*(\S+)/g)].map((match) => ({
    circuitId: `${match[1]}-${match[2]}`,
    impact: 'OUTAGE' as const,
  }));
  const cancelled = /cancel/i.test(email.subject);
  notes.reason(`reference ${maintenanceId}, window, peer ASN and ${circuits.length} session(s) from the body`);
  return [
    {
      provider: 'google',
      account,
      maintenanceId,
      status: cancelled ? 'CANCELLED' : 'CONFIRMED',
      circuits,
      start: time('Start Time'),
      end: time('End Time'),
      stamp: stampOf(email.date, 'google'),
      sequence: 1,
      summary: heading.replace(/^Google\s+/, ''),
    },
  ];
}

export const googleParser: CarrierParser = {
  name: 'google',
  label: 'Google',
  senderDomains: ['google.com'],
  reads: ['html', 'text', 'subject'],
  parse: parseGoogle,
};
