import {
  asciiString,
  children,
  content,
  type DerElement,
  DerError,
  DerTag,
  encoded,
  expectTag,
  objectIdentifier,
  readObjectIdentifier,
  sequence,
  set,
  utf8String,
} from './der';
import { type Name } from './x509-runtime';
import { X509EngineError } from './x509-error';

/**
 * The supported attributes. A name built from fields (DistinguishedNameFields) is encoded in this
 * order: X.509 convention, most significant first (country down to common name).
 */
export const DISTINGUISHED_NAME_KEYS = ['C', 'ST', 'L', 'O', 'OU', 'CN'] as const;

export type DistinguishedNameKey = (typeof DISTINGUISHED_NAME_KEYS)[number];

export interface DistinguishedNameAttribute {
  readonly key: DistinguishedNameKey;
  readonly value: string;
}

/** One RDN: a single attribute, or several for a multi-valued RDN (`CN=a+OU=b`). */
export type RelativeDistinguishedName = readonly DistinguishedNameAttribute[];

/**
 * A subject or issuer name: its RDNs in encoding order (most significant first, as they appear in
 * the certificate), kept exactly as given so a CSR's or a caller's order survives issuance.
 * Attributes may repeat (two OUs), except CN, which a name holds at most once.
 */
export interface DistinguishedName {
  readonly rdns: readonly RelativeDistinguishedName[];
}

/** A name given as fields, at most one value each; encoded in DISTINGUISHED_NAME_KEYS order. */
export type DistinguishedNameFields = { readonly [K in DistinguishedNameKey]?: string };

export class InvalidDistinguishedNameError extends X509EngineError<'invalid_distinguished_name'> {
  constructor(message: string) {
    super('invalid_distinguished_name', message);
  }
}

const ATTRIBUTE_OIDS: Readonly<Record<DistinguishedNameKey, string>> = {
  C: '2.5.4.6',
  ST: '2.5.4.8',
  L: '2.5.4.7',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  CN: '2.5.4.3',
};

/** Upper bounds from RFC 5280 Appendix A (ub-common-name etc.), counted in characters. */
const MAX_VALUE_LENGTH: Readonly<Record<DistinguishedNameKey, number>> = {
  C: 2,
  ST: 128,
  L: 128,
  O: 64,
  OU: 64,
  CN: 64,
};

const KEYS_BY_NAME = new Map<string, DistinguishedNameKey>(DISTINGUISHED_NAME_KEYS.map((key) => [key, key]));
/** Short names for attributes read from encoded names (those @peculiar/x509 names too), so messages name them the same way. */
const KNOWN_ATTRIBUTE_NAMES = new Map<string, string>([
  ...DISTINGUISHED_NAME_KEYS.map((key) => [ATTRIBUTE_OIDS[key], key] as const),
  ['0.9.2342.19200300.100.1.25', 'DC'],
  ['1.2.840.113549.1.9.1', 'E'],
  ['2.5.4.42', 'G'],
  ['2.5.4.43', 'I'],
  ['2.5.4.4', 'SN'],
  ['2.5.4.12', 'T'],
]);
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ALLOWED_KEYS_TEXT = [...DISTINGUISHED_NAME_KEYS].reverse().join(', ');
// eslint-disable-next-line no-control-regex -- rejecting control characters in a name is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Parses `CN=foo,O=Acme\, Inc.,C=US`. The string is the encoding read backwards (RFC 4514, and
 * attributes within a multi-valued RDN too, as `openssl -nameopt RFC2253` shows them).
 * Components split on unescaped commas, the attributes of a multi-valued RDN on unescaped `+`
 * (`CN=a+OU=b`); keys are case-insensitive, spaces around keys and values ignored, and `\x` stands
 * for the character x. A `+` not followed by a supported `key=` belongs to the value, so names
 * stored before `+` was escaped still parse.
 */
export function parseDistinguishedName(input: string): DistinguishedName {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new InvalidDistinguishedNameError('Distinguished name is empty');
  }
  const rdns = splitOnUnescaped(input, ',').map((rawComponent, index) => {
    const component = rawComponent.trim();
    if (component === '') {
      throw new InvalidDistinguishedNameError(`Distinguished name component ${index + 1} is empty (stray comma?)`);
    }
    const attributes = attributeTexts(component).map((text) => {
      const [rawKey, ...valueParts] = splitOnUnescaped(text, '=');
      if (valueParts.length === 0) {
        throw new InvalidDistinguishedNameError(`Distinguished name component "${text}" is not of the form key=value`);
      }
      const key = canonicalKey(rawKey.trim());
      return { key, value: unescapeValue(key, valueParts.join('=').trim()) };
    });
    return attributes.reverse();
  });
  return validateDistinguishedName({ rdns: rdns.reverse() });
}

/**
 * Checks a name and returns its normalised copy (values trimmed, country upper-cased); fields are
 * turned into RDNs in DISTINGUISHED_NAME_KEYS order. Rejects unknown keys, empty or over-long
 * values, control characters, a country that is not two letters and a repeated CN.
 */
export function validateDistinguishedName(name: DistinguishedName | DistinguishedNameFields): DistinguishedName {
  if (name === null || typeof name !== 'object') {
    throw new InvalidDistinguishedNameError('Distinguished name must be an object');
  }
  const rdns = 'rdns' in name && Array.isArray(name.rdns) ? name.rdns : fieldRdns(name as DistinguishedNameFields);
  const result = rdns.map((rdn) => {
    if (!Array.isArray(rdn) || rdn.length === 0) {
      throw new InvalidDistinguishedNameError('Distinguished name has an empty RDN');
    }
    return rdn.map(({ key: rawKey, value }) => {
      const key = typeof rawKey === 'string' ? KEYS_BY_NAME.get(rawKey) : undefined;
      if (key === undefined) {
        throw new InvalidDistinguishedNameError(`Unsupported distinguished name attribute "${rawKey}"; allowed: ${ALLOWED_KEYS_TEXT}`);
      }
      if (typeof value !== 'string') {
        throw new InvalidDistinguishedNameError(`Distinguished name attribute ${key} must be a string`);
      }
      return { key, value: validateValue(key, value.trim()) };
    });
  });
  if (result.length === 0) {
    throw new InvalidDistinguishedNameError('Distinguished name has no attributes');
  }
  if (result.flat().filter(({ key }) => key === 'CN').length > 1) {
    throw new InvalidDistinguishedNameError('Distinguished name attribute CN appears more than once');
  }
  return { rdns: result };
}

function fieldRdns(fields: DistinguishedNameFields): DistinguishedNameAttribute[][] {
  for (const rawKey of Object.keys(fields)) {
    if (!KEYS_BY_NAME.has(rawKey)) {
      throw new InvalidDistinguishedNameError(`Unsupported distinguished name attribute "${rawKey}"; allowed: ${ALLOWED_KEYS_TEXT}`);
    }
  }
  return DISTINGUISHED_NAME_KEYS.flatMap((key) => (fields[key] === undefined ? [] : [[{ key, value: fields[key] }]]));
}

/** The attributes in encoding order (most significant first), multi-valued RDNs flattened. */
export function distinguishedNameAttributes(name: DistinguishedName): DistinguishedNameAttribute[] {
  return name.rdns.flat();
}

/** The name's common name, if it has one. */
export function commonNameOf(name: DistinguishedName): string | undefined {
  return distinguishedNameAttributes(name).find(({ key }) => key === 'CN')?.value;
}

/** The name with its CN replaced in place, or, without one, added as the last (most specific) RDN. */
export function withCommonName(name: DistinguishedName, commonName: string): DistinguishedName {
  const replaced = name.rdns.map((rdn) =>
    rdn.map((attribute) => (attribute.key === 'CN' ? { key: 'CN' as const, value: commonName } : attribute)),
  );
  const rdns = commonNameOf(name) === undefined ? [...replaced, [{ key: 'CN' as const, value: commonName }]] : replaced;
  return validateDistinguishedName({ rdns });
}

/**
 * Renders `CN=foo,O=Acme\, Inc.,C=US`: the encoding read backwards, multi-valued RDNs joined with
 * `+` (what `openssl -nameopt RFC2253` prints); the inverse of parseDistinguishedName.
 */
export function formatDistinguishedName(name: DistinguishedName): string {
  return formatRdns(name.rdns.map((rdn) => rdn.map(({ key, value }) => ({ type: key, value }))));
}

/** A name as the engine encodes it: the DER `Name`, and the name in the order it was encoded. */
export interface EncodedDistinguishedName {
  readonly der: Buffer;
  /** The same attributes, a multi-valued RDN's grouped by type as they were encoded (what a reader sees). */
  readonly name: DistinguishedName;
}

/**
 * Encodes the RDNs in the name's order; a multi-valued RDN lists its attributes grouped by type, in
 * the order each type first appears. The country is a PrintableString (RFC 5280 requires it);
 * everything else is UTF8String so any script round-trips.
 */
export function encodeDistinguishedName(name: DistinguishedName): EncodedDistinguishedName {
  const rdns = name.rdns.map(groupByType);
  const der = sequence(
    rdns.map((rdn) =>
      set(
        rdn.map(({ key, value }) =>
          sequence([objectIdentifier(ATTRIBUTE_OIDS[key]), key === 'C' ? asciiString(DerTag.PRINTABLE_STRING, value) : utf8String(value)]),
        ),
      ),
    ),
  );
  return { der, name: { rdns } };
}

/**
 * Reads a DER `Name` back, RDN order kept and a multi-valued RDN's attributes grouped by type (as
 * encodeDistinguishedName writes them). Strict: a name using other attributes cannot be represented
 * and is rejected (InvalidDistinguishedNameError); malformed DER raises DerError.
 */
export function decodeDistinguishedName(element: DerElement): DistinguishedName {
  const rdns = children(expectTag(element, DerTag.SEQUENCE, 'Name')).map((rdnElement) => {
    const attributes = children(expectTag(rdnElement, DerTag.SET, 'RelativeDistinguishedName')).map((attribute) => {
      const items = children(expectTag(attribute, DerTag.SEQUENCE, 'AttributeTypeAndValue'));
      if (items.length !== 2) throw new DerError(`AttributeTypeAndValue: expected 2 elements, found ${items.length}`);
      const [typeElement, valueElement] = items;
      const oid = readObjectIdentifier(typeElement, 'attribute type');
      return { type: KNOWN_ATTRIBUTE_NAMES.get(oid) ?? oid, value: attributeValueText(valueElement) };
    });
    return groupByType(attributes.map(({ type, value }) => ({ key: type, value }))).map(({ key: type, value }) => {
      const key = KEYS_BY_NAME.get(type);
      if (key === undefined) {
        throw new InvalidDistinguishedNameError(`Unsupported distinguished name attribute "${type}"; allowed: ${ALLOWED_KEYS_TEXT}`);
      }
      return { key, value };
    });
  });
  return validateDistinguishedName({ rdns });
}

function groupByType<Key extends string>(rdn: readonly { key: Key; value: string }[]): { key: Key; value: string }[] {
  if (rdn.length < 2) return [...rdn];
  const groups = new Map<Key, { key: Key; value: string }[]>();
  for (const attribute of rdn) {
    const group = groups.get(attribute.key);
    if (group === undefined) groups.set(attribute.key, [attribute]);
    else group.push(attribute);
  }
  return [...groups.values()].flat();
}

/**
 * An attribute value as text. The directory string types and IA5String are decoded (UTF8String as
 * UTF-8, falling back to Latin-1 when invalid; BMPString as UTF-16; UniversalString keeping each
 * character's low 16 bits; the others octet for octet); any other type is `#` and the hex of its
 * whole encoding, so it can never pass as a plain value by accident.
 */
function attributeValueText(element: DerElement): string {
  const octets = content(element);
  switch (element.tag) {
    case DerTag.UTF8_STRING:
      try {
        return STRICT_UTF8.decode(octets);
      } catch {
        return Buffer.from(octets).toString('latin1');
      }
    case DerTag.PRINTABLE_STRING:
    case DerTag.TELETEX_STRING:
    case DerTag.IA5_STRING:
      return Buffer.from(octets).toString('latin1');
    case DerTag.BMP_STRING: {
      let text = '';
      for (let index = 0; index + 1 < octets.length; index += 2) text += String.fromCharCode((octets[index] << 8) | octets[index + 1]);
      return text;
    }
    case DerTag.UNIVERSAL_STRING: {
      let text = '';
      for (let index = 0; index + 3 < octets.length; index += 4) text += String.fromCharCode((octets[index + 2] << 8) | octets[index + 3]);
      return text;
    }
    default:
      return `#${Buffer.from(encoded(element)).toString('hex')}`;
  }
}

/**
 * Renders any encoded name in the same style as formatDistinguishedName (reverse encoding order,
 * commas escaped), falling back to the library's short name or the OID for other attributes.
 * Used for display of certificates the engine did not necessarily issue.
 */
export function formatX509Name(name: Name): string {
  return formatRdns(readRdns(name));
}

function formatRdns(rdns: readonly (readonly RdnAttribute[])[]): string {
  return [...rdns]
    .reverse()
    .map((rdn) =>
      [...rdn]
        .reverse()
        .map(({ type, value }) => `${type}=${escapeValue(value)}`)
        .join('+'),
    )
    .join(',');
}

interface RdnAttribute {
  /** The library's short name (CN, O, …, E, DC) or the dotted OID for attributes it does not name. */
  readonly type: string;
  readonly value: string;
}

function readRdns(name: Name): RdnAttribute[][] {
  return name.toJSON().map((rdn) => Object.entries(rdn).flatMap(([type, values]) => values.map((value) => ({ type, value }))));
}

function canonicalKey(rawKey: string): DistinguishedNameKey {
  const key = KEYS_BY_NAME.get(rawKey.toUpperCase());
  if (key === undefined) {
    const shown = rawKey === '' ? '(empty)' : `"${rawKey}"`;
    throw new InvalidDistinguishedNameError(`Unsupported distinguished name attribute ${shown}; allowed: ${ALLOWED_KEYS_TEXT}`);
  }
  return key;
}

function validateValue(key: DistinguishedNameKey, value: string): string {
  if (value === '') {
    throw new InvalidDistinguishedNameError(`Distinguished name attribute ${key} has an empty value`);
  }
  if (CONTROL_CHARACTER.test(value)) {
    throw new InvalidDistinguishedNameError(`Distinguished name attribute ${key} contains control characters`);
  }
  if (key === 'C') {
    if (!/^[A-Za-z]{2}$/.test(value)) {
      throw new InvalidDistinguishedNameError(`Country (C) must be exactly 2 letters (ISO 3166 code), got "${value}"`);
    }
    return value.toUpperCase();
  }
  const length = [...value].length;
  if (length > MAX_VALUE_LENGTH[key]) {
    throw new InvalidDistinguishedNameError(
      `Distinguished name attribute ${key} is ${length} characters long; the maximum is ${MAX_VALUE_LENGTH[key]}`,
    );
  }
  return value;
}

/** Splits on `separator` where it is not preceded by an escaping backslash; escapes are kept verbatim. */
function splitOnUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\\' && index + 1 < text.length) {
      current += char + text[index + 1];
      index++;
    } else if (char === separator) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function unescapeValue(key: DistinguishedNameKey, raw: string): string {
  let value = '';
  for (let index = 0; index < raw.length; index++) {
    if (raw[index] !== '\\') {
      value += raw[index];
    } else if (index + 1 < raw.length) {
      value += raw[index + 1];
      index++;
    } else {
      throw new InvalidDistinguishedNameError(`Distinguished name attribute ${key} ends with a dangling escape character "\\"`);
    }
  }
  return value;
}

function escapeValue(value: string): string {
  return value.replace(/[\\,+]/g, (char) => `\\${char}`);
}

/** The `key=value` texts of one component: split on unescaped `+` where a supported key follows. */
function attributeTexts(component: string): string[] {
  const texts: string[] = [];
  for (const part of splitOnUnescaped(component, '+')) {
    const startsAttribute = /^\s*([A-Za-z]+)\s*=/.exec(part);
    if (texts.length > 0 && !(startsAttribute && KEYS_BY_NAME.has(startsAttribute[1].toUpperCase()))) {
      texts[texts.length - 1] += `+${part}`;
    } else {
      texts.push(part);
    }
  }
  return texts;
}
