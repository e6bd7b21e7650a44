import type { TemplateFilters } from '../../platform/plugin-api';

/**
 * The Jinja filters of peering templates, loaded by the config-template render process (the
 * renderer's `filterModules`), so they see only what the template passes them. Self-contained on
 * purpose: the render process may read this file and nothing else of the plugin.
 * Vendor arguments are `cisco` (the default) or `junos`; any other value renders as cisco.
 */

/** This module, as the renderer's `filterModules` entry. */
export const PEERING_TEMPLATE_FILTERS_MODULE = __filename;

type Vendor = 'cisco' | 'junos';
const vendorOf = (value: unknown): Vendor => (typeof value === 'string' && value.toLowerCase() === 'junos' ? 'junos' : 'cisco');
const notNetwork = (value: unknown) => new Error(`ip_network: not an IP network: ${String(value)}`);

// "^64512_" (cisco) or "^64512 " (junos): an AS path starting with the AS.
function asPathRegex(asn: unknown, vendor: unknown): string {
  return '^' + String(asn) + (vendorOf(vendor) === 'junos' ? ' ' : '_');
}

function ipv4ToNumber(address: string, value: unknown): number {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255)) throw notNetwork(value);
  return parts.reduce((sum, part) => sum * 256 + part, 0);
}
const numberToIpv4 = (number: number) => [24, 16, 8, 0].map((shift) => Math.floor(number / 2 ** shift) % 256).join('.');

function ipv6ToBigInt(address: string, value: unknown): bigint {
  const halves = address.split('::');
  if (halves.length > 2) throw notNetwork(value);
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups = halves.length === 2 ? head.concat(new Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), tail) : head;
  if (groups.length !== 8 || groups.some((group) => !/^[0-9a-fA-F]{1,4}$/.test(group))) throw notNetwork(value);
  return groups.reduce((sum, group) => (sum << 16n) + BigInt(parseInt(group, 16)), 0n);
}
function bigIntToIpv6(number: bigint): string {
  const groups: string[] = [];
  for (let index = 0; index < 8; index++) groups.push(Number((number >> BigInt(16 * (7 - index))) & 0xffffn).toString(16));
  // The longest run of two or more zero groups becomes "::" (RFC 5952).
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === '0') length++;
    if (length > best.length && length > 1) best = { start, length };
  }
  if (best.start < 0) return groups.join(':');
  return groups.slice(0, best.start).join(':') + '::' + groups.slice(best.start + best.length).join(':');
}

// {network, prefix_length, netmask} of a prefix, or of an address with its mask ("192.0.2.1/24" gives 192.0.2.0).
function ipNetwork(value: unknown): { network: string; prefix_length: number; netmask: string } {
  const [address, length] = String(value).split('/');
  if (address.includes(':')) {
    const prefixLength = length === undefined ? 128 : Number(length);
    if (!Number.isInteger(prefixLength) || prefixLength < 0 || prefixLength > 128) throw notNetwork(value);
    const mask = prefixLength === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - prefixLength)) - 1n);
    return { network: bigIntToIpv6(ipv6ToBigInt(address, value) & mask), prefix_length: prefixLength, netmask: bigIntToIpv6(mask) };
  }
  const prefixLength = length === undefined ? 32 : Number(length);
  if (!Number.isInteger(prefixLength) || prefixLength < 0 || prefixLength > 32) throw notNetwork(value);
  const host = ipv4ToNumber(address, value);
  const size = 2 ** (32 - prefixLength);
  return { network: numberToIpv4(host - (host % size)), prefix_length: prefixLength, netmask: numberToIpv4(2 ** 32 - size) };
}

const attributeOf = (item: unknown, attribute: unknown): unknown =>
  String(attribute)
    .split('.')
    .reduce<unknown>(
      (value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      item,
    );

type Group = [unknown, unknown[]] & { grouper: unknown; list: unknown[] };

// Groups by an attribute in the order each value is first seen (groupby sorts); group.grouper / group.list, or "for key, items in".
function groupBy(items: unknown, attribute: unknown): Group[] {
  const groups: Group[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    const key = attributeOf(item, attribute);
    const found = groups.find((group) => group.grouper === key);
    if (found) found.list.push(item);
    else {
      const group = Object.assign([key, [item]] as [unknown, unknown[]], { grouper: key, list: [] as unknown[] });
      group.list = group[1];
      groups.push(group);
    }
  }
  return groups;
}

function textOf(entry: unknown, keys: readonly string[]): string {
  if (entry !== null && typeof entry === 'object') {
    for (const key of keys) {
      const value = (entry as Record<string, unknown>)[key];
      if (value !== undefined && value !== null) return String(value);
    }
  }
  return String(entry);
}

// A community list from communities: strings, or objects with community / value.
function toCommunityList(communities: unknown, name: unknown, vendor: unknown): string {
  const values = (Array.isArray(communities) ? communities : []).map((entry) => textOf(entry, ['community', 'value', 'name']));
  if (vendorOf(vendor) === 'junos') return `policy-options {\n    community ${String(name)} members [ ${values.join(' ')} ];\n}`;
  return values.map((value) => `ip community-list standard ${String(name)} permit ${value}`).join('\n');
}

// A prefix list from prefixes: strings, or objects with prefix and optional ge / le; cisco numbers entries 10, 20, …
function toPrefixSet(prefixes: unknown, name: unknown, vendor: unknown): string {
  const entries = (Array.isArray(prefixes) ? prefixes : []).map((entry: unknown) => {
    const fields = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
    return { prefix: textOf(entry, ['prefix']), ge: fields.ge, le: fields.le };
  });
  if (vendorOf(vendor) === 'junos') {
    return [`prefix-list ${String(name)} {`, ...entries.map((entry) => `    ${entry.prefix};`), '}'].join('\n');
  }
  return entries
    .map((entry, index) => {
      const family = entry.prefix.includes(':') ? 'ipv6' : 'ip';
      const ge = entry.ge !== undefined && entry.ge !== null ? ` ge ${String(entry.ge)}` : '';
      const le = entry.le !== undefined && entry.le !== null ? ` le ${String(entry.le)}` : '';
      return `${family} prefix-list ${String(name)} seq ${String((index + 1) * 10)} permit ${entry.prefix}${ge}${le}`;
    })
    .join('\n');
}

export const TEMPLATE_FILTERS: TemplateFilters = {
  as_path_regex: { args: ['asn', 'vendor'], fn: asPathRegex },
  ip_network: { args: ['value'], fn: ipNetwork },
  group_by: { args: ['items', 'attribute'], fn: groupBy },
  to_community_list: { args: ['communities', 'name', 'vendor'], fn: toCommunityList },
  to_prefix_set: { args: ['prefixes', 'name', 'vendor'], fn: toPrefixSet },
};
