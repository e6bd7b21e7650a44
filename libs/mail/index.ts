/**
 * Provider maintenance emails → BCOP maintenance records, shared by the mail worker and the
 * platform's inbound-email endpoint. Entry: parseMaintenanceEmail(raw, providerMap).
 */
import { getDomain } from 'tldts';
import { parseRawEmail } from './mime';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from './parsed-maintenance';
import { parseBcopCalendars } from './parsers/bcop-ical';
import { parseCogent } from './parsers/cogent';
import { parseColt } from './parsers/colt';
import { parseEquinix } from './parsers/equinix';
import { parseLumen } from './parsers/lumen';
import { parseVerizon } from './parsers/verizon';
import { parseZayo } from './parsers/zayo';
import { DEFAULT_PROVIDER_MAP, domainMatches, providerEntryFor, senderDomain, type ProviderMap } from './provider-map';

export * from './parsed-maintenance';
export { parseRawEmail } from './mime';
export {
  DEFAULT_PROVIDER_MAP,
  parseProviderMap,
  parserNameFor,
  ProviderMapError,
  senderDomain,
  domainMatches,
  type ProviderMap,
} from './provider-map';

type Parser = (email: ParsedEmail) => ParsedMaintenance[];

/** Carrier formats of this build; a name of the map with no entry here reads only BCOP iCalendar. */
const CARRIER_PARSERS: Record<string, Parser> = {
  zayo: parseZayo,
  colt: parseColt,
  cogent: parseCogent,
  lumen: parseLumen,
  verizon: parseVerizon,
  equinix: parseEquinix,
};

export const PARSER_NAMES = Object.keys(CARRIER_PARSERS);

export interface MaintenanceEmail {
  email: ParsedEmail;
  parser: string;
  maintenances: ParsedMaintenance[];
}

/**
 * Reads one raw email: MIME-decodes it, picks the parser from the sender, and returns what it says.
 * A BCOP calendar part wins over the carrier's own format (it is the precise one), but it speaks
 * only for the sender's provider: a calendar naming another one is refused (provider_mismatch).
 * A sender the map does not know is read as BCOP (parser `bcop`) when its email has a calendar, and
 * that calendar may name only the sender's own domain (see unmappedSenderProvider).
 * Throws MailParseError with the reason when no records can come of it.
 */
export async function parseMaintenanceEmail(raw: Buffer | string, map: ProviderMap = DEFAULT_PROVIDER_MAP): Promise<MaintenanceEmail> {
  const email = await parseRawEmail(raw);
  const hasBcop = email.calendars.some((calendar) => /X-MAINTNOTE-MAINTENANCE-ID/i.test(calendar));
  const entry = providerEntryFor(email.from, map);
  if (!entry && hasBcop) return unmappedBcop(email, map);
  const parser = entry?.[1];
  if (!entry || !parser) throw new MailParseError('unknown_provider', `no parser for sender "${email.from}" in the provider map`);
  // Own keys only: a name such as `__proto__` (a caller's `?parser=`) must not reach Object.prototype.
  const carrier: Parser | undefined = Object.hasOwn(CARRIER_PARSERS, parser) ? CARRIER_PARSERS[parser] : undefined;
  if (!hasBcop && !carrier) {
    throw new MailParseError('unsupported_format', `${parser}: no BCOP iCalendar part, and this build has no ${parser} text/HTML parser`);
  }
  const maintenances = hasBcop || !carrier ? parseBcopCalendars(email, parser) : carrier(email);
  const foreign = maintenances.find((maintenance) => !namesSenderProvider(maintenance.provider, entry));
  if (foreign) {
    throw new MailParseError(
      'provider_mismatch',
      `${parser}: the calendar names provider "${foreign.provider}", but the sender "${email.from}" is ${parser}'s`,
    );
  }
  if (!maintenances.length) throw new MailParseError('no_maintenance_data', `${parser}: the email holds no maintenance`);
  return { email, parser, maintenances };
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
function unmappedBcop(email: ParsedEmail, map: ProviderMap): MaintenanceEmail {
  const maintenances = parseBcopCalendars(email, 'bcop');
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
