/**
 * The Jinja filters of peering templates, as JavaScript source evaluated inside the config-template
 * render worker (the renderer's `filterSources`), like the worker's own source: a plain-data
 * expression `{<name>: {args: [<parameter names>], fn}}`, with nothing from outside the worker.
 * Vendor arguments are `cisco` (the default) or `junos`; any other value renders as cisco.
 */
export const PEERING_TEMPLATE_FILTERS_SOURCE = String.raw`(function () {
  'use strict';
  const vendorOf = (value) => (typeof value === 'string' && value.toLowerCase() === 'junos' ? 'junos' : 'cisco');
  const notNetwork = (value) => new Error('ip_network: not an IP network: ' + String(value));

  // "^64512_" (cisco) or "^64512 " (junos): an AS path starting with the AS.
  function asPathRegex(asn, vendor) {
    return '^' + String(asn) + (vendorOf(vendor) === 'junos' ? ' ' : '_');
  }

  function ipv4ToNumber(address, value) {
    const parts = address.split('.').map(Number);
    if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255)) throw notNetwork(value);
    return parts.reduce((sum, part) => sum * 256 + part, 0);
  }
  const numberToIpv4 = (number) => [24, 16, 8, 0].map((shift) => Math.floor(number / 2 ** shift) % 256).join('.');

  function ipv6ToBigInt(address, value) {
    const halves = address.split('::');
    if (halves.length > 2) throw notNetwork(value);
    const head = halves[0] ? halves[0].split(':') : [];
    const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
    const groups = halves.length === 2 ? head.concat(new Array(Math.max(0, 8 - head.length - tail.length)).fill('0'), tail) : head;
    if (groups.length !== 8 || groups.some((group) => !/^[0-9a-fA-F]{1,4}$/.test(group))) throw notNetwork(value);
    return groups.reduce((sum, group) => (sum << 16n) + BigInt(parseInt(group, 16)), 0n);
  }
  function bigIntToIpv6(number) {
    const groups = [];
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
  function ipNetwork(value) {
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

  const attributeOf = (item, attribute) =>
    String(attribute).split('.').reduce((value, key) => (value !== null && typeof value === 'object' ? value[key] : undefined), item);

  // Groups by an attribute in the order each value is first seen (groupby sorts); group.grouper / group.list, or "for key, items in".
  function groupBy(items, attribute) {
    const groups = [];
    for (const item of Array.isArray(items) ? items : []) {
      const key = attributeOf(item, attribute);
      const found = groups.find((group) => group.grouper === key);
      if (found) found.list.push(item);
      else {
        const group = [key, [item]];
        group.grouper = key;
        group.list = group[1];
        groups.push(group);
      }
    }
    return groups;
  }

  function textOf(entry, keys) {
    if (entry !== null && typeof entry === 'object') {
      for (const key of keys) if (entry[key] !== undefined && entry[key] !== null) return String(entry[key]);
    }
    return String(entry);
  }

  // A community list from communities: strings, or objects with community / value.
  function toCommunityList(communities, name, vendor) {
    const values = (Array.isArray(communities) ? communities : []).map((entry) => textOf(entry, ['community', 'value', 'name']));
    if (vendorOf(vendor) === 'junos') return 'policy-options {\n    community ' + String(name) + ' members [ ' + values.join(' ') + ' ];\n}';
    return values.map((value) => 'ip community-list standard ' + String(name) + ' permit ' + value).join('\n');
  }

  // A prefix list from prefixes: strings, or objects with prefix and optional ge / le; cisco numbers entries 10, 20, …
  function toPrefixSet(prefixes, name, vendor) {
    const entries = (Array.isArray(prefixes) ? prefixes : []).map((entry) => ({
      prefix: textOf(entry, ['prefix']),
      ge: entry !== null && typeof entry === 'object' ? entry.ge : undefined,
      le: entry !== null && typeof entry === 'object' ? entry.le : undefined,
    }));
    if (vendorOf(vendor) === 'junos') return ['prefix-list ' + String(name) + ' {'].concat(entries.map((entry) => '    ' + entry.prefix + ';'), ['}']).join('\n');
    return entries
      .map((entry, index) => {
        const family = entry.prefix.includes(':') ? 'ipv6' : 'ip';
        const ge = entry.ge !== undefined && entry.ge !== null ? ' ge ' + String(entry.ge) : '';
        const le = entry.le !== undefined && entry.le !== null ? ' le ' + String(entry.le) : '';
        return family + ' prefix-list ' + String(name) + ' seq ' + String((index + 1) * 10) + ' permit ' + entry.prefix + ge + le;
      })
      .join('\n');
  }

  return {
    as_path_regex: { args: ['asn', 'vendor'], fn: asPathRegex },
    ip_network: { args: ['value'], fn: ipNetwork },
    group_by: { args: ['items', 'attribute'], fn: groupBy },
    to_community_list: { args: ['communities', 'name', 'vendor'], fn: toCommunityList },
    to_prefix_set: { args: ['prefixes', 'name', 'vendor'], fn: toPrefixSet },
  };
})()`;
