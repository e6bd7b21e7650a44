import { bitString, DerTag, explicit, header, headerLength, sequence, smallInteger, time, timeLength, writeHeader, writeTime } from './der';
import { crlNumberExtension, reasonCodeExtension } from './extensions';
import { IssuanceError, loadIssuer } from './issuer';
import { type CryptoKey, signingKeyOf } from './key-pair';
import { type CertificateSource, CRL_PEM_LABEL, decodePem, encodePem } from './pem';
import { normalizeSerialNumber, positiveIntegerOctets } from './serial-number';
import { signatureSchemeFor, signData, verifySignature } from './signature';

/** RFC 5280 §5.3.1 CRLReason values (removeFromCRL is left out: it only exists in delta CRLs). */
export const REVOCATION_REASON_CODES = {
  unspecified: 0,
  keyCompromise: 1,
  cACompromise: 2,
  affiliationChanged: 3,
  superseded: 4,
  cessationOfOperation: 5,
  certificateHold: 6,
  privilegeWithdrawn: 9,
  aACompromise: 10,
} as const;

export type RevocationReason = keyof typeof REVOCATION_REASON_CODES;

export interface CrlEntry {
  /** Serial number of the revoked certificate, hex (as stored). */
  readonly serialHex: string;
  readonly revokedAt: Date;
  /**
   * Free-text reason as stored. When it names an RFC 5280 reason (case, `_`, `-` and spaces are
   * ignored, so `key_compromise` matches keyCompromise) the entry carries that reasonCode, any other
   * text carries unspecified, and no reason (null) carries none.
   */
  readonly reason?: string | null;
}

export interface CrlRequest {
  readonly issuerCertificate: CertificateSource;
  readonly issuerPrivateKey: CryptoKey;
  readonly entries: readonly CrlEntry[];
  readonly thisUpdate: Date;
  readonly nextUpdate: Date;
  /** Monotonically increasing CRL number (non-negative, at most 20 octets). */
  readonly crlNumber: number | bigint;
}

export interface BuiltCrl {
  readonly pem: string;
  readonly der: Uint8Array;
  readonly crlNumber: bigint;
  /** thisUpdate / nextUpdate as encoded (whole seconds). */
  readonly thisUpdate: Date;
  readonly nextUpdate: Date;
}

const MAX_CRL_NUMBER_OCTETS = 20;
const VERSION_2 = smallInteger(1);

const REASON_BY_NORMALISED_NAME = new Map<string, number>(
  Object.entries(REVOCATION_REASON_CODES).map(([name, code]) => [name.toLowerCase(), code]),
);

/** The RFC 5280 reason code a stored reason maps to: its named code, unspecified for other text, null for none. */
export function revocationReasonCode(reason: string | null | undefined): number | null {
  if (typeof reason !== 'string') {
    return null;
  }
  return REASON_BY_NORMALISED_NAME.get(reason.replace(/[\s_-]/g, '').toLowerCase()) ?? REVOCATION_REASON_CODES.unspecified;
}

/**
 * Builds and signs an X.509 v2 CRL with the AuthorityKeyIdentifier (the issuer's SKI) and CRL number
 * extensions, one entry per revoked serial, in the order given, with a reasonCode where it has a
 * reason. An entry without a reason has no crlEntryExtensions at all (RFC 5280: when present they
 * hold at least one extension).
 */
export async function buildCrl(request: CrlRequest): Promise<BuiltCrl> {
  const crlNumber = validateCrlNumber(request.crlNumber);
  const thisUpdate = wholeSeconds(request.thisUpdate, 'thisUpdate');
  const nextUpdate = wholeSeconds(request.nextUpdate, 'nextUpdate');
  if (nextUpdate <= thisUpdate) {
    throw new IssuanceError('invalid_crl_dates', 'nextUpdate must be later than thisUpdate');
  }
  const issuer = loadIssuer(request.issuerCertificate, 'crl');
  const signingKey = signingKeyOf(request.issuerPrivateKey);
  const scheme = signatureSchemeFor(signingKey.algorithm);

  const revoked = encodeRevokedCertificates(request.entries);

  const tbsCertList = sequence([
    VERSION_2,
    scheme.algorithmIdentifier,
    issuer.nameDer,
    time(thisUpdate),
    time(nextUpdate),
    // An empty list is left out rather than encoded empty (RFC 5280 §5.1.2.6).
    ...(revoked === null ? [] : [revoked]),
    explicit(0, sequence([issuer.authorityKeyIdentifier, crlNumberExtension(crlNumber.toString(16))])),
  ]);
  const signature = await signData(tbsCertList, signingKey);
  if (!(await verifySignature(tbsCertList, signature, issuer.publicKey, scheme))) {
    throw new IssuanceError('issuer_key_mismatch', `The signing key does not belong to the issuer certificate "${issuer.displayName}"`);
  }
  const der = new Uint8Array(sequence([tbsCertList, scheme.algorithmIdentifier, bitString(signature)]));
  return { pem: crlDerToPem(der), der, crlNumber, thisUpdate, nextUpdate };
}

export function crlDerToPem(der: Uint8Array): string {
  return encodePem(der, CRL_PEM_LABEL);
}

export function crlPemToDer(pem: string): Uint8Array {
  return decodePem(pem, CRL_PEM_LABEL);
}

/** A serial already in the storage form (lowercase hex, no leading zero) that fits 20 octets even with a sign octet. */
const STORED_SERIAL = /^(?:[1-9a-f][0-9a-f]{0,38}|[1-7][0-9a-f]{39})$/;

/**
 * revokedCertificates, or null when there are none (the field is then left out: RFC 5280 §5.1.2.6).
 * Written in one pass into one buffer: a CA's CRL can list a hundred thousand certificates.
 */
function encodeRevokedCertificates(entries: readonly CrlEntry[]): Buffer | null {
  if (entries.length === 0) return null;
  const serials = new Array<string>(entries.length);
  const times = new Array<number>(entries.length);
  const reasons = new Array<Buffer | null>(entries.length);
  const reasonExtensions = new Map<string | null | undefined, Buffer | null>();
  const seen = new Set<string>();
  let total = 0;
  entries.forEach((entry, index) => {
    const serialNumber = STORED_SERIAL.test(entry.serialHex) ? entry.serialHex : normalizeSerialNumber(entry.serialHex);
    if (seen.has(serialNumber)) {
      throw new IssuanceError('duplicate_serial', `Serial number ${serialNumber} appears more than once in the CRL entries`);
    }
    seen.add(serialNumber);
    const revokedAt = entry.revokedAt;
    const milliseconds = revokedAt instanceof Date ? revokedAt.getTime() : NaN;
    if (Number.isNaN(milliseconds)) {
      throw new IssuanceError('invalid_crl_dates', `revokedAt of ${serialNumber} must be a valid Date`);
    }
    let reason = reasonExtensions.get(entry.reason);
    if (reason === undefined) {
      const code = revocationReasonCode(entry.reason);
      reason = code === null ? null : sequence([reasonCodeExtension(code)]);
      reasonExtensions.set(entry.reason, reason);
    }
    serials[index] = serialNumber;
    times[index] = Math.floor(milliseconds / 1000) * 1000;
    reasons[index] = reason;
    const entryLength = 2 + serialOctets(serialNumber) + timeLength(times[index]) + (reason === null ? 0 : reason.length);
    total += headerLength(entryLength) + entryLength;
  });
  const out = Buffer.allocUnsafe(total);
  let offset = 0;
  for (let index = 0; index < entries.length; index++) {
    const serialNumber = serials[index];
    const reason = reasons[index];
    const octets = serialOctets(serialNumber);
    const entryLength = 2 + octets + timeLength(times[index]) + (reason === null ? 0 : reason.length);
    offset = writeHeader(out, DerTag.SEQUENCE, entryLength, offset);
    out[offset++] = DerTag.INTEGER;
    out[offset++] = octets;
    // An odd number of digits, or a top bit clear, needs no sign octet; a set top bit gets 0x00 first.
    if (serialNumber.length % 2 === 1) {
      offset += out.write(`0${serialNumber}`, offset, 'hex');
    } else {
      if (octets > serialNumber.length / 2) out[offset++] = 0;
      offset += out.write(serialNumber, offset, 'hex');
    }
    offset = writeTime(out, offset, times[index]);
    if (reason !== null) offset += reason.copy(out, offset);
  }
  return Buffer.concat([header(DerTag.SEQUENCE, total), out]);
}

/** Content octets of the INTEGER for a serial in storage form. */
function serialOctets(serialNumber: string): number {
  const odd = serialNumber.length % 2 === 1;
  return odd ? (serialNumber.length + 1) / 2 : serialNumber.length / 2 + (serialNumber.charCodeAt(0) >= 0x38 ? 1 : 0);
}

function validateCrlNumber(value: number | bigint): bigint {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new IssuanceError('invalid_crl_number', `crlNumber must be an integer, got ${value}`);
  }
  if (typeof value !== 'number' && typeof value !== 'bigint') {
    throw new IssuanceError('invalid_crl_number', 'crlNumber must be a number or a bigint');
  }
  const crlNumber = BigInt(value);
  if (crlNumber < 0n) {
    throw new IssuanceError('invalid_crl_number', `crlNumber must not be negative, got ${crlNumber}`);
  }
  if (positiveIntegerOctets(crlNumber.toString(16)).length > MAX_CRL_NUMBER_OCTETS) {
    throw new IssuanceError('invalid_crl_number', `crlNumber ${crlNumber} does not fit in ${MAX_CRL_NUMBER_OCTETS} octets`);
  }
  return crlNumber;
}

/** CRL times are encoded to the second; returning the truncated value keeps callers' copies exact. */
function wholeSeconds(date: Date, field: string): Date {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new IssuanceError('invalid_crl_dates', `${field} must be a valid Date`);
  }
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
