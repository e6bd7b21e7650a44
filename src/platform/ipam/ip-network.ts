/**
 * IP address and prefix validation for IPAM (NetBox's IPAddress.address and Prefix.prefix).
 *
 * Framework-free and dependency-free. The accepted syntax is a strict subset of what PostgreSQL's
 * `inet` / `cidr` input functions accept, so every value these parsers return can be stored without
 * a database error, and the returned `value` is exactly what PostgreSQL prints for it with `::text`
 * (prefix length always present; IPv6 compressed and lower-case, including PostgreSQL's quirk of
 * printing IPv4-compatible `::a.b.c.d` and IPv4-mapped `::ffff:a.b.c.d` tails in dotted form).
 *
 * Deliberately stricter than PostgreSQL:
 * - IPv4 octets with leading zeros (`010.0.0.1`) are rejected as ambiguous (PostgreSQL reads decimal,
 *   other tools read octal).
 * - Abbreviated / classful IPv4 forms (`10/8`, `10.1/16`, cidr hex `0x0a/8`) are rejected; all four
 *   octets are required. An embedded IPv4 tail in IPv6 must also have exactly four octets.
 * - Prefix lengths with leading zeros (`/024`) are rejected for both families (PostgreSQL rejects them
 *   for IPv6 only).
 * - Surrounding whitespace is trimmed (as DRF's CharField does) before parsing; PostgreSQL itself
 *   rejects it, but the normalised value never contains any.
 * IPv6 zone identifiers (`fe80::1%eth0`) are rejected, as PostgreSQL rejects them.
 */

export type IpFamily = 4 | 6;

export interface IpValue {
  /** Normalised text, identical to PostgreSQL's `::text` output for the stored value. */
  readonly value: string;
  readonly family: IpFamily;
}

export interface IpProblem {
  /** A DRF-style, user-facing validation message. */
  readonly problem: string;
}

export type IpParseResult = IpValue | IpProblem;

export interface ParseIpNetworkOptions {
  /** Reject a bare address instead of treating it as a /32 or /128 (NetBox form behaviour). */
  readonly requireMask?: boolean;
}

export const IP_MESSAGES = {
  required: 'This field is required.',
  null: 'This field may not be null.',
  notString: 'Not a valid string.',
  blank: 'This field may not be blank.',
  invalidInterface: 'Enter a valid IPv4 or IPv6 address with optional mask.',
  invalidNetwork: 'Enter a valid IPv4 or IPv6 prefix (e.g. 10.0.0.0/24 or 2001:db8::/32).',
  invalidAddress: 'Enter a valid IPv4 or IPv6 address.',
  maskNotAllowed: 'Enter a valid IPv4 or IPv6 address without a mask.',
  maskRequired: 'CIDR mask (e.g. /24) is required.',
  leadingZeroPrefix: 'Prefix length must not have leading zeros.',
  zoneId: 'IPv6 zone identifiers (such as %eth0) are not supported.',
  prefixRange4: 'Prefix length must be between 0 and 32 for an IPv4 address.',
  prefixRange6: 'Prefix length must be between 0 and 128 for an IPv6 address.',
} as const;

/** `010` could mean 10 (PostgreSQL) or 8 (inet_aton, WHATWG URLs), so it is refused outright. */
function leadingZeroOctet(octet: string): string {
  return `IPv4 octets must not have leading zeros (${octet} is ambiguous: decimal or octal?).`;
}

/** Inputs longer than this (after trimming) cannot be a valid address; 49 characters is the real maximum. */
const MAX_INPUT_LENGTH = 64;

interface ParsedIp {
  readonly family: IpFamily;
  /** 4 bytes for IPv4, 16 for IPv6 (network byte order). */
  readonly bytes: Uint8Array;
  /** Undefined when no `/len` was given. */
  readonly prefix: number | undefined;
}

/** `null` means "generic invalid": the caller substitutes the message for its own field type. */
type PartResult = Uint8Array | IpProblem | null;

function isProblem(value: unknown): value is IpProblem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

/** Type guard for parse results. */
export function isIpProblem(result: IpParseResult): result is IpProblem {
  return 'problem' in result;
}

export function bitWidth(fam: IpFamily): 32 | 128 {
  return fam === 4 ? 32 : 128;
}

// ---------------------------------------------------------------------------------------------------
// Parsing

const DIGITS = /^[0-9]+$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

/** Strict dotted quad: exactly four decimal octets 0-255, no leading zeros. */
function parseIpv4(text: string): PartResult {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  let leadingZero: string | undefined;
  for (let i = 0; i < 4; i++) {
    const part = parts[i];
    if (part.length < 1 || part.length > 3 || !DIGITS.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    if (part.length > 1 && part[0] === '0') leadingZero ??= part;
    bytes[i] = n;
  }
  return leadingZero === undefined ? bytes : { problem: leadingZeroOctet(leadingZero) };
}

function parseIpv6(text: string): PartResult {
  if (text.includes('%')) return { problem: IP_MESSAGES.zoneId };
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const compressed = halves.length === 2;
  const head = halves[0] === '' ? [] : halves[0].split(':');
  const tail = compressed ? (halves[1] === '' ? [] : halves[1].split(':')) : [];

  // An embedded IPv4 address may only be the very last group of the whole address.
  const lastList = compressed ? tail : head;
  let v4: Uint8Array | undefined;
  if (lastList.length > 0 && lastList[lastList.length - 1].includes('.')) {
    const parsed = parseIpv4(lastList.pop() as string);
    if (!(parsed instanceof Uint8Array)) return parsed;
    v4 = parsed;
  }

  const words = (groups: string[]): number[] | null => {
    const out: number[] = [];
    for (const group of groups) {
      if (!HEX_GROUP.test(group)) return null;
      out.push(parseInt(group, 16));
    }
    return out;
  };
  const headWords = words(head);
  const tailWords = words(tail);
  if (headWords === null || tailWords === null) return null;

  const total = headWords.length + tailWords.length + (v4 ? 2 : 0);
  // "::" must stand for at least one zero group (PostgreSQL rejects `1:2:3:4:5:6:7:8::`).
  if (compressed ? total > 7 : total !== 8) return null;

  const bytes = new Uint8Array(16);
  headWords.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 0xff;
  });
  const tailStart = 16 - (v4 ? 4 : 0) - 2 * tailWords.length;
  tailWords.forEach((w, i) => {
    bytes[tailStart + 2 * i] = w >> 8;
    bytes[tailStart + 2 * i + 1] = w & 0xff;
  });
  if (v4) bytes.set(v4, 12);
  return bytes;
}

/** Parses `address[/len]`; `invalid` is the generic message for the caller's field type. */
function parseRaw(raw: unknown, invalid: string): ParsedIp | IpProblem {
  if (raw === undefined) return { problem: IP_MESSAGES.required };
  if (raw === null) return { problem: IP_MESSAGES.null };
  if (typeof raw !== 'string') return { problem: IP_MESSAGES.notString };
  const text = raw.trim();
  if (text === '') return { problem: IP_MESSAGES.blank };
  if (text.length > MAX_INPUT_LENGTH) return { problem: invalid };

  const slash = text.split('/');
  if (slash.length > 2) return { problem: invalid };
  const [addressText, prefixText] = slash;

  // PostgreSQL's rule: anything containing a colon is IPv6.
  const fam: IpFamily = addressText.includes(':') ? 6 : 4;
  const bytes = fam === 6 ? parseIpv6(addressText) : parseIpv4(addressText);
  if (bytes === null) return { problem: invalid };
  if (isProblem(bytes)) return bytes;

  let prefix: number | undefined;
  if (prefixText !== undefined) {
    if (!DIGITS.test(prefixText)) return { problem: invalid };
    if (prefixText.length > 1 && prefixText[0] === '0') return { problem: IP_MESSAGES.leadingZeroPrefix };
    prefix = prefixText.length > 3 ? Infinity : Number(prefixText);
    if (prefix > bitWidth(fam)) return { problem: fam === 4 ? IP_MESSAGES.prefixRange4 : IP_MESSAGES.prefixRange6 };
  }
  return { family: fam, bytes, prefix };
}

// ---------------------------------------------------------------------------------------------------
// Formatting (mirrors PostgreSQL's inet_net_ntop)

function formatIpv4(bytes: Uint8Array): string {
  return Array.from(bytes).join('.');
}

/**
 * PostgreSQL's IPv6 output: the first longest run (length >= 2) of zero words becomes `::`, hex words
 * are lower-case without leading zeros, and when the first 96 bits are zero (`::a.b.c.d`, but not `::1`
 * style addresses whose zero run covers word 6) or the address is IPv4-mapped (`::ffff:a.b.c.d`) the
 * last 32 bits are printed as a dotted quad. Note this differs from RFC 5952 for e.g. `::1:2`, which
 * PostgreSQL prints as `::0.1.0.2`.
 */
function formatIpv6(bytes: Uint8Array): string {
  const words: number[] = [];
  for (let i = 0; i < 8; i++) words.push((bytes[2 * i] << 8) | bytes[2 * i + 1]);

  let bestBase = -1;
  let bestLen = 0;
  let curBase = -1;
  let curLen = 0;
  for (let i = 0; i <= 8; i++) {
    if (i < 8 && words[i] === 0) {
      if (curBase === -1) {
        curBase = i;
        curLen = 1;
      } else {
        curLen++;
      }
    } else if (curBase !== -1) {
      if (curLen > bestLen) {
        bestBase = curBase;
        bestLen = curLen;
      }
      curBase = -1;
    }
  }
  if (bestLen < 2) bestBase = -1;

  let out = '';
  for (let i = 0; i < 8; i++) {
    if (bestBase !== -1 && i >= bestBase && i < bestBase + bestLen) {
      if (i === bestBase) out += ':';
      continue;
    }
    if (i !== 0) out += ':';
    // PostgreSQL also tests `bestLen === 7 && words[7] !== 1`, which can never reach i === 6.
    if (i === 6 && bestBase === 0 && (bestLen === 6 || (bestLen === 5 && words[5] === 0xffff))) {
      out += formatIpv4(bytes.subarray(12, 16));
      break;
    }
    out += words[i].toString(16);
  }
  if (bestBase !== -1 && bestBase + bestLen === 8) out += ':';
  return out;
}

function formatAddress(fam: IpFamily, bytes: Uint8Array): string {
  return fam === 4 ? formatIpv4(bytes) : formatIpv6(bytes);
}

// ---------------------------------------------------------------------------------------------------
// BigInt helpers

function toBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

function fromBigInt(v: bigint, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    bytes[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return bytes;
}

/** Mask of the bits to the right of `prefix` in a `width`-bit address. */
function hostMask(width: number, prefix: number): bigint {
  return (1n << BigInt(width - prefix)) - 1n;
}

// ---------------------------------------------------------------------------------------------------
// Public API

/**
 * An interface address with optional prefix length, as NetBox's IPAddress.address / PostgreSQL `inet`
 * (host bits allowed). A bare address gets /32 or /128. `value` always carries the prefix length.
 */
export function parseIpInterface(raw: unknown): IpParseResult {
  const parsed = parseRaw(raw, IP_MESSAGES.invalidInterface);
  if (isProblem(parsed)) return parsed;
  const prefix = parsed.prefix ?? bitWidth(parsed.family);
  return { value: `${formatAddress(parsed.family, parsed.bytes)}/${prefix}`, family: parsed.family };
}

/**
 * A network prefix, as NetBox's Prefix.prefix / PostgreSQL `cidr`: bits to the right of the mask
 * must be zero. A bare address is treated as /32 or /128 unless `requireMask` is set.
 */
export function parseIpNetwork(raw: unknown, options: ParseIpNetworkOptions = {}): IpParseResult {
  const parsed = parseRaw(raw, IP_MESSAGES.invalidNetwork);
  if (isProblem(parsed)) return parsed;
  if (parsed.prefix === undefined && options.requireMask) return { problem: IP_MESSAGES.maskRequired };
  const width = bitWidth(parsed.family);
  const prefix = parsed.prefix ?? width;
  const value = `${formatAddress(parsed.family, parsed.bytes)}/${prefix}`;
  const mask = hostMask(width, prefix);
  const addr = toBigInt(parsed.bytes);
  if ((addr & mask) !== 0n) {
    const network = fromBigInt(addr & ~mask, parsed.bytes.length);
    return {
      problem: `${value} has host bits set; did you mean ${formatAddress(parsed.family, network)}/${prefix}?`,
    };
  }
  return { value, family: parsed.family };
}

/** A bare address without a mask (e.g. filters such as `contains=10.0.0.5`). */
export function parseIpAddress(raw: unknown): IpParseResult {
  const parsed = parseRaw(raw, IP_MESSAGES.invalidAddress);
  if (isProblem(parsed)) return parsed;
  if (parsed.prefix !== undefined) return { problem: IP_MESSAGES.maskNotAllowed };
  return { value: formatAddress(parsed.family, parsed.bytes), family: parsed.family };
}

function parseOrThrow(fn: string, what: string, value: string): ParsedIp {
  const parsed = parseRaw(value, IP_MESSAGES.invalidInterface);
  if (isProblem(parsed)) {
    const shown = typeof value === 'string' && value.length > MAX_INPUT_LENGTH ? `${value.slice(0, MAX_INPUT_LENGTH)}...` : value;
    throw new TypeError(`${fn}: invalid ${what} ${JSON.stringify(shown)}: ${parsed.problem}`);
  }
  return parsed;
}

/**
 * PostgreSQL's `network >>= address` for inet values: true when both are the same family and the
 * first `len(network)` bits of `address` equal those of `network` (host bits of `network` are
 * ignored, as PostgreSQL does), and `address` is no wider than `network`. Either argument may be a
 * bare address (/32, /128) or carry a prefix length. IPv4 and IPv4-mapped IPv6 are different
 * families, as in PostgreSQL. Throws TypeError on unparseable input.
 */
export function networkContains(network: string, address: string): boolean {
  const net = parseOrThrow('networkContains', 'network', network);
  const addr = parseOrThrow('networkContains', 'address', address);
  if (net.family !== addr.family) return false;
  const width = bitWidth(net.family);
  const netPrefix = net.prefix ?? width;
  const addrPrefix = addr.prefix ?? width;
  if (netPrefix > addrPrefix) return false;
  const shift = BigInt(width - netPrefix);
  return toBigInt(net.bytes) >> shift === toBigInt(addr.bytes) >> shift;
}

/** The family of an address or prefix (with or without mask). Throws TypeError on unparseable input. */
export function family(value: string): IpFamily {
  return parseOrThrow('family', 'value', value).family;
}
