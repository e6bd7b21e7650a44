import {
  bitString,
  children,
  constructed,
  DerError,
  DerTag,
  explicit,
  integerFromHex,
  namedBits,
  objectIdentifier,
  readBitStringOctets,
  readElement,
  readObjectIdentifier,
  readRoot,
  readSmallInteger,
  sequence,
  smallInteger,
  time,
  tlv,
  unsignedInteger,
  utf8String,
} from './der';
import { OpensslWorkspace } from './testing/openssl-workspace';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('DER writer', () => {
  it.each<[number, string]>([
    [0, '0400'],
    [127, '047f'],
    [128, '048180'],
    [255, '0481ff'],
    [256, '04820100'],
    [65_535, '0482ffff'],
    [65_536, '0483010000'],
    [16_777_216, '048401000000'],
  ])('encodes a %d-octet length minimally', (length, header) => {
    const encoded = tlv(DerTag.OCTET_STRING, Buffer.alloc(length, 0xab));
    expect(hex(encoded.subarray(0, header.length / 2))).toBe(header);
    expect(encoded.length).toBe(header.length / 2 + length);
    const element = readRoot(encoded, DerTag.OCTET_STRING, 'octets');
    expect([element.contentStart, element.end]).toEqual([header.length / 2, encoded.length]);
  });

  it.each<[string, string]>([
    ['1.2.840.113549.1.1.11', '06092a864886f70d01010b'],
    ['2.5.29.17', '0603551d11'],
    ['1.3.101.112', '06032b6570'],
    ['0.9.2342.19200300.100.1.25', '060a0992268993f22c640119'],
    ['2.999.3', '0603883703'],
  ])('encodes and reads back the OID %s', (oid, encoded) => {
    expect(hex(objectIdentifier(oid))).toBe(encoded);
    expect(readObjectIdentifier(readRoot(Buffer.from(encoded, 'hex'), DerTag.OBJECT_IDENTIFIER, 'oid'), 'oid')).toBe(oid);
  });

  it('refuses object identifiers that do not exist', () => {
    expect(() => objectIdentifier('3.1')).toThrow(DerError);
    expect(() => objectIdentifier('1.40')).toThrow(DerError);
    expect(() => objectIdentifier('1')).toThrow(DerError);
  });

  it('encodes non-negative integers minimally, with a sign octet when the top bit is set', () => {
    expect(hex(unsignedInteger(Uint8Array.of()))).toBe('020100');
    expect(hex(unsignedInteger(Uint8Array.of(0, 0, 5)))).toBe('020105');
    expect(hex(smallInteger(0))).toBe('020100');
    expect(hex(smallInteger(127))).toBe('02017f');
    expect(hex(smallInteger(128))).toBe('02020080');
    expect(hex(integerFromHex('fff'))).toBe('02020fff');
    expect(hex(integerFromHex('00ff'))).toBe('020200ff');
    expect(hex(integerFromHex('7f' + '00'.repeat(19)))).toBe('0214' + '7f' + '00'.repeat(19));
    for (const value of [0, 1, 127, 128, 255, 256, 65_535, 2 ** 40]) {
      expect(readSmallInteger(readRoot(smallInteger(value), DerTag.INTEGER, 'n'), 'n')).toBe(value);
    }
  });

  it('encodes named bits with the trailing zero bits dropped (DER)', () => {
    expect(hex(namedBits([]))).toBe('030100');
    expect(hex(namedBits([0]))).toBe('03020780');
    expect(hex(namedBits([0, 2]))).toBe('030205a0');
    expect(hex(namedBits([0, 5, 6]))).toBe('03020186');
    expect(hex(namedBits([8]))).toBe('0303070080');
    expect(hex(bitString(Uint8Array.of(1, 2)))).toBe('0303000102');
    expect(hex(readBitStringOctets(readRoot(bitString(Uint8Array.of(9)), DerTag.BIT_STRING, 'b'), 'b'))).toBe('09');
  });

  it.each<[string, string]>([
    ['1950-01-01T00:00:00Z', '170d3530303130313030303030305a'],
    ['2026-07-04T09:08:07.999Z', '170d3236303730343039303830375a'],
    ['2049-12-31T23:59:59Z', '170d3439313233313233353935395a'],
    ['2050-01-01T00:00:00Z', '180f32303530303130313030303030305a'],
    ['1949-12-31T23:59:59Z', '180f31393439313233313233353935395a'],
  ])('encodes %s as UTCTime through 2049 and GeneralizedTime otherwise, to the second', (iso, encoded) => {
    expect(hex(time(new Date(iso)))).toBe(encoded);
  });

  it('produces structures OpenSSL parses', () => {
    const openssl = new OpensslWorkspace();
    try {
      const structure = sequence([
        smallInteger(2),
        objectIdentifier('2.5.29.19'),
        utf8String('Zoë, Inc. 中文'),
        explicit(3, sequence([time(new Date('2030-01-02T03:04:05Z')), namedBits([0, 5, 6])])),
        constructed(DerTag.SET, [tlv(DerTag.OCTET_STRING, Buffer.alloc(300, 1))]),
      ]);
      const file = openssl.write('structure.der', structure);
      const parsed = openssl.ok(['asn1parse', '-inform', 'DER', '-in', file]);
      expect(parsed).toContain('INTEGER           :02');
      expect(parsed).toContain('X509v3 Basic Constraints');
      expect(parsed).toContain('UTCTIME           :300102030405Z');
      expect(parsed).toMatch(/OCTET STRING\s+\[HEX DUMP\]:0101/);
    } finally {
      openssl.dispose();
    }
  });
});

describe('DER reader', () => {
  it('walks nested elements', () => {
    const encoded = sequence([smallInteger(1), sequence([objectIdentifier('1.3.101.112')]), bitString(Uint8Array.of(7))]);
    const [integer, algorithm, bits] = children(readRoot(encoded, DerTag.SEQUENCE, 'outer'));
    expect(readSmallInteger(integer, 'i')).toBe(1);
    expect(readObjectIdentifier(children(algorithm)[0], 'oid')).toBe('1.3.101.112');
    expect(hex(readBitStringOctets(bits, 'bits'))).toBe('07');
  });

  it.each<[string, string]>([
    ['an indefinite length', '3080020100 0000'],
    ['a long-form length below 128', '30810302 0100'],
    ['a length with a leading zero octet', '3082000302 0100'],
    ['a multi-octet tag', '1f2201 00'],
    ['an element running past its container', '3003020201'],
    ['a truncated header', '30'],
    ['trailing data', '3000 00'],
  ])('rejects %s', (_label, text) => {
    const bytes = Buffer.from(text.replace(/ /g, ''), 'hex');
    expect(() => {
      const root = readRoot(bytes, DerTag.SEQUENCE, 'root');
      children(root);
    }).toThrow(DerError);
  });

  it('rejects a child that ends past its parent', () => {
    const bytes = Buffer.from('3003' + '0403aabbcc', 'hex');
    expect(() => children(readElement(bytes, 0))).toThrow(DerError);
  });

  it('rejects integers that are negative or not minimal, and bit strings with unused bits', () => {
    expect(() => readSmallInteger(readRoot(Buffer.from('0201ff', 'hex'), DerTag.INTEGER, 'n'), 'n')).toThrow(/negative/);
    expect(() => readSmallInteger(readRoot(Buffer.from('02020001', 'hex'), DerTag.INTEGER, 'n'), 'n')).toThrow(/minimally/);
    expect(() => readBitStringOctets(readRoot(Buffer.from('03020180', 'hex'), DerTag.BIT_STRING, 'b'), 'b')).toThrow(/whole octets/);
  });

  it('rejects object identifiers with a non-minimal or unterminated arc', () => {
    expect(() => readObjectIdentifier(readRoot(Buffer.from('0602802a', 'hex'), DerTag.OBJECT_IDENTIFIER, 'o'), 'o')).toThrow(DerError);
    expect(() => readObjectIdentifier(readRoot(Buffer.from('06022a86', 'hex'), DerTag.OBJECT_IDENTIFIER, 'o'), 'o')).toThrow(DerError);
  });
});
