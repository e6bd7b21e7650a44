import {
  commonNameOf,
  type DistinguishedName,
  type DistinguishedNameFields,
  distinguishedNameAttributes,
  formatDistinguishedName,
  decodeDistinguishedName,
  encodeDistinguishedName,
  formatX509Name,
  InvalidDistinguishedNameError,
  parseDistinguishedName,
  validateDistinguishedName,
  withCommonName,
} from './distinguished-name';
import { readRoot } from './der';
import { Name } from './x509-runtime';

function parseError(input: string): InvalidDistinguishedNameError {
  try {
    parseDistinguishedName(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidDistinguishedNameError);
    return error as InvalidDistinguishedNameError;
  }
  throw new Error(`"${input}" was accepted`);
}

/** RDNs in encoding order from `KEY=value` texts; `+` joins the attributes of a multi-valued RDN. */
function rdns(...texts: string[]): DistinguishedName {
  return {
    rdns: texts.map((text) =>
      text.split('+').map((attribute) => {
        const [key, value] = attribute.split('=');
        return { key: key as never, value };
      }),
    ),
  };
}

describe('parseDistinguishedName', () => {
  it.each<[string, DistinguishedName]>([
    ['CN=foo', rdns('CN=foo')],
    ['CN=foo,O=Acme\\, Inc.,OU=Eng,C=US,ST=CA,L=SF', rdns('L=SF', 'ST=CA', 'C=US', 'OU=Eng', 'O=Acme, Inc.', 'CN=foo')],
    ['O=Acme,CN=foo', rdns('CN=foo', 'O=Acme')],
    ['  cn = foo ,  o =  Acme  ', rdns('O=Acme', 'CN=foo')],
    ['Cn=foo,c=us', rdns('C=US', 'CN=foo')],
    ['CN=a\\\\b', { rdns: [[{ key: 'CN', value: 'a\\b' }]] }],
    ['CN=x=y', { rdns: [[{ key: 'CN', value: 'x=y' }]] }],
    ['CN=trailing\\,', { rdns: [[{ key: 'CN', value: 'trailing,' }]] }],
    ['CN=a+OU=b,O=Example', rdns('O=Example', 'OU=b+CN=a')],
    ['OU=b + cn=a,O=Example', rdns('O=Example', 'CN=a+OU=b')],
    ['OU=Eng,OU=Ops,CN=x', rdns('CN=x', 'OU=Ops', 'OU=Eng')],
    ['O=A\\+B,CN=x', { rdns: [[{ key: 'CN', value: 'x' }], [{ key: 'O', value: 'A+B' }]] }],
    ['O=A+B,CN=x', { rdns: [[{ key: 'CN', value: 'x' }], [{ key: 'O', value: 'A+B' }]] }],
    ['CN=Zoë Ünïcødé,O=株式会社テスト,L=Zürich', rdns('L=Zürich', 'O=株式会社テスト', 'CN=Zoë Ünïcødé')],
  ])('parses %j', (input, expected) => {
    expect(parseDistinguishedName(input)).toEqual(expected);
  });

  it.each<[string, RegExp]>([
    ['', /empty/],
    ['   ', /empty/],
    ['CN=foo,', /component 2 is empty/],
    ['CN=foo,,O=bar', /component 2 is empty/],
    ['CN', /"CN" is not of the form key=value/],
    ['CN=foo,Acme', /"Acme" is not of the form key=value/],
    ['emailAddress=a@b.example', /Unsupported distinguished name attribute "emailAddress"/],
    ['DC=example', /Unsupported .* "DC"; allowed: CN, OU, O, L, ST, C/],
    ['=foo', /Unsupported distinguished name attribute \(empty\)/],
    ['CN=', /CN has an empty value/],
    ['CN=  ,O=x', /CN has an empty value/],
    ['CN=a,cn=b', /CN appears more than once/],
    ['C=USA', /Country \(C\) must be exactly 2 letters.*"USA"/],
    ['C=U', /exactly 2 letters/],
    ['C=1A', /exactly 2 letters/],
    ['CN=foo\\', /CN ends with a dangling escape/],
    ['CN=a\u0000b', /CN contains control characters/],
    [`CN=${'x'.repeat(65)}`, /CN is 65 characters long; the maximum is 64/],
  ])('rejects %j', (input, message) => {
    const error = parseError(input);
    expect(error.code).toBe('invalid_distinguished_name');
    expect(error.message).toMatch(message);
  });

  it('counts characters, not bytes, against the length limits', () => {
    expect(commonNameOf(parseDistinguishedName(`CN=${'ü'.repeat(64)}`))).toHaveLength(64);
  });
});

describe('formatDistinguishedName', () => {
  it('renders the last RDN first and escapes commas, plus signs and backslashes', () => {
    expect(formatDistinguishedName(validateDistinguishedName({ C: 'US', O: 'Acme, Inc.', CN: 'foo' }))).toBe('CN=foo,O=Acme\\, Inc.,C=US');
    expect(formatDistinguishedName(validateDistinguishedName({ CN: 'a\\b', O: 'A+B' }))).toBe('CN=a\\\\b,O=A\\+B');
    expect(formatDistinguishedName(rdns('CN=api', 'O=Example'))).toBe('O=Example,CN=api');
  });

  it.each([
    'CN=foo,OU=Eng,O=Acme\\, Inc.,L=SF,ST=CA,C=US',
    'CN=Zoë\\, Ü,O=株式会社',
    'CN=a\\\\\\,b=c',
    'O=Example,CN=api.example.com',
    'CN=a+OU=b,O=Example',
    'C=US,OU=Ops,OU=Eng,CN=x',
  ])('round-trips %j', (text) => {
    expect(formatDistinguishedName(parseDistinguishedName(text))).toBe(text);
  });
});

describe('validateDistinguishedName', () => {
  it('normalises fields into RDNs, most significant first', () => {
    expect(validateDistinguishedName({ CN: ' foo ', C: 'de' })).toEqual(rdns('C=DE', 'CN=foo'));
  });

  it('rejects unknown keys, empty names and a second CN', () => {
    expect(() => validateDistinguishedName({ cn: 'lowercase key' } as DistinguishedNameFields)).toThrow(
      /Unsupported distinguished name attribute "cn"/,
    );
    expect(() => validateDistinguishedName({})).toThrow(/no attributes/);
    expect(() => validateDistinguishedName(rdns('CN=a', 'CN=b'))).toThrow(/CN appears more than once/);
  });
});

describe('withCommonName', () => {
  it('replaces the CN where it stands, or adds it as the last RDN', () => {
    expect(formatDistinguishedName(withCommonName(parseDistinguishedName('O=Example,CN=old,C=US'), 'new'))).toBe('O=Example,CN=new,C=US');
    expect(formatDistinguishedName(withCommonName(parseDistinguishedName('O=Example'), 'new'))).toBe('CN=new,O=Example');
    expect(formatDistinguishedName(withCommonName(parseDistinguishedName('CN=old+OU=x,O=Example'), 'new'))).toBe('CN=new+OU=x,O=Example');
  });
});

describe('distinguishedNameAttributes', () => {
  it('lists attributes in encoding order (the reverse of the string)', () => {
    const name = parseDistinguishedName('CN=foo,OU=Eng,O=Acme,L=SF,ST=CA,C=US');
    expect(distinguishedNameAttributes(name).map(({ key }) => key)).toEqual(['C', 'ST', 'L', 'O', 'OU', 'CN']);
    expect(distinguishedNameAttributes(parseDistinguishedName('O=Acme,CN=foo')).map(({ key }) => key)).toEqual(['CN', 'O']);
  });
});

describe('X.509 name conversion', () => {
  const decode = (der: Uint8Array) => decodeDistinguishedName(readRoot(der, 0x30, 'Name'));

  it('round-trips through the encoded form, non-ASCII included', () => {
    const name = parseDistinguishedName('CN=Zoë,O=Acme\\, Inc.,C=CH');
    const { der } = encodeDistinguishedName(name);
    expect(decode(der)).toEqual(name);
    expect(formatX509Name(new Name(der))).toBe('CN=Zoë,O=Acme\\, Inc.,C=CH');
  });

  it('keeps RDN order, multi-valued RDNs and repeated attributes', () => {
    for (const text of ['O=Example,CN=api', 'CN=a+OU=b,O=Example', 'OU=b,OU=a,CN=x']) {
      const { der } = encodeDistinguishedName(parseDistinguishedName(text));
      expect(formatDistinguishedName(decode(der))).toBe(text);
      expect(formatX509Name(new Name(der))).toBe(text);
    }
  });

  it('groups a multi-valued RDN by attribute type, in the order each type first appears', () => {
    const name = {
      rdns: [
        [
          { key: 'OU', value: 'b' },
          { key: 'CN', value: 'x' },
          { key: 'OU', value: 'a' },
        ],
      ],
    } as const;
    const encoded = encodeDistinguishedName(name);
    expect(encoded.name).toEqual({
      rdns: [
        [
          { key: 'OU', value: 'b' },
          { key: 'OU', value: 'a' },
          { key: 'CN', value: 'x' },
        ],
      ],
    });
    expect(decode(encoded.der)).toEqual(encoded.name);
  });

  it('encodes the country as PrintableString and the rest as UTF8String', () => {
    const { der } = encodeDistinguishedName(parseDistinguishedName('CN=Zoë,C=CH'));
    expect(Buffer.from(der).toString('hex')).toBe('301c310b3009060355040613024348310d300b06035504030c045a6fc3ab');
  });

  it('reads the directory string types and IA5String, and keeps any other type visible as #hex', () => {
    const attribute = (tag: number, bytes: number[]) => [
      0x30,
      5 + 2 + bytes.length,
      0x06,
      0x03,
      0x55,
      0x04,
      0x03,
      tag,
      bytes.length,
      ...bytes,
    ];
    const name = (tag: number, bytes: number[]) => {
      const atv = attribute(tag, bytes);
      return Uint8Array.from([0x30, atv.length + 2, 0x31, atv.length, ...atv]);
    };
    const commonName = (der: Uint8Array) => decode(der).rdns[0][0].value;
    expect(commonName(name(0x13, [0x61, 0x62]))).toBe('ab');
    expect(commonName(name(0x14, [0xe9]))).toBe('é');
    expect(commonName(name(0x16, [0x61]))).toBe('a');
    expect(commonName(name(0x1e, [0x00, 0xe9, 0x4e, 0x2d]))).toBe('é中');
    expect(commonName(name(0x1c, [0, 0, 0, 0x7a]))).toBe('z');
    expect(commonName(name(0x0c, [0xc3, 0xa9]))).toBe('é');
    expect(commonName(name(0x12, [0x31, 0x32]))).toBe('#12023132');
  });

  it('rejects attributes it does not support, or a second CN, but still renders them', () => {
    const foreign = new Name('CN=foo, E=admin@example.com');
    expect(() => decode(new Uint8Array(foreign.toArrayBuffer()))).toThrow(/Unsupported distinguished name attribute "E"/);
    expect(formatX509Name(foreign)).toBe('E=admin@example.com,CN=foo');
    expect(() => decode(new Uint8Array(new Name('CN=a, CN=b').toArrayBuffer()))).toThrow(/CN appears more than once/);
    expect(() => decode(new Uint8Array(new Name('CN=a, 1.2.3.4=x').toArrayBuffer()))).toThrow(
      /Unsupported distinguished name attribute "1.2.3.4"/,
    );
  });
});
