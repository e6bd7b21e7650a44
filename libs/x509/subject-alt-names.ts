import { isIP } from 'node:net';
import { X509EngineError } from './x509-error';

export const CERTIFICATE_PROFILES = ['server', 'client', 'dual_purpose'] as const;

/** Leaf certificate purpose: TLS server, TLS client, or both. */
export type CertificateProfile = (typeof CERTIFICATE_PROFILES)[number];

export interface SubjectAltNames {
  readonly dns: readonly string[];
  readonly ip: readonly string[];
  readonly email: readonly string[];
}

export type SubjectAltNameErrorCode =
  'invalid_dns_name' | 'invalid_ip_address' | 'invalid_email_address' | 'san_type_not_allowed' | 'invalid_profile';

export class SubjectAltNameError extends X509EngineError<SubjectAltNameErrorCode> {
  constructor(
    code: SubjectAltNameErrorCode,
    message: string,
    /** The offending value. */
    readonly value: string,
  ) {
    super(code, message);
  }
}

const MAX_DNS_NAME_LENGTH = 253;
const MAX_DNS_LABEL_LENGTH = 63;
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const EMAIL_ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * Applies the SAN policy of a leaf profile and returns the validated, normalised, de-duplicated set.
 *
 * - server / dual_purpose without DNS SANs: the common name is added — as a DNS SAN when it is a DNS
 *   name (wildcards included), as an IP SAN when it is an IP address; any other CN adds nothing.
 * - client without email SANs: the common name is added as an email SAN when it looks like one.
 * - server rejects email SANs; client rejects DNS and IP SANs; dual_purpose accepts all three.
 *
 * DNS names are lower-cased, IP addresses rendered canonically (dotted IPv4, RFC 5952 IPv6) and email
 * domains lower-cased; invalid values raise SubjectAltNameError naming the value.
 */
export function resolveSubjectAltNames(
  profile: CertificateProfile,
  commonName: string | null | undefined,
  requested: Partial<SubjectAltNames> | null | undefined,
): SubjectAltNames {
  if (!CERTIFICATE_PROFILES.includes(profile)) {
    const message = `Unknown certificate profile "${profile}"; expected one of ${CERTIFICATE_PROFILES.join(', ')}`;
    throw new SubjectAltNameError('invalid_profile', message, String(profile));
  }
  const dns = unique((requested?.dns ?? []).map(normalizeDnsName));
  const ip = unique((requested?.ip ?? []).map(normalizeIpAddress));
  const email = unique((requested?.email ?? []).map(normalizeEmailAddress));

  if (profile === 'server' && email.length > 0) {
    throw new SubjectAltNameError('san_type_not_allowed', `Server certificates cannot carry email SANs (got "${email[0]}")`, email[0]);
  }
  if (profile === 'client') {
    const [offending] = [...dns, ...ip];
    if (offending !== undefined) {
      const message = `Client certificates cannot carry DNS or IP SANs (got "${offending}")`;
      throw new SubjectAltNameError('san_type_not_allowed', message, offending);
    }
  }

  const cn = typeof commonName === 'string' ? commonName.trim() : '';
  if (cn !== '') {
    if (profile !== 'client' && dns.length === 0) {
      if (isIpAddress(cn)) {
        return { dns, ip: unique([normalizeIpAddress(cn), ...ip]), email };
      }
      if (isDnsName(cn)) {
        return { dns: [cn.toLowerCase()], ip, email };
      }
    }
    if (profile === 'client' && email.length === 0 && isEmailAddress(cn)) {
      return { dns, ip, email: [normalizeEmailAddress(cn)] };
    }
  }
  return { dns, ip, email };
}

export function isDnsName(value: string): boolean {
  return dnsNameProblem(value) === null;
}

export function isIpAddress(value: string): boolean {
  return ipAddressGroups(value) !== null;
}

export function isEmailAddress(value: string): boolean {
  return emailAddressProblem(value) === null;
}

/**
 * Validates a DNS name (LDH labels of 1–63 characters, at most 253 in total, an optional leading
 * `*.` wildcard, internationalised names in their `xn--` form) and lower-cases it.
 */
export function normalizeDnsName(value: string): string {
  const problem = dnsNameProblem(value);
  if (problem !== null) {
    throw new SubjectAltNameError('invalid_dns_name', `Invalid DNS name "${value}": ${problem}`, String(value));
  }
  return value.toLowerCase();
}

/** Validates an IPv4 or IPv6 address and returns its canonical text form. */
export function normalizeIpAddress(value: string): string {
  const groups = ipAddressGroups(value);
  if (groups === null) {
    throw new SubjectAltNameError('invalid_ip_address', `Invalid IP address "${value}"`, String(value));
  }
  return groups.family === 4 ? groups.parts.join('.') : formatIpv6(groups.parts);
}

/** Validates an email address (`local@domain.tld`, ASCII only as rfc822Name is an IA5String) and lower-cases its domain. */
export function normalizeEmailAddress(value: string): string {
  const problem = emailAddressProblem(value);
  if (problem !== null) {
    throw new SubjectAltNameError('invalid_email_address', `Invalid email address "${value}": ${problem}`, String(value));
  }
  const at = value.lastIndexOf('@');
  return value.slice(0, at) + value.slice(at).toLowerCase();
}

/** The canonical text of a 4- or 16-octet iPAddress (as normalizeIpAddress renders it), or null for other lengths. */
export function ipAddressFromOctets(octets: Uint8Array): string | null {
  if (octets.length === 4) return Array.from(octets).join('.');
  if (octets.length !== 16) return null;
  const groups: number[] = [];
  for (let index = 0; index < 16; index += 2) groups.push((octets[index] << 8) | octets[index + 1]);
  return formatIpv6(groups);
}

/** The iPAddress octets of a valid IP address (4 for IPv4, 16 for IPv6). */
export function ipAddressOctets(value: string): Buffer {
  const groups = ipAddressGroups(value);
  if (groups === null) {
    throw new SubjectAltNameError('invalid_ip_address', `Invalid IP address "${value}"`, String(value));
  }
  if (groups.family === 4) return Buffer.from(groups.parts);
  const octets = Buffer.alloc(16);
  groups.parts.forEach((group, index) => octets.writeUInt16BE(group, index * 2));
  return octets;
}

function dnsNameProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') {
    return 'it is empty';
  }
  if (value.length > MAX_DNS_NAME_LENGTH) {
    return `it is longer than ${MAX_DNS_NAME_LENGTH} characters`;
  }
  const name = value.toLowerCase();
  const labels = (name.startsWith('*.') ? name.slice(2) : name).split('.');
  for (const label of labels) {
    if (label === '') {
      return 'it contains an empty label';
    }
    if (label.length > MAX_DNS_LABEL_LENGTH) {
      return `label "${label}" is longer than ${MAX_DNS_LABEL_LENGTH} characters`;
    }
    if (label.includes('*')) {
      return 'a wildcard is only allowed as the entire leftmost label ("*.")';
    }
    if (!DNS_LABEL.test(label)) {
      return `label "${label}" may only contain letters, digits and inner hyphens (use the xn-- form for internationalised names)`;
    }
  }
  // No top-level domain is all-numeric; such a name is an IPv4 address typed into the wrong field.
  if (/^[0-9]+$/.test(labels[labels.length - 1])) {
    return 'the last label is numeric; IP addresses belong in IP SANs';
  }
  return null;
}

function emailAddressProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !EMAIL_ADDRESS.test(value)) {
    return 'expected local@domain.tld';
  }
  if (!PRINTABLE_ASCII.test(value)) {
    return 'only ASCII characters are allowed';
  }
  return null;
}

interface IpAddressGroups {
  readonly family: 4 | 6;
  /** Four octets for IPv4, eight 16-bit groups for IPv6. */
  readonly parts: readonly number[];
}

function ipAddressGroups(value: unknown): IpAddressGroups | null {
  if (typeof value !== 'string') {
    return null;
  }
  const family = isIP(value);
  if (family === 4) {
    return { family, parts: value.split('.').map(Number) };
  }
  // A zone index (fe80::1%eth0) is meaningful only on one host and cannot be encoded in a certificate.
  if (family === 6 && !value.includes('%')) {
    return { family, parts: ipv6Groups(value) };
  }
  return null;
}

/** Expands syntactically valid IPv6 text (`::` compression and a dotted IPv4 tail allowed) into eight groups. */
function ipv6Groups(text: string): number[] {
  const toGroups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) {
            return [parseInt(group, 16)];
          }
          const [a, b, c, d] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const compressed = text.indexOf('::');
  if (compressed === -1) {
    return toGroups(text);
  }
  const head = toGroups(text.slice(0, compressed));
  const tail = toGroups(text.slice(compressed + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** RFC 5952 text: lowercase, no leading zeros, the first longest run (≥ 2) of zero groups as `::`. */
function formatIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < groups.length; start++) {
    let length = 0;
    while (start + length < groups.length && groups[start + length] === 0) {
      length++;
    }
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestLength < 2) {
    return hex.join(':');
  }
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
