import { assertSignatureVerifies, IssuanceError, loadIssuer } from './issuer';
import { type CryptoKey, signatureAlgorithmFor } from './key-pair';
import { type CertificateSource, CRL_PEM_LABEL, decodePem, encodePem } from './pem';
import { normalizeSerialNumber, positiveIntegerOctets } from './serial-number';
import { AuthorityKeyIdentifierExtension, cryptoEngine, Extension, X509CrlGenerator } from './x509-runtime';

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

const CRL_NUMBER_OID = '2.5.29.20';
const REASON_CODE_OID = '2.5.29.21';
const MAX_CRL_NUMBER_OCTETS = 20;
const DER_INTEGER_TAG = 0x02;
const DER_ENUMERATED_TAG = 0x0a;

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
 * Builds and signs an X.509 v2 CRL with the CRL number and AuthorityKeyIdentifier (the issuer's SKI)
 * extensions, one entry per revoked serial with a reasonCode where it has a reason.
 */
export async function buildCrl(request: CrlRequest): Promise<BuiltCrl> {
  const crlNumber = validateCrlNumber(request.crlNumber);
  const thisUpdate = wholeSeconds(request.thisUpdate, 'thisUpdate');
  const nextUpdate = wholeSeconds(request.nextUpdate, 'nextUpdate');
  if (nextUpdate <= thisUpdate) {
    throw new IssuanceError('invalid_crl_dates', 'nextUpdate must be later than thisUpdate');
  }
  const issuer = await loadIssuer(request.issuerCertificate, 'crl');

  const seen = new Set<string>();
  const entries = request.entries.map((entry) => {
    const serialNumber = normalizeSerialNumber(entry.serialHex);
    if (seen.has(serialNumber)) {
      throw new IssuanceError('duplicate_serial', `Serial number ${serialNumber} appears more than once in the CRL entries`);
    }
    seen.add(serialNumber);
    const reasonCode = revocationReasonCode(entry.reason);
    return {
      serialNumber,
      revocationDate: wholeSeconds(entry.revokedAt, `revokedAt of ${serialNumber}`),
      // Built by hand: the library skips a reason equal to 0 (unspecified) as falsy.
      extensions: reasonCode === null ? [] : [new Extension(REASON_CODE_OID, false, Uint8Array.of(DER_ENUMERATED_TAG, 1, reasonCode))],
    };
  });

  const crl = await X509CrlGenerator.create(
    {
      issuer: issuer.certificate.subjectName,
      thisUpdate,
      nextUpdate,
      entries,
      extensions: [
        new AuthorityKeyIdentifierExtension(issuer.keyIdentifier, false),
        new Extension(CRL_NUMBER_OID, false, derInteger(crlNumber)),
      ],
      signingKey: request.issuerPrivateKey,
      signingAlgorithm: signatureAlgorithmFor(request.issuerPrivateKey),
    },
    cryptoEngine,
  );
  // Verified against the issuer's public key, not its certificate: given a certificate the library
  // takes the certificate's own signature algorithm (its parent's), which fails when the key types differ.
  await assertSignatureVerifies(
    () => crl.verify({ publicKey: issuer.certificate.publicKey }, cryptoEngine),
    `The signing key does not belong to the issuer certificate "${issuer.certificate.subject}"`,
  );
  const der = new Uint8Array(crl.rawData);
  return { pem: crlDerToPem(der), der, crlNumber, thisUpdate, nextUpdate };
}

export function crlDerToPem(der: Uint8Array): string {
  return encodePem(der, CRL_PEM_LABEL);
}

export function crlPemToDer(pem: string): Uint8Array {
  return decodePem(pem, CRL_PEM_LABEL);
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

function derInteger(value: bigint): Uint8Array {
  const content = positiveIntegerOctets(value.toString(16));
  return Uint8Array.of(DER_INTEGER_TAG, content.length, ...content);
}

/** CRL times are encoded to the second; returning the truncated value keeps callers' copies exact. */
function wholeSeconds(date: Date, field: string): Date {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new IssuanceError('invalid_crl_dates', `${field} must be a valid Date`);
  }
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
