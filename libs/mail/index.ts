/**
 * Provider maintenance emails → BCOP maintenance records, shared by the mail worker and the
 * platform's inbound-email endpoint. Entry: parseMaintenanceEmail(raw, providerMap).
 */
import { parseRawEmail } from './mime';
import { MailParseError, type ParsedEmail, type ParsedMaintenance } from './parsed-maintenance';
import { parseBcopCalendars } from './parsers/bcop-ical';
import { parseCogent } from './parsers/cogent';
import { parseColt } from './parsers/colt';
import { parseEquinix } from './parsers/equinix';
import { parseLumen } from './parsers/lumen';
import { parseVerizon } from './parsers/verizon';
import { parseZayo } from './parsers/zayo';
import { DEFAULT_PROVIDER_MAP, parserNameFor, type ProviderMap } from './provider-map';

export * from './parsed-maintenance';
export { parseRawEmail } from './mime';
export { DEFAULT_PROVIDER_MAP, parseProviderMap, parserNameFor, ProviderMapError, type ProviderMap } from './provider-map';

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
 * A BCOP calendar part wins over the carrier's own format (it is the precise one). Throws
 * MailParseError with the reason when no records can come of it.
 */
export async function parseMaintenanceEmail(raw: Buffer | string, map: ProviderMap = DEFAULT_PROVIDER_MAP): Promise<MaintenanceEmail> {
  const email = await parseRawEmail(raw);
  const parser = parserNameFor(email.from, map);
  if (!parser) throw new MailParseError('unknown_provider', `no parser for sender "${email.from}" in the provider map`);
  const hasBcop = email.calendars.some((calendar) => /X-MAINTNOTE-MAINTENANCE-ID/i.test(calendar));
  // Own keys only: a name such as `__proto__` (a caller's `?parser=`) must not reach Object.prototype.
  const carrier: Parser | undefined = Object.hasOwn(CARRIER_PARSERS, parser) ? CARRIER_PARSERS[parser] : undefined;
  if (!hasBcop && !carrier) {
    throw new MailParseError('unsupported_format', `${parser}: no BCOP iCalendar part, and this build has no ${parser} text/HTML parser`);
  }
  const maintenances = hasBcop || !carrier ? parseBcopCalendars(email, parser) : carrier(email);
  if (!maintenances.length) throw new MailParseError('no_maintenance_data', `${parser}: the email holds no maintenance`);
  return { email, parser, maintenances };
}
