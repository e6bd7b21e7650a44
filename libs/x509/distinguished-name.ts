import { Name, type JsonNameParams } from './x509-runtime';
import { X509EngineError } from './x509-error';

/**
 * The supported attributes, in the order they are encoded into a certificate: X.509 convention,
 * most significant first (country down to common name).
 */
export const DISTINGUISHED_NAME_KEYS = ['C', 'ST', 'L', 'O', 'OU', 'CN'] as const;

export type DistinguishedNameKey = (typeof DISTINGUISHED_NAME_KEYS)[number];

/** A subject or issuer name: at most one value per supported attribute. */
export type DistinguishedName = { readonly [K in DistinguishedNameKey]?: string };

export interface DistinguishedNameAttribute {
  readonly key: DistinguishedNameKey;
  readonly value: string;
}

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

/** RFC 4514 string order: least significant first, the reverse of the encoding order. */
const STRING_ORDER: readonly DistinguishedNameKey[] = [...DISTINGUISHED_NAME_KEYS].reverse();

const KEYS_BY_NAME = new Map<string, DistinguishedNameKey>(DISTINGUISHED_NAME_KEYS.map((key) => [key, key]));
const ALLOWED_KEYS_TEXT = STRING_ORDER.join(', ');
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Parses `CN=foo,O=Acme\, Inc.,C=US`: components split on unescaped commas, keys case-insensitive,
 * spaces around keys and values ignored, `\x` stands for the character x (so `\,` is a literal comma).
 */
export function parseDistinguishedName(input: string): DistinguishedName {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new InvalidDistinguishedNameError('Distinguished name is empty');
  }
  const result: Partial<Record<DistinguishedNameKey, string>> = {};
  splitOnUnescaped(input, ',').forEach((rawComponent, index) => {
    const component = rawComponent.trim();
    if (component === '') {
      throw new InvalidDistinguishedNameError(`Distinguished name component ${index + 1} is empty (stray comma?)`);
    }
    const [rawKey, ...valueParts] = splitOnUnescaped(component, '=');
    if (valueParts.length === 0) {
      throw new InvalidDistinguishedNameError(`Distinguished name component "${component}" is not of the form key=value`);
    }
    const key = canonicalKey(rawKey.trim());
    if (result[key] !== undefined) {
      throw new InvalidDistinguishedNameError(`Distinguished name attribute ${key} appears more than once`);
    }
    result[key] = unescapeValue(key, valueParts.join('=').trim());
  });
  return validateDistinguishedName(result);
}

/**
 * Checks a structured name and returns its normalised copy (values trimmed, country upper-cased).
 * Rejects unknown keys, empty or over-long values, control characters and a country that is not two letters.
 */
export function validateDistinguishedName(name: DistinguishedName): DistinguishedName {
  if (name === null || typeof name !== 'object') {
    throw new InvalidDistinguishedNameError('Distinguished name must be an object');
  }
  const result: Partial<Record<DistinguishedNameKey, string>> = {};
  for (const [rawKey, rawValue] of Object.entries(name)) {
    if (rawValue === undefined) {
      continue;
    }
    const key = KEYS_BY_NAME.get(rawKey);
    if (key === undefined) {
      throw new InvalidDistinguishedNameError(`Unsupported distinguished name attribute "${rawKey}"; allowed: ${ALLOWED_KEYS_TEXT}`);
    }
    if (typeof rawValue !== 'string') {
      throw new InvalidDistinguishedNameError(`Distinguished name attribute ${key} must be a string`);
    }
    result[key] = validateValue(key, rawValue.trim());
  }
  if (Object.keys(result).length === 0) {
    throw new InvalidDistinguishedNameError('Distinguished name has no attributes');
  }
  return result;
}

/** The attributes present, in encoding order (C, ST, L, O, OU, CN). */
export function distinguishedNameAttributes(name: DistinguishedName): DistinguishedNameAttribute[] {
  return DISTINGUISHED_NAME_KEYS.flatMap((key) => {
    const value = name[key];
    return value === undefined ? [] : [{ key, value }];
  });
}

/** Renders `CN=foo,O=Acme\, Inc.,C=US` (RFC 4514 order, CN first); the inverse of parseDistinguishedName. */
export function formatDistinguishedName(name: DistinguishedName): string {
  return STRING_ORDER.flatMap((key) => {
    const value = name[key];
    return value === undefined ? [] : [`${key}=${escapeValue(value)}`];
  }).join(',');
}

/**
 * Encodes the name in C, ST, L, O, OU, CN order, one attribute per RDN. The country is a
 * PrintableString (RFC 5280 requires it); everything else is UTF8String so any script round-trips.
 */
export function toX509Name(name: DistinguishedName): Name {
  const json: JsonNameParams = distinguishedNameAttributes(name).map(({ key, value }) => ({
    [ATTRIBUTE_OIDS[key]]: [key === 'C' ? { printableString: value } : { utf8String: value }],
  }));
  return new Name(json);
}

/**
 * Reads an encoded name back into the structured form. Strict: a name using other attributes,
 * multi-valued RDNs or repeated attributes cannot be represented and is rejected.
 */
export function fromX509Name(name: Name): DistinguishedName {
  const result: Partial<Record<DistinguishedNameKey, string>> = {};
  for (const rdn of readRdns(name)) {
    if (rdn.length !== 1) {
      throw new InvalidDistinguishedNameError(`Multi-valued RDN ${rdn.map(({ type }) => type).join('+')} is not supported`);
    }
    const [{ type, value }] = rdn;
    const key = KEYS_BY_NAME.get(type);
    if (key === undefined) {
      throw new InvalidDistinguishedNameError(`Unsupported distinguished name attribute "${type}"; allowed: ${ALLOWED_KEYS_TEXT}`);
    }
    if (result[key] !== undefined) {
      throw new InvalidDistinguishedNameError(`Distinguished name attribute ${key} appears more than once`);
    }
    result[key] = value;
  }
  return validateDistinguishedName(result);
}

/**
 * Renders any encoded name in the same style as formatDistinguishedName (reverse encoding order,
 * commas escaped), falling back to the library's short name or the OID for other attributes.
 * Used for display of certificates the engine did not necessarily issue.
 */
export function formatX509Name(name: Name): string {
  return readRdns(name)
    .reverse()
    .map((rdn) => rdn.map(({ type, value }) => `${type}=${escapeValue(value)}`).join('+'))
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
  return value.replace(/[\\,]/g, (char) => `\\${char}`);
}
