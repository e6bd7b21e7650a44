import { isIP } from 'node:net';
import {
  family,
  IP_MESSAGES,
  IpParseResult,
  isIpProblem,
  networkContains,
  parseIpAddress,
  parseIpInterface,
  parseIpNetwork,
} from './ip-network';

// Expected values were checked against PostgreSQL 15 (`SELECT $1::inet::text` / `$1::cidr::text`).

const INVALID_INTERFACE = IP_MESSAGES.invalidInterface;
const INVALID_NETWORK = IP_MESSAGES.invalidNetwork;

function valueOf(result: IpParseResult): string {
  if (isIpProblem(result)) throw new Error(`unexpected problem: ${result.problem}`);
  return result.value;
}

describe('parseIpInterface (inet)', () => {
  it.each<[string, string, 4 | 6]>([
    // IPv4
    ['10.0.0.1', '10.0.0.1/32', 4],
    ['10.0.0.1/24', '10.0.0.1/24', 4],
    ['10.0.0.0/24', '10.0.0.0/24', 4],
    ['0.0.0.0', '0.0.0.0/32', 4],
    ['0.0.0.0/0', '0.0.0.0/0', 4],
    ['192.168.1.7/0', '192.168.1.7/0', 4],
    ['255.255.255.255', '255.255.255.255/32', 4],
    ['255.255.255.255/32', '255.255.255.255/32', 4],
    ['  10.0.0.1/8\n', '10.0.0.1/8', 4],
    // IPv6
    ['2001:db8::1/64', '2001:db8::1/64', 6],
    ['2001:DB8:0:0::1/64', '2001:db8::1/64', 6],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1/128', 6],
    ['::', '::/128', 6],
    ['::/0', '::/0', 6],
    ['::1', '::1/128', 6],
    ['::2', '::2/128', 6],
    ['::ffff', '::ffff/128', 6],
    ['1::', '1::/128', 6],
    ['fe80::1/10', 'fe80::1/10', 6],
    ['FE80::AbCd', 'fe80::abcd/128', 6],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8/128', 6],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0/128', 6], // a single zero group is never compressed
    ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8/128', 6],
    ['1::2:3:4:5:6:7', '1:0:2:3:4:5:6:7/128', 6],
    ['1:0:0:1:0:0:0:1', '1:0:0:1::1/128', 6], // longest run wins
    ['1:0:0:1:0:0:1:1', '1::1:0:0:1:1/128', 6], // first run wins a tie
    ['0:0:1:0:0:1:0:0', '::1:0:0:1:0:0/128', 6],
    ['1:0:1:0:1:0:1:0', '1:0:1:0:1:0:1:0/128', 6],
    ['2001:db8::1/128', '2001:db8::1/128', 6],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128', 6],
    // IPv4-mapped / -compatible: PostgreSQL prints the low 32 bits dotted
    ['::ffff:10.0.0.1', '::ffff:10.0.0.1/128', 6],
    ['::FFFF:a00:1', '::ffff:10.0.0.1/128', 6],
    ['::ffff:10.0.0.1/96', '::ffff:10.0.0.1/96', 6],
    ['::ffff:0:0', '::ffff:0.0.0.0/128', 6],
    ['::10.0.0.1', '::10.0.0.1/128', 6],
    ['::0.0.0.1', '::1/128', 6],
    ['::1:2', '::0.1.0.2/128', 6], // PostgreSQL quirk (RFC 5952 would print ::1:2)
    ['::ffff:0:10.0.0.1', '::ffff:0:a00:1/128', 6],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304/128', 6],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221/128', 6],
  ])('%j -> %s', (input, value, fam) => {
    expect(parseIpInterface(input)).toEqual({ value, family: fam });
  });

  it.each<[unknown, string]>([
    // garbage and structure
    ['garbage', INVALID_INTERFACE],
    ['10.0.0', INVALID_INTERFACE],
    ['10.1/16', INVALID_INTERFACE], // PostgreSQL inet would pad this; we require all four octets
    ['10/8', INVALID_INTERFACE],
    ['1.2.3.4.5', INVALID_INTERFACE],
    ['10.0.0.256', INVALID_INTERFACE],
    ['10.0.0.-1', INVALID_INTERFACE],
    ['10.0.0.1/', INVALID_INTERFACE],
    ['10.0.0.1/24/8', INVALID_INTERFACE],
    ['10.0.0.1/x', INVALID_INTERFACE],
    ['10.0.0.1/-1', INVALID_INTERFACE],
    ['10.0.0.1 /24', INVALID_INTERFACE],
    ['10.0.0.1%eth0', INVALID_INTERFACE],
    ['0x0a000001', INVALID_INTERFACE],
    ['１０.0.0.1', INVALID_INTERFACE], // full-width digits
    ['/24', INVALID_INTERFACE],
    ['1:2:3:4:5:6:7:8:9', INVALID_INTERFACE],
    ['1:2:3:4:5:6:7', INVALID_INTERFACE],
    ['1:2:3:4:5:6:7:8::', INVALID_INTERFACE],
    ['::1:2:3:4:5:6:7:8', INVALID_INTERFACE],
    ['1::2:3:4:5:6:7:8', INVALID_INTERFACE],
    ['1:::2', INVALID_INTERFACE],
    [':::', INVALID_INTERFACE],
    ['::::', INVALID_INTERFACE],
    ['1::2::3', INVALID_INTERFACE],
    [':1::', INVALID_INTERFACE],
    ['1::2:', INVALID_INTERFACE],
    [':1', INVALID_INTERFACE],
    ['1:', INVALID_INTERFACE],
    [':', INVALID_INTERFACE],
    ['12345::', INVALID_INTERFACE],
    ['g::1', INVALID_INTERFACE],
    ['1.2.3.4::', INVALID_INTERFACE],
    ['::1.2.3.4:5', INVALID_INTERFACE],
    ['1:2:3:4:5:6:7:1.2.3.4', INVALID_INTERFACE],
    ['::1.2.3', INVALID_INTERFACE], // PostgreSQL pads this to ::1.2.3.0; we refuse
    ['::1..2.3', INVALID_INTERFACE],
    ['::ffff:256.0.0.1', INVALID_INTERFACE],
    ['2001:db8::1 /64', INVALID_INTERFACE],
    ['x'.repeat(10_000), INVALID_INTERFACE],
    // prefix length
    ['10.0.0.1/33', IP_MESSAGES.prefixRange4],
    ['10.0.0.1/99999999999999999999', IP_MESSAGES.prefixRange4],
    ['2001:db8::1/129', IP_MESSAGES.prefixRange6],
    ['::ffff:10.0.0.1/129', IP_MESSAGES.prefixRange6],
    ['10.0.0.1/024', IP_MESSAGES.leadingZeroPrefix],
    ['2001:db8::1/064', IP_MESSAGES.leadingZeroPrefix],
    ['10.0.0.1/00', IP_MESSAGES.leadingZeroPrefix],
    // ambiguous leading zeros
    ['010.0.0.1', 'IPv4 octets must not have leading zeros (010 is ambiguous: decimal or octal?).'],
    ['10.0.0.01/24', 'IPv4 octets must not have leading zeros (01 is ambiguous: decimal or octal?).'],
    ['10.00.0.1', 'IPv4 octets must not have leading zeros (00 is ambiguous: decimal or octal?).'],
    ['::ffff:010.0.0.1', 'IPv4 octets must not have leading zeros (010 is ambiguous: decimal or octal?).'],
    // zone ids (PostgreSQL rejects them)
    ['fe80::1%eth0', IP_MESSAGES.zoneId],
    ['fe80::1%eth0/64', IP_MESSAGES.zoneId],
    ['fe80::1%1', IP_MESSAGES.zoneId],
    // not strings
    ['', IP_MESSAGES.blank],
    ['   ', IP_MESSAGES.blank],
    [undefined, IP_MESSAGES.required],
    [null, IP_MESSAGES.null],
    [167772161, IP_MESSAGES.notString],
    [{ address: '10.0.0.1' }, IP_MESSAGES.notString],
    [['10.0.0.1'], IP_MESSAGES.notString],
  ])('%j -> problem %j', (input, problem) => {
    expect(parseIpInterface(input)).toEqual({ problem });
  });
});

describe('parseIpNetwork (cidr)', () => {
  it.each<[string, string, 4 | 6]>([
    ['10.0.0.0/24', '10.0.0.0/24', 4],
    ['10.0.0.0/8', '10.0.0.0/8', 4],
    ['0.0.0.0/0', '0.0.0.0/0', 4],
    ['10.0.0.1/32', '10.0.0.1/32', 4],
    ['10.0.0.1', '10.0.0.1/32', 4],
    ['192.168.255.254/31', '192.168.255.254/31', 4],
    ['128.0.0.0/1', '128.0.0.0/1', 4],
    ['2001:db8::/32', '2001:db8::/32', 6],
    ['2001:DB8:0:0::/64', '2001:db8::/64', 6],
    ['2001:db8::1', '2001:db8::1/128', 6],
    ['2001:db8::1/128', '2001:db8::1/128', 6],
    ['::/0', '::/0', 6],
    ['::', '::/128', 6],
    ['fe80::/10', 'fe80::/10', 6],
    ['8000::/1', '8000::/1', 6],
    ['::ffff:10.0.0.0/104', '::ffff:10.0.0.0/104', 6],
    ['::ffff:0.0.0.0/96', '::ffff:0.0.0.0/96', 6],
  ])('%j -> %s', (input, value, fam) => {
    expect(parseIpNetwork(input)).toEqual({ value, family: fam });
  });

  it.each<[string, string]>([
    ['10.0.0.1/24', '10.0.0.1/24 has host bits set; did you mean 10.0.0.0/24?'],
    ['10.0.0.0/0', '10.0.0.0/0 has host bits set; did you mean 0.0.0.0/0?'],
    ['192.168.1.129/25', '192.168.1.129/25 has host bits set; did you mean 192.168.1.128/25?'],
    ['255.255.255.255/31', '255.255.255.255/31 has host bits set; did you mean 255.255.255.254/31?'],
    ['172.16.5.4/12', '172.16.5.4/12 has host bits set; did you mean 172.16.0.0/12?'],
    ['2001:DB8:0:0::1/64', '2001:db8::1/64 has host bits set; did you mean 2001:db8::/64?'],
    ['2001:db8::1/0', '2001:db8::1/0 has host bits set; did you mean ::/0?'],
    ['8000::1/1', '8000::1/1 has host bits set; did you mean 8000::/1?'],
    ['2001:db8:ffff::/33', '2001:db8:ffff::/33 has host bits set; did you mean 2001:db8:8000::/33?'],
    ['::1/127', '::1/127 has host bits set; did you mean ::/127?'],
    ['::ffff:10.0.0.1/96', '::ffff:10.0.0.1/96 has host bits set; did you mean ::ffff:0.0.0.0/96?'],
    ['::ffff:10.1.2.3/112', '::ffff:10.1.2.3/112 has host bits set; did you mean ::ffff:10.1.0.0/112?'],
  ])('%j has host bits set', (input, problem) => {
    expect(parseIpNetwork(input)).toEqual({ problem });
  });

  it.each<[unknown, string]>([
    ['garbage', INVALID_NETWORK],
    ['10/8', INVALID_NETWORK], // PostgreSQL cidr would accept the classful shorthand
    ['10.0.0.0/33', IP_MESSAGES.prefixRange4],
    ['2001:db8::/129', IP_MESSAGES.prefixRange6],
    ['fe80::%eth0/64', IP_MESSAGES.zoneId],
    ['010.0.0.0/8', 'IPv4 octets must not have leading zeros (010 is ambiguous: decimal or octal?).'],
    ['', IP_MESSAGES.blank],
    [42, IP_MESSAGES.notString],
  ])('%j -> problem %j', (input, problem) => {
    expect(parseIpNetwork(input)).toEqual({ problem });
  });

  it('can require an explicit mask, as NetBox forms do', () => {
    expect(parseIpNetwork('10.0.0.0', { requireMask: true })).toEqual({ problem: IP_MESSAGES.maskRequired });
    expect(parseIpNetwork('2001:db8::', { requireMask: true })).toEqual({ problem: IP_MESSAGES.maskRequired });
    expect(parseIpNetwork('10.0.0.0/32', { requireMask: true })).toEqual({ value: '10.0.0.0/32', family: 4 });
    expect(parseIpNetwork('junk', { requireMask: true })).toEqual({ problem: INVALID_NETWORK });
  });
});

describe('parseIpAddress (bare address)', () => {
  it.each<[string, string, 4 | 6]>([
    ['10.0.0.5', '10.0.0.5', 4],
    [' 10.0.0.5 ', '10.0.0.5', 4],
    ['0.0.0.0', '0.0.0.0', 4],
    ['2001:DB8::0:5', '2001:db8::5', 6],
    ['::', '::', 6],
    ['::ffff:10.0.0.5', '::ffff:10.0.0.5', 6],
  ])('%j -> %s', (input, value, fam) => {
    expect(parseIpAddress(input)).toEqual({ value, family: fam });
  });

  it.each<[unknown, string]>([
    ['10.0.0.5/32', IP_MESSAGES.maskNotAllowed],
    ['2001:db8::/32', IP_MESSAGES.maskNotAllowed],
    ['10.0.0', IP_MESSAGES.invalidAddress],
    ['nonsense/24', IP_MESSAGES.invalidAddress],
    ['fe80::1%eth0', IP_MESSAGES.zoneId],
    ['10.0.0.05', 'IPv4 octets must not have leading zeros (05 is ambiguous: decimal or octal?).'],
    ['', IP_MESSAGES.blank],
    [null, IP_MESSAGES.null],
  ])('%j -> problem %j', (input, problem) => {
    expect(parseIpAddress(input)).toEqual({ problem });
  });
});

describe('networkContains (inet >>=)', () => {
  it.each<[string, string, boolean]>([
    ['10.0.0.0/8', '10.0.0.0', true],
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['10.0.0.0/8', '9.255.255.255', false],
    ['10.0.0.0/8', '10.1.0.0/16', true],
    ['10.1.0.0/16', '10.0.0.0/8', false], // wider than the network
    ['10.0.0.0/8', '10.0.0.0/8', true],
    ['10.0.0.1/24', '10.0.0.200', true], // host bits of the network are ignored, as in PostgreSQL
    // /0
    ['0.0.0.0/0', '0.0.0.0', true],
    ['0.0.0.0/0', '255.255.255.255', true],
    ['0.0.0.0/0', '1.2.3.4/0', true],
    ['::/0', '::', true],
    ['::/0', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['0.0.0.0/0', '::1', false], // families never mix
    ['::/0', '10.0.0.1', false],
    ['::/0', '::ffff:10.0.0.1', true],
    ['10.0.0.0/8', '::ffff:10.0.0.1', false], // IPv4-mapped is IPv6, as in PostgreSQL
    // /32 and /128
    ['10.0.0.1/32', '10.0.0.1', true],
    ['10.0.0.1', '10.0.0.1', true],
    ['10.0.0.1/32', '10.0.0.2', false],
    ['10.0.0.1/32', '10.0.0.0/31', false],
    ['255.255.255.255/32', '255.255.255.255', true],
    ['2001:db8::1/128', '2001:db8::1', true],
    ['2001:db8::1/128', '2001:DB8:0::1', true],
    ['2001:db8::1/128', '2001:db8::2', false],
    ['2001:db8::1/128', '2001:db8::1/127', false],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    // other IPv6 boundaries
    ['2001:db8::/32', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['2001:db8::/32', '2001:db9::', false],
    ['2001:db8::/32', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['8000::/1', 'ffff::', true],
    ['8000::/1', '7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['::ffff:0.0.0.0/96', '::ffff:192.0.2.1', true],
    ['fe80::/64', 'fe80::1:2:3:4', true],
    ['fe80::/64', 'fe80:0:0:1::1', false],
  ])('%s >>= %s is %s', (network, address, expected) => {
    expect(networkContains(network, address)).toBe(expected);
  });

  it('throws on unparseable input', () => {
    expect(() => networkContains('10.0.0.0/33', '10.0.0.1')).toThrow(TypeError);
    expect(() => networkContains('10.0.0.0/8', 'fe80::1%eth0')).toThrow(/zone identifiers/);
    expect(() => networkContains('x'.repeat(1000), '10.0.0.1')).toThrow(/\.\.\./);
  });
});

describe('family', () => {
  it.each<[string, 4 | 6]>([
    ['10.0.0.1', 4],
    ['10.0.0.0/8', 4],
    ['::', 6],
    ['2001:db8::/32', 6],
    ['::ffff:10.0.0.1', 6],
  ])('%s is IPv%i', (value, expected) => {
    expect(family(value)).toBe(expected);
  });

  it('throws on unparseable input', () => {
    expect(() => family('not an ip')).toThrow(TypeError);
  });
});

describe('round trips', () => {
  // Deterministic xorshift so failures reproduce.
  let seed = 0x2545f491;
  const next = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  // Mostly-zero words exercise the :: and dotted-tail rules.
  const word = (): number => [0, 0, 0xffff, next(0x10000)][next(4)];

  it('normalised values re-parse to themselves and are valid for node:net', () => {
    for (let i = 0; i < 2000; i++) {
      const words = Array.from({ length: 8 }, word);
      const expanded = words.map((w) => w.toString(16).toUpperCase().padStart(4, '0')).join(':');
      const prefix = next(129);
      const value = valueOf(parseIpInterface(`${expanded}/${prefix}`));
      expect(valueOf(parseIpInterface(value))).toBe(value);
      const bare = valueOf(parseIpAddress(expanded));
      expect(value).toBe(`${bare}/${prefix}`);
      expect(isIP(bare)).toBe(6);
      expect(networkContains(value, bare)).toBe(true);

      const quad = [next(256), next(256), next(256), next(256)].join('.');
      expect(valueOf(parseIpInterface(quad))).toBe(`${quad}/32`);
      expect(isIP(valueOf(parseIpAddress(quad)))).toBe(4);
    }
  });

  it('the suggested network for host bits is itself a valid network containing the input', () => {
    for (let i = 0; i < 500; i++) {
      const input = `${Array.from({ length: 8 }, () => next(0x10000).toString(16)).join(':')}/${next(128)}`;
      const result = parseIpNetwork(input);
      if (!isIpProblem(result)) continue;
      const suggestion = /did you mean (\S+)\?$/.exec(result.problem)?.[1];
      expect(suggestion).toBeDefined();
      expect(parseIpNetwork(suggestion)).toEqual({ value: suggestion, family: 6 });
      expect(networkContains(suggestion as string, input)).toBe(true);
    }
  });
});
