import {
  type DistinguishedName,
  distinguishedNameAttributes,
  formatDistinguishedName,
  formatX509Name,
  fromX509Name,
  InvalidDistinguishedNameError,
  parseDistinguishedName,
  toX509Name,
  validateDistinguishedName,
} from './distinguished-name';
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

describe('parseDistinguishedName', () => {
  it.each<[string, DistinguishedName]>([
    ['CN=foo', { CN: 'foo' }],
    ['CN=foo,O=Acme\\, Inc.,OU=Eng,C=US,ST=CA,L=SF', { CN: 'foo', O: 'Acme, Inc.', OU: 'Eng', C: 'US', ST: 'CA', L: 'SF' }],
    ['  cn = foo ,  o =  Acme  ', { CN: 'foo', O: 'Acme' }],
    ['Cn=foo,c=us', { CN: 'foo', C: 'US' }],
    ['CN=a\\\\b', { CN: 'a\\b' }],
    ['CN=x=y', { CN: 'x=y' }],
    ['CN=trailing\\,', { CN: 'trailing,' }],
    ['CN=Zoë Ünïcødé,O=株式会社テスト,L=Zürich', { CN: 'Zoë Ünïcødé', O: '株式会社テスト', L: 'Zürich' }],
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
    expect(parseDistinguishedName(`CN=${'ü'.repeat(64)}`).CN).toHaveLength(64);
  });
});

describe('formatDistinguishedName', () => {
  it('renders CN first and escapes commas and backslashes', () => {
    expect(formatDistinguishedName({ C: 'US', O: 'Acme, Inc.', CN: 'foo' })).toBe('CN=foo,O=Acme\\, Inc.,C=US');
    expect(formatDistinguishedName({ CN: 'a\\b' })).toBe('CN=a\\\\b');
  });

  it.each(['CN=foo,OU=Eng,O=Acme\\, Inc.,L=SF,ST=CA,C=US', 'CN=Zoë\\, Ü,O=株式会社', 'CN=a\\\\\\,b=c'])('round-trips %j', (text) => {
    expect(formatDistinguishedName(parseDistinguishedName(text))).toBe(text);
  });
});

describe('validateDistinguishedName', () => {
  it('normalises a structured name', () => {
    expect(validateDistinguishedName({ CN: ' foo ', C: 'de' })).toEqual({ CN: 'foo', C: 'DE' });
  });

  it('rejects unknown keys and empty names', () => {
    expect(() => validateDistinguishedName({ cn: 'lowercase key' } as DistinguishedName)).toThrow(/Unsupported distinguished name attribute "cn"/);
    expect(() => validateDistinguishedName({})).toThrow(/no attributes/);
  });
});

describe('distinguishedNameAttributes', () => {
  it('lists attributes most significant first (C, ST, L, O, OU, CN)', () => {
    const name = parseDistinguishedName('CN=foo,OU=Eng,O=Acme,L=SF,ST=CA,C=US');
    expect(distinguishedNameAttributes(name).map(({ key }) => key)).toEqual(['C', 'ST', 'L', 'O', 'OU', 'CN']);
  });
});

describe('X.509 name conversion', () => {
  it('round-trips through the encoded form, non-ASCII included', () => {
    const name = parseDistinguishedName('CN=Zoë,O=Acme\\, Inc.,C=CH');
    const encoded = new Name(toX509Name(name).toArrayBuffer());
    expect(fromX509Name(encoded)).toEqual(name);
    expect(formatX509Name(encoded)).toBe('CN=Zoë,O=Acme\\, Inc.,C=CH');
  });

  it('rejects names the structured form cannot hold, but still renders them', () => {
    const foreign = new Name('CN=foo, E=admin@example.com');
    expect(() => fromX509Name(foreign)).toThrow(/Unsupported distinguished name attribute "E"/);
    expect(formatX509Name(foreign)).toBe('E=admin@example.com,CN=foo');
    expect(() => fromX509Name(new Name('CN=a+OU=b'))).toThrow(/Multi-valued RDN/);
    expect(() => fromX509Name(new Name('OU=a, OU=b'))).toThrow(/OU appears more than once/);
  });
});
