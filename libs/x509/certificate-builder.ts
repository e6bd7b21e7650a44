import { createHash } from 'node:crypto';
import { type CertificateInfo } from './certificate-reader';
import { bitString, explicit, integerFromHex, sequence, time } from './der';
import {
  commonNameOf,
  type DistinguishedName,
  type DistinguishedNameFields,
  encodeDistinguishedName,
  formatDistinguishedName,
  parseDistinguishedName,
  validateDistinguishedName,
} from './distinguished-name';
import {
  authorityInfoAccessExtension,
  basicConstraintsExtension,
  crlDistributionPointsExtension,
  type ExtendedKeyUsage,
  extendedKeyUsageExtension,
  KEY_USAGE_BITS,
  keyUsageExtension,
  subjectAltNameExtension,
  subjectKeyIdentifierExtension,
  subjectKeyIdentifierOf,
} from './extensions';
import { IssuanceError, type Issuer, loadIssuer } from './issuer';
import { type CertifiablePublicKey, type CryptoKey, publicKeyInfoOf, type PublicKeyInfo, signingKeyOf } from './key-pair';
import { certificateDerToPem, type CertificateSource } from './pem';
import { generateSerialNumber } from './serial-number';
import { signatureSchemeFor, signData, verifySignature } from './signature';
import { type CertificateProfile, resolveSubjectAltNames, type SubjectAltNames } from './subject-alt-names';

/**
 * notBefore is set this far in the past so relying parties whose clocks lag slightly behind ours
 * do not reject a certificate in the first moments of its life.
 */
export const NOT_BEFORE_BACKDATE_SECONDS = 60;

/** Sanity cap on requested validity (100 years). */
export const MAX_VALID_DAYS = 36_525;

const MS_PER_DAY = 86_400_000;
const URL_SCHEMES = ['http:', 'https:', 'ldap:'];

/** Where relying parties find the issuer's CRL, certificate and OCSP responder (CDP / AIA extensions). */
export interface IssuerUrls {
  readonly crlDistributionPointUrl?: string | null;
  readonly caIssuersUrl?: string | null;
  readonly ocspUrl?: string | null;
}

export interface CaCertificateRequest extends IssuerUrls {
  /** A name (RDNs kept in order), fields, or a string accepted by parseDistinguishedName. */
  readonly subject: DistinguishedName | DistinguishedNameFields | string;
  readonly publicKey: CertifiablePublicKey;
  /** The issuer's private key; for a self-signed root, the private half of `publicKey`. */
  readonly signingKey: CryptoKey;
  /** The issuing CA's certificate, or null for a self-signed root. */
  readonly issuer: CertificateSource | null;
  readonly validDays: number;
  /** basicConstraints pathLenConstraint; null leaves the depth unconstrained. */
  readonly pathLength: number | null;
}

export interface LeafCertificateRequest extends IssuerUrls {
  readonly subject: DistinguishedName | DistinguishedNameFields | string;
  /** A generated key, or parseCsr's publicKey (its SubjectPublicKeyInfo is copied into the certificate unchanged). */
  readonly publicKey: CertifiablePublicKey;
  readonly issuerCertificate: CertificateSource;
  readonly issuerPrivateKey: CryptoKey;
  readonly validDays: number;
  readonly profile: CertificateProfile;
  /** Requested SANs; resolveSubjectAltNames applies the profile rules (CN fallback, forbidden kinds). */
  readonly sans?: Partial<SubjectAltNames>;
}

export interface IssuedCertificate extends CertificateInfo {
  readonly pem: string;
  readonly der: Uint8Array;
}

const PROFILE_EXTENDED_KEY_USAGES: Readonly<Record<CertificateProfile, readonly ExtendedKeyUsage[]>> = {
  server: ['serverAuth'],
  client: ['clientAuth'],
  dual_purpose: ['serverAuth', 'clientAuth'],
};
const CA_KEY_USAGE = [KEY_USAGE_BITS.digitalSignature, KEY_USAGE_BITS.keyCertSign, KEY_USAGE_BITS.cRLSign];
// keyEncipherment means "the subject key decrypts a transported secret" — only RSA keys can.
const RSA_LEAF_KEY_USAGE = [KEY_USAGE_BITS.digitalSignature, KEY_USAGE_BITS.keyEncipherment];
const LEAF_KEY_USAGE = [KEY_USAGE_BITS.digitalSignature];
const NO_SANS: SubjectAltNames = { dns: [], ip: [], email: [] };

/**
 * Issues a CA certificate: basicConstraints CA:TRUE (critical, with pathLen when given), keyUsage
 * keyCertSign + cRLSign + digitalSignature (critical) and a SubjectKeyIdentifier. A subordinate CA
 * (issuer given) also gets AuthorityKeyIdentifier and the CDP / AIA URLs supplied.
 */
export async function buildCaCertificate(request: CaCertificateRequest): Promise<IssuedCertificate> {
  const subject = resolveSubject(request.subject);
  const pathLength = validatePathLength(request.pathLength);
  const issuer = request.issuer === null ? null : loadIssuer(request.issuer, 'ca_certificate');
  const validity = validityPeriod(request.validDays, issuer);
  const publicKey = publicKeyInfoOf(request.publicKey);
  const subjectKeyIdentifier = subjectKeyIdentifierOf(publicKey.der);
  const extensions = [
    basicConstraintsExtension(true, pathLength),
    keyUsageExtension(CA_KEY_USAGE),
    subjectKeyIdentifierExtension(subjectKeyIdentifier),
  ];
  if (issuer === null) {
    if (request.crlDistributionPointUrl || request.caIssuersUrl || request.ocspUrl) {
      throw new IssuanceError(
        'root_cannot_have_issuer_urls',
        'A self-signed root has no issuer, so it cannot carry CRL distribution point or AIA URLs',
      );
    }
  } else {
    extensions.push(...issuerLinkExtensions(issuer, request));
  }
  return signCertificate({
    subject,
    issuer,
    publicKey,
    signingKey: request.signingKey,
    validity,
    extensions,
    subjectKeyIdentifier,
    sans: NO_SANS,
    pathLength,
    isCa: true,
  });
}

/**
 * Issues an end-entity certificate: basicConstraints CA:FALSE (critical); keyUsage digitalSignature,
 * plus keyEncipherment for RSA keys only (critical); extendedKeyUsage from the profile; SANs after
 * resolveSubjectAltNames; SubjectKeyIdentifier, AuthorityKeyIdentifier and the CDP / AIA URLs supplied.
 * To sign a CSR, pass the public key returned by parseCsr.
 */
export async function buildLeafCertificate(request: LeafCertificateRequest): Promise<IssuedCertificate> {
  const subject = resolveSubject(request.subject);
  const publicKey = publicKeyInfoOf(request.publicKey);
  const sans = resolveSubjectAltNames(request.profile, commonNameOf(subject), request.sans);
  const issuer = loadIssuer(request.issuerCertificate, 'leaf_certificate');
  const validity = validityPeriod(request.validDays, issuer);
  const subjectKeyIdentifier = subjectKeyIdentifierOf(publicKey.der);
  const extensions = [
    basicConstraintsExtension(false, null),
    keyUsageExtension(publicKey.algorithm.type === 'rsa' ? RSA_LEAF_KEY_USAGE : LEAF_KEY_USAGE),
    extendedKeyUsageExtension(PROFILE_EXTENDED_KEY_USAGES[request.profile]),
    subjectKeyIdentifierExtension(subjectKeyIdentifier),
  ];
  if (sans.dns.length + sans.ip.length + sans.email.length > 0) {
    extensions.push(subjectAltNameExtension(sans));
  }
  extensions.push(...issuerLinkExtensions(issuer, request));
  return signCertificate({
    subject,
    issuer,
    publicKey,
    signingKey: request.issuerPrivateKey,
    validity,
    extensions,
    subjectKeyIdentifier,
    sans,
    pathLength: null,
    isCa: false,
  });
}

interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

interface SigningInput {
  readonly subject: DistinguishedName;
  /** null for a self-signed root. */
  readonly issuer: Issuer | null;
  readonly publicKey: PublicKeyInfo;
  readonly signingKey: CryptoKey;
  readonly validity: Validity;
  readonly extensions: readonly Buffer[];
  readonly subjectKeyIdentifier: Buffer;
  readonly sans: SubjectAltNames;
  readonly pathLength: number | null;
  readonly isCa: boolean;
}

/**
 * Encodes the TBSCertificate, signs it and checks the signature against the issuer's public key (the
 * subject's own for a root): a signing key that does not belong to the issuer would otherwise yield a
 * certificate nobody can validate. What the certificate says is returned from the inputs, which are
 * exactly what was encoded.
 */
async function signCertificate(input: SigningInput): Promise<IssuedCertificate> {
  const { issuer, publicKey, validity } = input;
  const signingKey = signingKeyOf(input.signingKey);
  const scheme = signatureSchemeFor(signingKey.algorithm);
  const subject = encodeDistinguishedName(input.subject);
  const serialNumber = generateSerialNumber();
  const tbsCertificate = sequence([
    VERSION_3,
    integerFromHex(serialNumber),
    scheme.algorithmIdentifier,
    // The issuer's subject is copied byte for byte so name chaining never depends on re-encoding.
    issuer?.nameDer ?? subject.der,
    sequence([time(validity.notBefore), time(validity.notAfter)]),
    subject.der,
    publicKey.der,
    explicit(3, sequence(input.extensions)),
  ]);
  const signature = await signData(tbsCertificate, signingKey);
  const verified = await verifySignature(tbsCertificate, signature, issuer?.publicKey ?? publicKey.keyObject, scheme);
  if (!verified) {
    throw new IssuanceError(
      'issuer_key_mismatch',
      issuer === null
        ? 'The signing key is not the private half of the self-signed certificate public key'
        : `The signing key does not belong to the issuer certificate "${issuer.displayName}"`,
    );
  }
  const der = sequence([tbsCertificate, scheme.algorithmIdentifier, bitString(signature)]);
  const subjectText = formatDistinguishedName(subject.name);
  return {
    subject: subjectText,
    issuer: issuer?.formattedName ?? subjectText,
    commonName: commonNameOf(subject.name) ?? null,
    serialNumber,
    notBefore: validity.notBefore,
    notAfter: validity.notAfter,
    sans: { dns: [...input.sans.dns], ip: [...input.sans.ip], email: [...input.sans.email] },
    subjectKeyIdentifier: input.subjectKeyIdentifier.toString('hex'),
    authorityKeyIdentifier: issuer?.keyIdentifier ?? null,
    isCa: input.isCa,
    pathLength: input.pathLength,
    fingerprintSha256: createHash('sha256').update(der).digest('hex'),
    pem: certificateDerToPem(der),
    der: new Uint8Array(der.buffer, der.byteOffset, der.byteLength),
  };
}

const VERSION_3 = explicit(0, Buffer.of(0x02, 0x01, 0x02));

function resolveSubject(subject: DistinguishedName | DistinguishedNameFields | string): DistinguishedName {
  return typeof subject === 'string' ? parseDistinguishedName(subject) : validateDistinguishedName(subject);
}

function validatePathLength(pathLength: number | null): number | null {
  if (pathLength === null) {
    return null;
  }
  if (!Number.isSafeInteger(pathLength) || pathLength < 0) {
    throw new IssuanceError('invalid_path_length', `pathLength must be null or a non-negative integer, got ${pathLength}`);
  }
  return pathLength;
}

/**
 * notBefore is now (to the second) minus the backdate; notAfter is validDays after notBefore, but
 * never past the issuer's notAfter: a certificate cannot be valid longer than the CA vouching for it.
 */
function validityPeriod(validDays: number, issuer: Issuer | null): Validity {
  if (!Number.isInteger(validDays) || validDays < 1 || validDays > MAX_VALID_DAYS) {
    throw new IssuanceError('invalid_validity', `validDays must be an integer between 1 and ${MAX_VALID_DAYS}, got ${validDays}`);
  }
  const now = Date.now();
  const notBefore = new Date((Math.floor(now / 1000) - NOT_BEFORE_BACKDATE_SECONDS) * 1000);
  const requested = notBefore.getTime() + validDays * MS_PER_DAY;
  if (issuer === null) return { notBefore, notAfter: new Date(requested) };
  const issuerNotAfter = issuer.notAfter.getTime();
  if (issuerNotAfter <= now) {
    throw new IssuanceError('issuer_expired', `Issuer "${issuer.displayName}" expired on ${issuer.notAfter.toISOString()}`);
  }
  return { notBefore, notAfter: new Date(Math.min(requested, issuerNotAfter)) };
}

function issuerLinkExtensions(issuer: Issuer, urls: IssuerUrls): Buffer[] {
  const extensions = [issuer.authorityKeyIdentifier];
  const crlUrl = optionalUrl('crlDistributionPointUrl', urls.crlDistributionPointUrl);
  const caIssuersUrl = optionalUrl('caIssuersUrl', urls.caIssuersUrl);
  const ocspUrl = optionalUrl('ocspUrl', urls.ocspUrl);
  if (crlUrl !== undefined) {
    extensions.push(crlDistributionPointsExtension(crlUrl));
  }
  if (caIssuersUrl !== undefined || ocspUrl !== undefined) {
    extensions.push(authorityInfoAccessExtension(ocspUrl, caIssuersUrl));
  }
  return extensions;
}

/** URLs end up in IA5String fields, so they must be plain ASCII; only schemes relying parties fetch are allowed. */
export function optionalUrl(field: string, value: string | null | undefined): string | undefined {
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  let scheme: string;
  try {
    scheme = new URL(value).protocol;
  } catch {
    throw new IssuanceError('invalid_url', `${field} "${value}" is not a valid URL`);
  }
  if (!URL_SCHEMES.includes(scheme) || !/^[\x21-\x7e]+$/.test(value)) {
    throw new IssuanceError('invalid_url', `${field} "${value}" must be an ASCII http, https or ldap URL`);
  }
  return value;
}
