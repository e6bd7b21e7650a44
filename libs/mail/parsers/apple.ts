import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { dateTime } from './support/dates';
import { htmlText } from './support/html';
import { htmlBody } from './support/quoted-printable';

/**
 * Apple (AS714) peering notices: plain text. "Reference Internal Ticket: CHG…", "Start Time:" and
 * "End Time:" (RFC 2822 for US sites, "2023-05-02(Tue) 14:00 UTC" for EU sites, or "2 May 2023
 * 14:00 UTC"), "Peer AS: 12345" — the peering session, recorded as circuit "AS12345". The subject is
 * the summary. The notices carry no account and no issue time: the account is the fixed
 * "Customer info unavailable" and the stamp is the window's start, as circuit-maintenance-parser
 * records them.
 */
function parseApple(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const text = email.text || htmlText(htmlBody(email));
  const ticket = /\bCHG\d+/.exec(text);
  if (!ticket) throw new MailParseError('unsupported_format', 'apple: no "CHG…" ticket in the text');
  const peers = [...text.matchAll(/Peer AS:\s*(?:AS)?(\d+)/gi)].map((match) => `AS${match[1]}`);
  if (!peers.length) throw new MailParseError('unsupported_format', 'apple: no "Peer AS:" line in the text');
  const start = appleTime(text, 'Start Time');
  const end = appleTime(text, 'End Time');
  const cancelled = /\bcancel+ed\b/i.test(`${email.subject}\n${text}`);
  notes.reason(`ticket ${ticket[0]}, peer ${[...new Set(peers)].join(', ')} from the text; the window from "Start Time"/"End Time"`);
  notes.reason('the notice states no issue time: the stamp is the window start');
  return [
    {
      provider: 'apple',
      account: 'Customer info unavailable',
      maintenanceId: ticket[0],
      status: cancelled ? 'CANCELLED' : 'CONFIRMED',
      circuits: [...new Set(peers)].map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const })),
      start,
      end,
      stamp: start,
      sequence: 1,
      summary: email.subject.trim(),
    },
  ];
}

function appleTime(text: string, label: string): number {
  const match = new RegExp(`${label}:\\s*([^\\n]+)`, 'i').exec(text);
  if (!match) throw new MailParseError('unsupported_format', `apple: no "${label}:" line in the text`);
  // The EU form puts the weekday in parentheses after the date: "2023-05-02(Tue) 14:00 UTC".
  return dateTime(match[1].replace(/\(\s*[A-Za-z]{3}\s*\)/, ' '), 'apple');
}

export const appleParser: CarrierParser = {
  name: 'apple',
  label: 'Apple',
  senderDomains: ['group.apple.com'],
  reads: ['text', 'subject'],
  parse: parseApple,
};
