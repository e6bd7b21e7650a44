import { generateSerialNumber, InvalidSerialNumberError, normalizeSerialNumber, positiveIntegerOctets } from './serial-number';

describe('generateSerialNumber', () => {
  const serials = Array.from({ length: 1000 }, generateSerialNumber);

  it('renders lowercase hex without leading zeros', () => {
    for (const serial of serials) {
      expect(serial).toMatch(/^[1-9a-f][0-9a-f]*$/);
    }
  });

  it('produces positive values of more than 64 and at most 159 bits', () => {
    for (const serial of serials) {
      const value = BigInt(`0x${serial}`);
      expect(value > 0n).toBe(true);
      expect(value.toString(2).length).toBeGreaterThan(64);
      expect(value.toString(2).length).toBeLessThanOrEqual(159);
    }
  });

  it('does not repeat across 1000 serials', () => {
    expect(new Set(serials).size).toBe(serials.length);
  });

  it('spreads values over the whole range, top bits included', () => {
    const longest = Math.max(...serials.map((serial) => BigInt(`0x${serial}`).toString(2).length));
    expect(longest).toBe(159);
  });

  it('always fits a DER INTEGER of at most 20 octets without a padding byte', () => {
    for (const serial of serials) {
      const octets = positiveIntegerOctets(serial);
      expect(octets.length).toBeLessThanOrEqual(20);
      expect(octets[0]).toBeLessThan(0x80);
    }
  });
});

describe('positiveIntegerOctets', () => {
  it.each([
    ['1', [0x01]],
    ['7f', [0x7f]],
    ['80', [0x00, 0x80]],
    ['0080', [0x00, 0x80]],
    ['abc', [0x0a, 0xbc]],
    ['000001', [0x01]],
    ['0', [0x00]],
  ])('encodes %j minimally with a non-negative sign', (hex, expected) => {
    expect([...positiveIntegerOctets(hex)]).toEqual(expected);
  });
});

describe('normalizeSerialNumber', () => {
  it.each([
    ['00AbC', 'abc'],
    ['0x1F', '1f'],
    ['01:0A:FF', '10aff'],
    [` ${'7f'.repeat(20)} `, '7f'.repeat(20)],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeSerialNumber(input)).toBe(expected);
  });

  it.each([
    ['', /not hexadecimal/],
    ['xyz', /not hexadecimal/],
    ['-1', /not hexadecimal/],
    ['000', /positive/],
    ['80'.repeat(20), /longer than 20 octets/],
  ])('rejects %j', (input, message) => {
    expect(() => normalizeSerialNumber(input)).toThrow(InvalidSerialNumberError);
    expect(() => normalizeSerialNumber(input)).toThrow(message);
  });
});
