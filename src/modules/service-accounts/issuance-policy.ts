import { BlockList, isIP } from 'node:net';
import type { CertificateType } from '../pki/certificate.entity';

/** The stored policy, as evaluated. Empty lists allow nothing of their kind. */
export interface IssuancePolicy {
  cnPatterns: string[];
  sanDnsPatterns: string[];
  sanIpCidrs: string[];
  sanEmailDomains: string[];
  allowedCaIds: number[];
  allowedCertificateTypes: CertificateType[];
  maxValidityDays: number;
  /** Bound to inventory devices (any non-empty): the names are the devices' inventory names, not the patterns'. */
  boundDeviceIds: number[];
  boundDeviceTags: string[];
  boundDeviceRoles: string[];
}

/** What a service account asks to issue (for renewals: what the certificate inherits). */
export interface IssuanceRequest {
  certificateType: CertificateType;
  caId: number;
  commonName: string;
  dns: string[];
  ip: string[];
  email: string[];
  validDays: number;
}

export interface PolicyViolation {
  field: string;
  value: string | number;
}

/**
 * Glob semantics (documented in docs/service-accounts.md): matching ignores case; `*` matches any
 * run of characters within one DNS label (never a dot), `?` one character other than a dot, and
 * `**` any run including dots. So `*.example.com` allows `www.example.com` but not
 * `a.b.example.com` (which `**.example.com` allows) nor `example.com`.
 */
export function compileGlob(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') {
      source += '[^.]*';
    } else if (char === '?') {
      source += '[^.]';
    } else {
      source += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 'i');
}

/** Why a glob is unusable, or undefined when it is fine. */
export function globProblem(pattern: string): string | undefined {
  if (pattern.trim() === '') return 'must not be empty';
  if (pattern.length > 253) return 'must be at most 253 characters';
  if (/[\s[\]\\{}]/.test(pattern))
    return 'may contain letters, digits, punctuation and the wildcards * ** ? only (no spaces, [ ] { } or \\)';
  if (/\*{3,}/.test(pattern)) return 'has more than two * in a row';
  return undefined;
}

/** A CIDR in canonical form, or a reason it is not one. Host bits must be zero. */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | string {
  const [address, prefixText, ...rest] = text.trim().split('/');
  const version = isIP(address ?? '');
  if (rest.length > 0 || version === 0 || prefixText === undefined || !/^\d{1,3}$/.test(prefixText)) {
    return 'must be an IPv4 or IPv6 network such as 10.0.0.0/24 or 2001:db8::/32';
  }
  const prefix = Number(prefixText);
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefix > (version === 4 ? 32 : 128)) return `prefix /${prefix} is too long for ${family}`;
  // A network address with host bits set (10.0.0.3/30) usually hides a mistake; refuse it.
  if (!networkAddressOf(address, prefix, family)) return `has host bits set for /${prefix}`;
  return { address, prefix, family };
}

function networkAddressOf(address: string, prefix: number, family: 'ipv4' | 'ipv6'): boolean {
  const bits = addressBits(address, family);
  const hostBits = (family === 'ipv4' ? 32 : 128) - prefix;
  return hostBits === 0 || (bits & ((1n << BigInt(hostBits)) - 1n)) === 0n;
}

function addressBits(address: string, family: 'ipv4' | 'ipv6'): bigint {
  if (family === 'ipv4') return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const expandEmbeddedIpv4 = (parts: string[]) =>
    parts.flatMap((part) => {
      if (!part.includes('.')) return [part];
      const v4 = part.split('.').map(Number);
      return [((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16)];
    });
  const left = expandEmbeddedIpv4(headParts);
  const right = expandEmbeddedIpv4(tailParts);
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part || '0', 16)), 0n);
}

/** Whether the policy binds issuance to inventory devices (by id, tag or role). */
export function isBoundToInventory(policy: IssuancePolicy): boolean {
  return policy.boundDeviceIds.length + policy.boundDeviceTags.length + policy.boundDeviceRoles.length > 0;
}

/**
 * The first constraint the request breaks, checked in this order: certificate type, CA, common
 * name, each DNS SAN, each IP SAN, each email SAN, validity. A DNS SAN equal to the common name is
 * covered by the common-name check (the CN is what the service adds as DNS SAN by default). A policy
 * bound to the inventory leaves the names to the inventory (IssuancePolicyEnforcer).
 */
export function evaluatePolicy(policy: IssuancePolicy, request: IssuanceRequest): PolicyViolation | null {
  if (!policy.allowedCertificateTypes.includes(request.certificateType)) {
    return { field: 'allowed_certificate_types', value: request.certificateType };
  }
  if (!policy.allowedCaIds.includes(request.caId)) return { field: 'allowed_ca_ids', value: request.caId };
  if (isBoundToInventory(policy)) {
    return request.validDays > policy.maxValidityDays ? { field: 'max_validity_days', value: request.validDays } : null;
  }
  const cnGlobs = policy.cnPatterns.map(compileGlob);
  if (!cnGlobs.some((glob) => glob.test(request.commonName))) return { field: 'cn_patterns', value: request.commonName };
  const dnsGlobs = policy.sanDnsPatterns.map(compileGlob);
  for (const name of request.dns) {
    if (name.toLowerCase() === request.commonName.toLowerCase()) continue;
    if (!dnsGlobs.some((glob) => glob.test(name))) return { field: 'san_dns_patterns', value: name };
  }
  const networks = new BlockList();
  for (const cidr of policy.sanIpCidrs) {
    const parsed = parseCidr(cidr);
    if (typeof parsed !== 'string') networks.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  for (const address of request.ip) {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (isIP(address) === 0 || !networks.check(address, family)) return { field: 'san_ip_cidrs', value: address };
  }
  const domains = new Set(policy.sanEmailDomains.map((domain) => domain.toLowerCase()));
  for (const email of request.email) {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (!email.includes('@') || !domains.has(domain)) return { field: 'san_email_domains', value: email };
  }
  if (request.validDays > policy.maxValidityDays) return { field: 'max_validity_days', value: request.validDays };
  return null;
}
