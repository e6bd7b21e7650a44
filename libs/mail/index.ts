/**
 * Provider maintenance emails → BCOP maintenance records, shared by the mail worker and the
 * platform's inbound-email endpoint. Entry: parseMaintenanceEmail(raw, providerMap).
 */
import { getDomain } from 'tldts';
import { parseNotes, type CarrierParser, type ParseNotes, type ParseReport } from './carrier-parser';
import { parseRawEmail } from './mime';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from './parsed-maintenance';
import { bcopParser, hasBcopCalendar, parseBcopCalendars } from './parsers/bcop-ical';
import { CARRIER_PARSERS, carrierParserNamed } from './parsers';
import { DEFAULT_PROVIDER_MAP, domainMatches, providerEntryFor, senderDomain, type ProviderMap } from './provider-map';

export * from './parsed-maintenance';
export * from './carrier-parser';
export { parseRawEmail } from './mime';
export { CARRIER_PARSERS, carrierParserNamed, carrierParserForDomain } from './parsers';
export { bcopParser } from './parsers/bcop-ical';
export {
  DEFAULT_PROVIDER_MAP,
  parseProviderMap,
  parserNameFor,
  ProviderMapError,
  senderDomain,
  domainMatches,
  type ProviderMap,
} from './provider-map';

export interface MaintenanceEmail extends ParseReport {
  email: ParsedEmail;
  parser: string;
  maintenances: ParsedMaintenance[];
}

/**
 * Reads one raw email: MIME-decodes it, picks the parser from the sender, and returns what it says
 * with the parser's reasons and the confidence they give (carrier-parser.ts).
 * A carrier whose parser reads calendars reads the email itself; for the others a BCOP calendar part
 * wins over the carrier's own format (it is the precise one). A BCOP calendar speaks only for the
 * sender's provider: a calendar naming another one is refused (provider_mismatch).
 * A sender the map does not know is read as BCOP (parser `bcop`) when its email has a calendar, and
 * that calendar may name only the sender's own domain (see unmappedBcop).
 * Throws MailParseError with the reason when no records can come of it.
 */
export async function parseMaintenanceEmail(raw: Buffer | string, map: ProviderMap = DEFAULT_PROVIDER_MAP): Promise<MaintenanceEmail> {
  return readMaintenanceEmail(await parseRawEmail(raw), map);
}

/** parseMaintenanceEmail of an email already MIME-decoded. */
export async function readMaintenanceEmail(email: ParsedEmail, map: ProviderMap = DEFAULT_PROVIDER_MAP): Promise<MaintenanceEmail> {
  const { notes, report } = parseNotes();
  const hasBcop = hasBcopCalendar(email);
  const entry = providerEntryFor(email.from, map);
  if (!entry && hasBcop) return { ...unmappedBcop(email, map, notes), ...report() };
  const parser = entry?.[1];
  if (!entry || !parser) throw new MailParseError('unknown_provider', `no parser for sender "${email.from}" in the provider map`);
  const carrier: CarrierParser | undefined = carrierParserNamed(parser);
  if (!hasBcop && !carrier) {
    throw new MailParseError('unsupported_format', `${parser}: no BCOP iCalendar part, and this build has no ${parser} text/HTML parser`);
  }
  const useCarrier = carrier && (!hasBcop || carrier.reads.includes('calendar'));
  if (useCarrier)
    notes.reason(`sender domain ${senderDomain(email.from)} → ${carrier.name} (provider map entry "${entry[0] || '(named)'}")`);
  const maintenances = useCarrier ? await carrier.parse(email, notes) : parseBcopCalendars(email, parser, notes);
  const foreign = maintenances.find((maintenance) => !namesSenderProvider(maintenance.provider, entry));
  if (foreign) {
    throw new MailParseError(
      'provider_mismatch',
      `${parser}: the calendar names provider "${foreign.provider}", but the sender "${email.from}" is ${parser}'s`,
    );
  }
  if (!maintenances.length) throw new MailParseError('no_maintenance_data', `${parser}: the email holds no maintenance`);
  return { email, parser, maintenances, ...report() };
}

/** A parsed provider speaks for the sender's map entry: its parser name, or (BCOP's domain form) the entry's domain or a subdomain of it. */
function namesSenderProvider(provider: string, [key, parser]: readonly [string, string]): boolean {
  const named = provider.trim().toLowerCase();
  return named === parser.toLowerCase() || (key !== '' && domainMatches(named, key));
}

/**
 * A BCOP email from a sender no map entry matches. Its calendar can only name the sender's own
 * domain (BCOP's domain form of X-MAINTNOTE-PROVIDER): the sender's domain or a parent of it down
 * to its registrable domain (`noc.carrier.example` may name `noc.carrier.example` or
 * `carrier.example`, never `example` nor another carrier), and never a provider the map gives to
 * other senders (a parser name or a mapped domain). Sender authentication (the worker's
 * MAIL_REQUIRE_AUTH) proves the From domain, so no sender speaks for a provider it is not.
 */
function unmappedBcop(email: ParsedEmail, map: ProviderMap, notes: ParseNotes): Omit<MaintenanceEmail, keyof ParseReport> {
  notes.reason(`sender domain ${senderDomain(email.from)} is in no provider map entry: read as BCOP`);
  const maintenances = parseBcopCalendars(email, 'bcop', notes);
  const domain = senderDomain(email.from);
  const registrable = getDomain(domain, { allowPrivateDomains: true }) ?? '';
  const ownDomain = (named: string) => registrable !== '' && domainMatches(named, registrable) && domainMatches(domain, named);
  const mapped = (named: string) =>
    map.some(([key, parser]) => named === parser.toLowerCase() || (key !== '' && domainMatches(named, key)));
  const foreign = maintenances.find((maintenance) => {
    const named = maintenance.provider.trim().toLowerCase();
    return !ownDomain(named) || mapped(named);
  });
  if (foreign) {
    throw new MailParseError(
      'provider_mismatch',
      `bcop: the calendar names provider "${foreign.provider}", but the sender "${email.from}" is in no PROVIDER_MAP entry, so it may name only its own domain ("${registrable || domain}")`,
    );
  }
  return { email, parser: 'bcop', maintenances };
}

/** The registered parser that reads an email its sender's parser did not: a hint stored with the unparsed email. */
export interface ClosestParser extends ParseReport {
  parser: string;
  records: number;
  detail: string;
}

/**
 * For an email that gave no records: the first registered parser (carriers, then BCOP) that reads it,
 * other than `tried`, with its confidence and notes — "the pccw parser reads it", so the operator maps
 * the sender and re-parses. Null when none does. Parsers throw on emails not in their format; any
 * error is that parser's "no".
 */
export async function closestParser(email: ParsedEmail, tried?: string): Promise<ClosestParser | null> {
  for (const parser of [...CARRIER_PARSERS, bcopParser]) {
    if (parser.name === tried) continue;
    const { notes, report } = parseNotes();
    try {
      const records = await parser.parse(email, notes);
      if (!records.length) continue;
      const read = report();
      return {
        parser: parser.name,
        records: records.length,
        detail: `the ${parser.name} parser reads it: ${records.length} maintenance record(s), confidence ${read.confidence}`,
        ...read,
      };
    } catch {
      // Not this parser's format.
    }
  }
  return null;
}
