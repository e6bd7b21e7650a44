/**
 * A small DER reader and writer: just what the engine encodes and decodes (certificates, CRLs,
 * PKCS#10 requests). The reader is strict — definite, minimally encoded lengths, low tag numbers,
 * nothing past the end of an element — so a request is either read exactly or rejected. The writer
 * builds each TLV with one allocation and copies given bytes (public keys, issuer names) unchanged.
 */

export const DerTag = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OBJECT_IDENTIFIER: 0x06,
  ENUMERATED: 0x0a,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  TELETEX_STRING: 0x14,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  UNIVERSAL_STRING: 0x1c,
  BMP_STRING: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

/** Context-specific tag `[number]`, constructed (EXPLICIT, or IMPLICIT over a constructed type) or primitive. */
export function contextTag(number: number, constructed: boolean): number {
  return 0x80 | (constructed ? 0x20 : 0) | number;
}

/** Malformed DER; callers turn it into their own error with context. */
export class DerError extends Error {}

// ---------------------------------------------------------------------------------------------
// Writer

export function headerLength(contentLength: number): number {
  if (contentLength < 0x80) return 2;
  if (contentLength < 0x100) return 3;
  if (contentLength < 0x10000) return 4;
  if (contentLength < 0x1000000) return 5;
  return 6;
}

/** Writes a TLV header at `offset`; returns the offset after it. */
export function writeHeader(target: Buffer, tag: number, contentLength: number, offset = 0): number {
  target[offset] = tag;
  if (contentLength < 0x80) {
    target[offset + 1] = contentLength;
    return offset + 2;
  }
  const octets = headerLength(contentLength) - 2;
  target[offset + 1] = 0x80 | octets;
  for (let index = octets; index > 0; index--) {
    target[offset + 1 + index] = contentLength & 0xff;
    contentLength = Math.floor(contentLength / 256);
  }
  return offset + 2 + octets;
}

/** One TLV whose content is `content`. */
export function tlv(tag: number, content: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(headerLength(content.length) + content.length);
  out.set(content, writeHeader(out, tag, content.length));
  return out;
}

/** One constructed TLV whose content is `parts` concatenated. */
export function constructed(tag: number, parts: readonly Uint8Array[]): Buffer {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = Buffer.allocUnsafe(headerLength(length) + length);
  let offset = writeHeader(out, tag, length);
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function sequence(parts: readonly Uint8Array[]): Buffer {
  return constructed(DerTag.SEQUENCE, parts);
}

/** A SET OF in the order given (the engine keeps an RDN's attributes as it always encoded them). */
export function set(parts: readonly Uint8Array[]): Buffer {
  return constructed(DerTag.SET, parts);
}

/** `[number] EXPLICIT` around one element. */
export function explicit(number: number, element: Uint8Array): Buffer {
  return tlv(contextTag(number, true), element);
}

export const DER_NULL: Buffer = Buffer.of(DerTag.NULL, 0);
export const DER_TRUE: Buffer = Buffer.of(DerTag.BOOLEAN, 1, 0xff);

const oidCache = new Map<string, Buffer>();

/** An OBJECT IDENTIFIER from its dotted form (encodings are cached: the engine uses a few dozen). */
export function objectIdentifier(dotted: string): Buffer {
  let encoded = oidCache.get(dotted);
  if (encoded === undefined) {
    const arcs = dotted.split('.').map(Number);
    if (arcs.length < 2 || arcs.some((arc) => !Number.isSafeInteger(arc) || arc < 0) || arcs[0] > 2 || (arcs[0] < 2 && arcs[1] > 39)) {
      throw new DerError(`Invalid object identifier ${dotted}`);
    }
    const octets: number[] = [];
    [arcs[0] * 40 + arcs[1], ...arcs.slice(2)].forEach((arc) => {
      const base128: number[] = [arc % 128];
      for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128)) base128.unshift(0x80 | (rest % 128));
      octets.push(...base128);
    });
    encoded = tlv(DerTag.OBJECT_IDENTIFIER, Uint8Array.from(octets));
    oidCache.set(dotted, encoded);
  }
  return encoded;
}

/** A non-negative INTEGER given as big-endian magnitude octets (leading zeros dropped, sign octet added). */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  if (trimmed.length === 0) return Buffer.of(DerTag.INTEGER, 1, 0);
  if (trimmed[0] >= 0x80) return tlv(DerTag.INTEGER, Buffer.concat([Buffer.of(0), trimmed]));
  return tlv(DerTag.INTEGER, trimmed);
}

/** A non-negative INTEGER given as hex digits (e.g. a serial number). */
export function integerFromHex(hex: string): Buffer {
  return unsignedInteger(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'));
}

export function smallInteger(value: number): Buffer {
  return integerFromHex(value.toString(16));
}

/** BIT STRING of whole octets (no unused bits). */
export function bitString(octets: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(headerLength(octets.length + 1) + octets.length + 1);
  const offset = writeHeader(out, DerTag.BIT_STRING, octets.length + 1);
  out[offset] = 0;
  out.set(octets, offset + 1);
  return out;
}

/** Named-bit BIT STRING (DER: trailing zero bits dropped); bit 0 is the most significant bit of the first octet. */
export function namedBits(bits: readonly number[]): Buffer {
  if (bits.length === 0) return Buffer.of(DerTag.BIT_STRING, 1, 0);
  const highest = Math.max(...bits);
  const octets = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) octets[bit >> 3] |= 0x80 >> (bit & 7);
  return tlv(DerTag.BIT_STRING, Buffer.concat([Buffer.of(7 - (highest & 7)), octets]));
}

export function octetString(octets: Uint8Array): Buffer {
  return tlv(DerTag.OCTET_STRING, octets);
}

export function utf8String(text: string): Buffer {
  return tlv(DerTag.UTF8_STRING, Buffer.from(text, 'utf8'));
}

/** PrintableString or IA5String: the caller has checked the text is ASCII of that alphabet. */
export function asciiString(tag: typeof DerTag.PRINTABLE_STRING | typeof DerTag.IA5_STRING, text: string): Buffer {
  return tlv(tag, Buffer.from(text, 'latin1'));
}

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050; whole seconds, `Z`. */
export function time(date: Date): Buffer {
  const out = Buffer.allocUnsafe(timeLength(date.getTime()));
  writeTime(out, 0, date.getTime());
  return out;
}

/** The encoded length of time(new Date(milliseconds)). */
export function timeLength(milliseconds: number): number {
  const year = new Date(milliseconds).getUTCFullYear();
  return year >= 1950 && year < 2050 ? 15 : 17;
}

/** Writes time(new Date(milliseconds)) at `offset` (large lists are written in place); returns the offset after it. */
export function writeTime(target: Buffer, offset: number, milliseconds: number): number {
  const date = new Date(milliseconds);
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) throw new DerError(`Cannot encode the year ${year}`);
  const utc = year >= 1950 && year < 2050;
  target[offset++] = utc ? DerTag.UTC_TIME : DerTag.GENERALIZED_TIME;
  target[offset++] = utc ? 13 : 15;
  if (!utc) offset = writeTwoDigits(target, offset, Math.floor(year / 100));
  offset = writeTwoDigits(target, offset, year % 100);
  offset = writeTwoDigits(target, offset, date.getUTCMonth() + 1);
  offset = writeTwoDigits(target, offset, date.getUTCDate());
  offset = writeTwoDigits(target, offset, date.getUTCHours());
  offset = writeTwoDigits(target, offset, date.getUTCMinutes());
  offset = writeTwoDigits(target, offset, date.getUTCSeconds());
  target[offset++] = 0x5a; // Z
  return offset;
}

function writeTwoDigits(target: Buffer, offset: number, value: number): number {
  target[offset] = 0x30 + Math.floor(value / 10);
  target[offset + 1] = 0x30 + (value % 10);
  return offset + 2;
}

/** The header of a TLV whose content is `contentLength` octets long (for content written separately). */
export function header(tag: number, contentLength: number): Buffer {
  const out = Buffer.allocUnsafe(headerLength(contentLength));
  writeHeader(out, tag, contentLength);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reader

/** One element of a DER buffer: `bytes[start, end)` is the whole TLV, `bytes[contentStart, end)` its content. */
export interface DerElement {
  readonly bytes: Uint8Array;
  readonly tag: number;
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

/** Reads the element starting at `offset`, which must end at or before `limit`. */
export function readElement(bytes: Uint8Array, offset: number, limit: number = bytes.length): DerElement {
  if (offset + 2 > limit) throw new DerError('truncated element');
  const tag = bytes[offset];
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-octet tags are not supported');
  let length = bytes[offset + 1];
  let contentStart = offset + 2;
  if (length >= 0x80) {
    const octets = length & 0x7f;
    if (octets === 0) throw new DerError('indefinite length is not DER');
    if (octets > 4) throw new DerError('length too large');
    if (contentStart + octets > limit) throw new DerError('truncated length');
    if (bytes[contentStart] === 0) throw new DerError('length is not minimally encoded');
    length = 0;
    for (let index = 0; index < octets; index++) length = length * 256 + bytes[contentStart + index];
    if (length < 0x80) throw new DerError('length is not minimally encoded');
    contentStart += octets;
  }
  const end = contentStart + length;
  if (end > limit) throw new DerError('element runs past its container');
  return { bytes, tag, start: offset, contentStart, end };
}

/** Reads a whole buffer as exactly one element of `tag`. */
export function readRoot(bytes: Uint8Array, tag: number, what: string): DerElement {
  const element = expectTag(readElement(bytes, 0), tag, what);
  if (element.end !== bytes.length) throw new DerError(`data after the ${what}`);
  return element;
}

export function expectTag(element: DerElement | undefined, tag: number, what: string): DerElement {
  if (element === undefined) throw new DerError(`${what}: missing`);
  if (element.tag !== tag) {
    throw new DerError(`${what}: expected tag 0x${tag.toString(16)}, found 0x${element.tag.toString(16)}`);
  }
  return element;
}

/** The elements inside a constructed element. */
export function children(element: DerElement): DerElement[] {
  if ((element.tag & 0x20) === 0) throw new DerError(`tag 0x${element.tag.toString(16)} is not constructed`);
  const result: DerElement[] = [];
  for (let offset = element.contentStart; offset < element.end;) {
    const child = readElement(element.bytes, offset, element.end);
    result.push(child);
    offset = child.end;
  }
  return result;
}

/** The elements of a constructed element, checked against the tags expected (in order). */
export function childrenTagged(element: DerElement, tags: readonly number[], what: string): DerElement[] {
  const items = children(element);
  if (items.length !== tags.length) throw new DerError(`${what}: expected ${tags.length} elements, found ${items.length}`);
  items.forEach((item, index) => expectTag(item, tags[index], what));
  return items;
}

export function content(element: DerElement): Uint8Array {
  return element.bytes.subarray(element.contentStart, element.end);
}

/** The whole TLV of an element, as the same bytes (no copy). */
export function encoded(element: DerElement): Uint8Array {
  return element.bytes.subarray(element.start, element.end);
}

export function readObjectIdentifier(element: DerElement, what: string): string {
  const octets = content(expectTag(element, DerTag.OBJECT_IDENTIFIER, what));
  if (octets.length === 0 || octets[octets.length - 1] & 0x80) throw new DerError(`${what}: malformed object identifier`);
  const arcs: number[] = [];
  let value = 0;
  for (let index = 0; index < octets.length; index++) {
    if (value === 0 && octets[index] === 0x80) throw new DerError(`${what}: object identifier arc is not minimally encoded`);
    value = value * 128 + (octets[index] & 0x7f);
    if (!Number.isSafeInteger(value)) throw new DerError(`${what}: object identifier arc too large`);
    if ((octets[index] & 0x80) === 0) {
      if (arcs.length === 0) arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else arcs.push(value);
      value = 0;
    }
  }
  return arcs.join('.');
}

/** The content octets of a BIT STRING that has no unused bits (keys, signatures). */
export function readBitStringOctets(element: DerElement, what: string): Uint8Array {
  const octets = content(expectTag(element, DerTag.BIT_STRING, what));
  if (octets.length === 0 || octets[0] !== 0) throw new DerError(`${what}: expected a BIT STRING of whole octets`);
  return octets.subarray(1);
}

/** A non-negative INTEGER small enough for a JavaScript number (versions, salt lengths). */
export function readSmallInteger(element: DerElement, what: string): number {
  const octets = content(expectTag(element, DerTag.INTEGER, what));
  if (octets.length === 0 || octets.length > 6) throw new DerError(`${what}: integer out of range`);
  if (octets.length > 1 && ((octets[0] === 0 && octets[1] < 0x80) || (octets[0] === 0xff && octets[1] >= 0x80))) {
    throw new DerError(`${what}: integer is not minimally encoded`);
  }
  if (octets[0] & 0x80) throw new DerError(`${what}: negative integer`);
  let value = 0;
  for (const octet of octets) value = value * 256 + octet;
  return value;
}
