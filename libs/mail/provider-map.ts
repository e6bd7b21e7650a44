import { CARRIER_PARSERS } from './parsers';

/**
 * Which parser reads an email, chosen from its sender's domain: the first map entry (in order)
 * whose key is that domain or a parent of it (`noc.zayo.com` matches `zayo.com`;
 * `zayo.com.attacker.example` and `notzayo.com` do not). PROVIDER_MAP replaces the default.
 */
export type ProviderMap = ReadonlyArray<readonly [senderDomain: string, parserName: string]>;

/**
 * Senders whose notices are BCOP calendars and that have no carrier format of their own in this build
 * (read by the generic BCOP parser under that name).
 */
const BCOP_SENDERS: ProviderMap = [
  ['aquacomms.com', 'aquacomms'],
  ['amazon.com', 'aws'],
  ['bso.co', 'bso'],
  ['momentumtelecom.com', 'momentum'],
  ['superonline.net', 'seaborn'],
  ['tisparkle.com', 'sparkle'],
  ['telstra.com', 'telstra'],
];

/**
 * The default map: every registered carrier's sender domains (parsers/index.ts), then the BCOP-only
 * senders no carrier claims; longer domains first, so a carrier's subdomain entry wins over a parent.
 */
export const DEFAULT_PROVIDER_MAP: ProviderMap = (() => {
  const entries: Array<readonly [string, string]> = CARRIER_PARSERS.flatMap((parser) =>
    parser.senderDomains.map((domain) => [domain, parser.name] as const),
  );
  const named = new Set(CARRIER_PARSERS.map((parser) => parser.name));
  for (const entry of BCOP_SENDERS) if (!named.has(entry[1]) && !entries.some(([key]) => key === entry[0])) entries.push(entry);
  return entries.sort(([a], [b]) => b.length - a.length || a.localeCompare(b));
})();

export class ProviderMapError extends Error {
  override name = 'ProviderMapError';
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Reads PROVIDER_MAP: a JSON object of sender domain → parser name, every key a domain name, every value a non-empty string. */
export function parseProviderMap(json: string): ProviderMap {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new ProviderMapError(`PROVIDER_MAP is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProviderMapError('PROVIDER_MAP must be a JSON object mapping sender domain to parser name');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [domain, parser] of entries) {
    if (!domain.trim() || typeof parser !== 'string' || !parser.trim()) {
      throw new ProviderMapError(`PROVIDER_MAP entry "${domain}" must map a non-empty domain to a parser name string`);
    }
    if (!DOMAIN.test(domain.trim().toLowerCase())) {
      throw new ProviderMapError(
        `PROVIDER_MAP key "${domain}" must be a domain name (such as "zayo.com"), matched against the sender's domain`,
      );
    }
  }
  return entries.map(([domain, parser]) => [domain.trim().toLowerCase(), (parser as string).trim()] as const);
}

/** The domain of an address (after its last `@`), lowercased, without a trailing dot; '' when there is none. */
export function senderDomain(sender: string): string {
  const at = sender.lastIndexOf('@');
  return at < 0
    ? ''
    : sender
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, '');
}

/** Whether `domain` is `key` or one of its subdomains. */
export function domainMatches(domain: string, key: string): boolean {
  return domain === key || domain.endsWith(`.${key}`);
}

/**
 * The map entry for a sender. An empty key (built only in code, for a parser the caller names
 * explicitly) matches every sender.
 */
export function providerEntryFor(sender: string, map: ProviderMap): readonly [string, string] | null {
  const domain = senderDomain(sender);
  return map.find(([key]) => key === '' || (domain !== '' && domainMatches(domain, key))) ?? null;
}

export function parserNameFor(sender: string, map: ProviderMap): string | null {
  return providerEntryFor(sender, map)?.[1] ?? null;
}
