import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { dateTime, stampOf } from './support/dates';
import { htmlText } from './support/html';

/**
 * Netflix Open Connect (AS2906): plain-text notices to each peer — "<Peer> (AS<n>)," on the first
 * line, "… will be performing scheduled maintenance in <site>, at <yyyy-mm-dd hh:mm:ss>+00:00 UTC.",
 * the downtime ("approximately 60 minutes" / "2 hours"), and the peer's session addresses under
 * "Your IPs:". Netflix sends no ticket: the id is the SHA-256 of the address lines as written, the
 * start and the end (circuit-maintenance-parser's derivation, so both give one maintenance the same id).
 */
export const netflixParser: CarrierParser = {
  name: 'netflix',
  label: 'Netflix',
  senderDomains: ['netflix.com'],
  reads: ['text', 'html'],
  parse: parseNetflix,
};

function parseNetflix(email: ParsedEmail, notes: ParseNotes): ParsedMaintenance[] {
  const text = email.text || htmlText(email.html);
  const lines = text.split(/\r?\n/);
  const announcement = lines.find((line) => line.includes(' maintenance in '));
  const at = announcement && /(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\+00:00 UTC/.exec(announcement);
  if (!announcement || !at)
    throw new MailParseError('unsupported_format', 'netflix: no "will be performing … maintenance in …, at <time> UTC" line');
  const start = dateTime(at[1], 'netflix', { formats: ['yyyy-MM-dd HH:mm:ss'] });
  const end = start + downtimeSeconds(text, notes);
  const addressLines = sessionAddressLines(lines);
  if (!addressLines.length) throw new MailParseError('no_maintenance_data', 'netflix: no session addresses under "Your IPs:"');
  notes.reason(`Netflix text notice: ${addressLines.length} session address(es), window from the announcement line and the downtime`);
  const maintenanceId = createHash('sha256')
    .update(`${addressLines.map((line) => `${line}/`).join('')}${start}/${end}`)
    .digest('hex');
  return [
    {
      provider: 'netflix',
      account: /\((AS\d+)\),\s*$/m.exec(text)?.[1] ?? '',
      maintenanceId,
      status: 'CONFIRMED',
      circuits: addressLines.map((line) => ({ circuitId: line.trim(), impact: 'OUTAGE' })),
      start,
      end,
      stamp: stampOf(email.date, 'netflix'),
      sequence: 1,
      summary: announcement.trimStart(),
    },
  ];
}

/** The expected downtime: "… downtime will be approximately 60 minutes" / "2 hours" / "1 hour 30 minutes". */
function downtimeSeconds(text: string, notes: ParseNotes): number {
  const sentence = /downtime[^.]*/i.exec(text)?.[0] ?? '';
  const hours = /(\d+)\s*hours?\b/i.exec(sentence);
  const minutes = /(\d+)\s*minutes?\b/i.exec(sentence);
  if (!hours && !minutes) {
    notes.uncertain('netflix: no expected downtime in the notice; the window is read as ending when it starts');
    return 0;
  }
  return +(hours?.[1] ?? 0) * 3600 + +(minutes?.[1] ?? 0) * 60;
}

/** The lines under "Your IPs:" that are IP addresses, as written (indentation kept: it is part of the id). */
function sessionAddressLines(lines: readonly string[]): string[] {
  const heading = lines.findIndex((line) => /^\s*Your IPs:\s*$/i.test(line));
  if (heading < 0) return [];
  const addresses: string[] = [];
  for (const line of lines.slice(heading + 1)) {
    if (!line.trim()) {
      if (addresses.length) break;
      continue;
    }
    if (!isIP(line.trim())) break;
    addresses.push(line);
  }
  return addresses;
}
