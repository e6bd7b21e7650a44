import type { CarrierParser, ParseNotes } from '../carrier-parser';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from '../parsed-maintenance';
import { xlsxAttachments } from './support/attachments';
import { dateTime, stampOf } from './support/dates';
import { htmlText, squash } from './support/html';
import { rowRecords, xlsxRows } from './support/tabular';
import { htmlBody } from './support/quoted-printable';

/**
 * AT&T "Summary of Planned Maintenance": the body names the event ("Event ID:", "Customer Impact
 * Description:", "Summary:", "Description:", "Business Risk:") and the window ("Start Time: March
 * 31, 2025 14:00 GMT, End Time: …", GMT when no zone is written); an XLSX attachment lists the
 * customer and its circuits under one of the business units' headings: "Customer | Circuit/Asset"
 * (local-exchange circuit ids, normalised: first word, leading zeros dropped, trailing zeros read
 * as "ATI"), "Customer Name | Circuit ID" or "Customer Names | Customer Circuit ID".
 */
async function parseAtt(email: ParsedEmail, notes: ParseNotes): Promise<ParsedMaintenance[]> {
  const html = htmlBody(email);
  const body = squash(html ? htmlText(html) : email.text);
  const event = /Event ID:\s*(\S+)\s+Customer Impact Description:\s*(.*?)\s+Summary:\s*(.*?)\s+Description:\s*(.*?)\s+Business Risk:/i.exec(
    body,
  );
  if (!event) throw new MailParseError('unsupported_format', 'att: no "Event ID: … Business Risk:" block in the body');
  const when = String.raw`[A-Za-z]+\.? \d{1,2},? \d{4},? \d{1,2}:\d{2}(?:\s*(?:GMT|UTC|[A-Z]{2,4}T)\b)?`;
  const window = new RegExp(String.raw`Start Time:\s*(${when}),?\s*End Time:\s*(${when})`).exec(body);
  if (!window) throw new MailParseError('unsupported_format', 'att: no "Start Time: …, End Time: …" in the body');
  const [, maintenanceId, impact, summary, description] = event;
  const { account, circuits } = await circuitSheet(email, notes);
  notes.reason(`event ${maintenanceId} and window from the body; customer and circuits from the XLSX attachment`);
  return [
    {
      provider: 'att',
      account,
      maintenanceId,
      status: 'CONFIRMED',
      circuits: circuits.map((circuitId) => ({ circuitId, impact: 'OUTAGE' as const })),
      start: dateTime(window[1], 'att', { zone: 'UTC' }),
      end: dateTime(window[2], 'att', { zone: 'UTC' }),
      stamp: stampOf(email.date, 'att'),
      sequence: 1,
      summary: `${summary}: ${impact} ${description}`,
    },
  ];
}

/** The headings of each business unit's sheet: customer column, circuit column, whether the ids are local-exchange ones. */
const SHEET_LAYOUTS = [
  { customer: 'Customer', circuit: 'Circuit/Asset', localExchange: true },
  { customer: 'Customer Name', circuit: 'Circuit ID', localExchange: false },
  { customer: 'Customer Names', circuit: 'Customer Circuit ID', localExchange: false },
] as const;

async function circuitSheet(email: ParsedEmail, notes: ParseNotes): Promise<{ account: string; circuits: string[] }> {
  for (const attachment of xlsxAttachments(email)) {
    for (const rows of await xlsxRows(attachment.content)) {
      for (const layout of SHEET_LAYOUTS) {
        const records = rowRecords(rows, [layout.customer, layout.circuit]);
        if (!records?.length) continue;
        const circuitKey = layout.circuit.toLowerCase();
        const circuits = records
          .map((record) => record.get(circuitKey) ?? '')
          .filter(Boolean)
          .map((id) => (layout.localExchange ? localExchangeCircuit(id) : id));
        return { account: records[0].get(layout.customer.toLowerCase()) ?? '', circuits };
      }
    }
  }
  notes.uncertain('att: no XLSX attachment with a customer and circuit sheet: no account, no circuits');
  return { account: '', circuits: [] };
}

/** "0012345600 XYZ" → "123456ATI": AT&T's local-exchange circuit ids as its other systems write them. */
function localExchangeCircuit(id: string): string {
  const [first] = id.trim().split(/\s+/);
  return first.replace(/^0+/, '').replace(/0+$/, 'ATI');
}

export const attParser: CarrierParser = {
  name: 'att',
  label: 'AT&T',
  senderDomains: ['att.com'],
  reads: ['html', 'text', 'xlsx'],
  parse: parseAtt,
};
