import { randomBytes } from 'node:crypto';
import { X509EngineError } from './x509-error';

/**
 * 20 random bytes with the top bit cleared: 159 bits of entropy (CA/B Forum asks for at least 64)
 * and, because the sign bit is never set, the DER INTEGER needs no padding byte and stays within
 * RFC 5280's 20-octet limit.
 */
export const SERIAL_NUMBER_BYTES = 20;

/** RFC 5280 §4.1.2.2: serial numbers are positive integers of at most 20 octets (DER, sign included). */
const MAX_SERIAL_OCTETS = 20;

export class InvalidSerialNumberError extends X509EngineError<'invalid_serial_number'> {
  constructor(message: string) {
    super('invalid_serial_number', message);
  }
}

/** Generates a random positive serial number, as lowercase hex without leading zeros (the storage form). */
export function generateSerialNumber(): string {
  for (;;) {
    const bytes = randomBytes(SERIAL_NUMBER_BYTES);
    bytes[0] &= 0x7f;
    const hex = bytes.toString('hex').replace(/^0+/, '');
    if (hex !== '') {
      return hex;
    }
  }
}

/**
 * Validates a serial number given as hex (case-insensitive, optional `0x` prefix or `:` separators as
 * printed by OpenSSL) and returns the storage form: lowercase, no leading zeros.
 */
export function normalizeSerialNumber(serial: string): string {
  if (typeof serial !== 'string') {
    throw new InvalidSerialNumberError('Serial number must be a hex string');
  }
  const digits = serial.trim().replace(/^0x/i, '').replace(/:/g, '');
  if (!/^[0-9a-fA-F]+$/.test(digits)) {
    throw new InvalidSerialNumberError(`Serial number "${serial}" is not hexadecimal`);
  }
  const hex = digits.toLowerCase().replace(/^0+/, '');
  if (hex === '') {
    throw new InvalidSerialNumberError('Serial number must be positive, got zero');
  }
  if (positiveIntegerOctets(hex).length > MAX_SERIAL_OCTETS) {
    throw new InvalidSerialNumberError(`Serial number "${serial}" is longer than ${MAX_SERIAL_OCTETS} octets once DER-encoded`);
  }
  return hex;
}

/**
 * Minimal big-endian two's-complement octets of a positive integer given as hex: a 0x00 byte is
 * prepended when the top bit is set, otherwise DER would read the value as negative.
 */
export function positiveIntegerOctets(hex: string): Uint8Array {
  const stripped = hex.replace(/^0+/, '') || '0';
  const even = stripped.length % 2 === 0 ? stripped : `0${stripped}`;
  const bytes = Buffer.from(even, 'hex');
  return new Uint8Array(bytes[0] >= 0x80 ? Buffer.concat([Buffer.of(0), bytes]) : bytes);
}
