import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The notification id as it travels with an outbound email (the DSN envelope id, RFC 3461 ENVID,
 * and the X-Notification-ID header): `<id>.<tag>`, the tag a truncated HMAC-SHA256 of the id under
 * the worker's key. Delivery reports arrive unauthenticated over SMTP, so only an id whose tag
 * verifies is believed: sequential ids cannot be guessed into a forged bounce.
 */
const TAG_HEX = 32;

const tagOf = (id: number, key: Buffer) => createHmac('sha256', key).update(`notification:${id}`).digest('hex').slice(0, TAG_HEX);

export function signedTrackingId(id: number, key: Buffer): string {
  return `${id}.${tagOf(id, key)}`;
}

/** The notification id of a signed value; null when it is not one or its tag does not verify. */
export function verifiedTrackingId(value: string, key: Buffer): number | null {
  const match = /^([1-9]\d{0,9})\.([0-9a-f]+)$/.exec(value.trim().toLowerCase());
  if (!match) return null;
  const id = Number(match[1]);
  const given = Buffer.from(match[2], 'utf8');
  const expected = Buffer.from(tagOf(id, key), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
