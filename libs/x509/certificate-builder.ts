import { type CertificateInfo, certificatePem, describeCertificate } from './certificate-reader';
import {
  commonNameOf,
  type DistinguishedName,
  type DistinguishedNameFields,
  parseDistinguishedName,
  toX509Name,
  validateDistinguishedName,
} from './distinguished-name';
import { assertSignatureVerifies, IssuanceError, type Issuer, loadIssuer } from './issuer';
import { type CryptoKey, keyAlgorithmOf, signatureAlgorithmFor } from './key-pair';
import { type CertificateSource } from './pem';
import { generateSerialNumber } from './serial-number';
import { type CertificateProfile, resolveSubjectAltNames, type SubjectAltNames } from './subject-alt-names';
import {
  AuthorityInfoAccessExtension,
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  CRLDistributionPointsExtension,
  cryptoEngine,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  type Extension,
  KeyUsageFlags,
  KeyUsagesExtension,
  type Name,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509CertificateGenerator,
} from './x509-runtime';

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
  readonly publicKey: CryptoKey;
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
  readonly publicKey: CryptoKey;
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
  server: [ExtendedKeyUsage.serverAuth],
  client: [ExtendedKeyUsage.clientAuth],
  dual_purpose: [ExtendedKeyUsage.serverAuth, ExtendedKeyUsage.clientAuth],
};

/**
 * Issues a CA certificate: basicConstraints CA:TRUE (critical, with pathLen when given), keyUsage
 * keyCertSign + cRLSign + digitalSignature (critical) and a SubjectKeyIdentifier. A subordinate CA
 * (issuer given) also gets AuthorityKeyIdentifier and the CDP / AIA URLs supplied.
 */
export async function buildCaCertificate(request: CaCertificateRequest): Promise<IssuedCertificate> {
  const subjectName = toX509Name(resolveSubject(request.subject));
  const pathLength = validatePathLength(request.pathLength);
  const issuer = request.issuer === null ? null : await loadIssuer(request.issuer, 'ca_certificate');
  const validity = validityPeriod(request.validDays, issuer);
  // Throws for key types the engine does not support.
  keyAlgorithmOf(request.publicKey);
  const extensions: Extension[] = [
    new BasicConstraintsExtension(true, pathLength ?? undefined, true),
    new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature, true),
    await SubjectKeyIdentifierExtension.create(request.publicKey, false, cryptoEngine),
  ];
  const { publicKey, signingKey } = request;
  if (issuer === null) {
    if (request.crlDistributionPointUrl || request.caIssuersUrl || request.ocspUrl) {
      throw new IssuanceError(
        'root_cannot_have_issuer_urls',
        'A self-signed root has no issuer, so it cannot carry CRL distribution point or AIA URLs',
      );
    }
    return signCertificate({ subjectName, issuer: null, publicKey, signingKey, validity, extensions });
  }
  extensions.push(...issuerLinkExtensions(issuer, request));
  return signCertificate({ subjectName, issuer, publicKey, signingKey, validity, extensions });
}

/**
 * Issues an end-entity certificate: basicConstraints CA:FALSE (critical); keyUsage digitalSignature,
 * plus keyEncipherment for RSA keys only (critical); extendedKeyUsage from the profile; SANs after
 * resolveSubjectAltNames; SubjectKeyIdentifier, AuthorityKeyIdentifier and the CDP / AIA URLs supplied.
 * To sign a CSR, pass the public key returned by parseCsr.
 */
export async function buildLeafCertificate(request: LeafCertificateRequest): Promise<IssuedCertificate> {
  const subject = resolveSubject(request.subject);
  const keyAlgorithm = keyAlgorithmOf(request.publicKey);
  const sans = resolveSubjectAltNames(request.profile, commonNameOf(subject), request.sans);
  const issuer = await loadIssuer(request.issuerCertificate, 'leaf_certificate');
  const validity = validityPeriod(request.validDays, issuer);

  // keyEncipherment means "the subject key decrypts a transported secret" — only RSA keys can.
  const keyUsage =
    keyAlgorithm.type === 'rsa' ? KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment : KeyUsageFlags.digitalSignature;
  const extensions: Extension[] = [
    new BasicConstraintsExtension(false, undefined, true),
    new KeyUsagesExtension(keyUsage, true),
    new ExtendedKeyUsageExtension([...PROFILE_EXTENDED_KEY_USAGES[request.profile]], false),
    await SubjectKeyIdentifierExtension.create(request.publicKey, false, cryptoEngine),
  ];
  const generalNames = [
    ...sans.dns.map((value) => ({ type: 'dns' as const, value })),
    ...sans.ip.map((value) => ({ type: 'ip' as const, value })),
    ...sans.email.map((value) => ({ type: 'email' as const, value })),
  ];
  if (generalNames.length > 0) {
    extensions.push(new SubjectAlternativeNameExtension(generalNames, false));
  }
  extensions.push(...issuerLinkExtensions(issuer, request));
  return signCertificate({
    subjectName: toX509Name(subject),
    issuer,
    publicKey: request.publicKey,
    signingKey: request.issuerPrivateKey,
    validity,
    extensions,
  });
}

interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

interface SigningInput {
  readonly subjectName: Name;
  readonly issuer: Issuer | null;
  readonly publicKey: CryptoKey;
  readonly signingKey: CryptoKey;
  readonly validity: Validity;
  readonly extensions: Extension[];
}

async function signCertificate(input: SigningInput): Promise<IssuedCertificate> {
  const { subjectName, issuer, publicKey, signingKey, validity, extensions } = input;
  const certificate = await X509CertificateGenerator.create(
    {
      serialNumber: generateSerialNumber(),
      subject: subjectName,
      // The issuer's subject is copied byte for byte so name chaining never depends on re-encoding.
      issuer: issuer?.certificate.subjectName ?? subjectName,
      notBefore: validity.notBefore,
      notAfter: validity.notAfter,
      publicKey,
      signingKey,
      signingAlgorithm: signatureAlgorithmFor(signingKey),
      extensions,
    },
    cryptoEngine,
  );
  await assertSignatureVerifies(
    () => certificate.verify({ publicKey: issuer?.certificate ?? publicKey, signatureOnly: true }, cryptoEngine),
    issuer === null
      ? 'The signing key is not the private half of the self-signed certificate public key'
      : `The signing key does not belong to the issuer certificate "${issuer.certificate.subject}"`,
  );
  return { ...describeCertificate(certificate), pem: certificatePem(certificate), der: new Uint8Array(certificate.rawData) };
}

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
  const issuerNotAfter = issuer.certificate.notAfter.getTime();
  if (issuerNotAfter <= now) {
    throw new IssuanceError('issuer_expired', `Issuer "${issuer.certificate.subject}" expired on ${issuer.certificate.notAfter.toISOString()}`);
  }
  return { notBefore, notAfter: new Date(Math.min(requested, issuerNotAfter)) };
}

function issuerLinkExtensions(issuer: Issuer, urls: IssuerUrls): Extension[] {
  const extensions: Extension[] = [new AuthorityKeyIdentifierExtension(issuer.keyIdentifier, false)];
  const crlUrl = optionalUrl('crlDistributionPointUrl', urls.crlDistributionPointUrl);
  const caIssuersUrl = optionalUrl('caIssuersUrl', urls.caIssuersUrl);
  const ocspUrl = optionalUrl('ocspUrl', urls.ocspUrl);
  if (crlUrl !== undefined) {
    extensions.push(new CRLDistributionPointsExtension([crlUrl], false));
  }
  if (caIssuersUrl !== undefined || ocspUrl !== undefined) {
    extensions.push(
      new AuthorityInfoAccessExtension(
        { ...(ocspUrl !== undefined && { ocsp: ocspUrl }), ...(caIssuersUrl !== undefined && { caIssuers: caIssuersUrl }) },
        false,
      ),
    );
  }
  return extensions;
}

/** URLs end up in IA5String fields, so they must be plain ASCII; only schemes relying parties fetch are allowed. */
function optionalUrl(field: string, value: string | null | undefined): string | undefined {
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
