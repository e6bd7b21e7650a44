/**
 * Which parser reads an email, chosen from its sender: the first map entry (in order) whose key is a
 * substring of the lowercased sender address wins, as upstream does. PROVIDER_MAP replaces the default.
 */
export type ProviderMap = ReadonlyArray<readonly [senderDomain: string, parserName: string]>;

/** The reference's default map, plus the BCOP senders whose notices are iCalendar. */
export const DEFAULT_PROVIDER_MAP: ProviderMap = [
  ['zayo.com', 'zayo'],
  ['colt.net', 'colt'],
  ['verizonbusiness.com', 'verizon'],
  ['cogentco.com', 'cogent'],
  ['aquacomms.com', 'aquacomms'],
  ['arelion.com', 'arelion'],
  ['amazon.com', 'aws'],
  ['bso.co', 'bso'],
  ['equinix.com', 'equinix'],
  ['lumen.com', 'lumen'],
  ['momentumtelecom.com', 'momentum'],
  ['superonline.net', 'seaborn'],
  ['tisparkle.com', 'sparkle'],
  ['telstra.com', 'telstra'],
];

export class ProviderMapError extends Error {
  override name = 'ProviderMapError';
}

/** Reads PROVIDER_MAP: a JSON object of sender domain → parser name, every value a non-empty string. */
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
  }
  return entries.map(([domain, parser]) => [domain.toLowerCase(), parser as string] as const);
}

export function parserNameFor(sender: string, map: ProviderMap): string | null {
  const lowered = sender.toLowerCase();
  return map.find(([domain]) => lowered.includes(domain))?.[1] ?? null;
}
