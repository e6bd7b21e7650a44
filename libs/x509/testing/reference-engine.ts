/**
 * The reference engine, on @peculiar/x509's ASN.1 and WebCrypto: CSR parsing, certificate and CRL
 * building, the self-check by re-parsing. The differential test (and bench/x509-engine.js) hold the
 * native engine to it; the product never calls it.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { type CertificateInfo, describeCertificate, extractSubjectAltNames, loadCertificate } from '../certificate-reader';
import { type IssuedCertificate, type IssuerUrls, MAX_VALID_DAYS, NOT_BEFORE_BACKDATE_SECONDS, optionalUrl } from '../certificate-builder';
import { type CrlRequest, revocationReasonCode } from '../crl-builder';
import { type ParsedCsr, InvalidCsrError } from '../csr';
import {
  commonNameOf,
  type DistinguishedName,
  type DistinguishedNameFields,
  formatDistinguishedName,
  InvalidDistinguishedNameError,
  parseDistinguishedName,
  validateDistinguishedName,
} from '../distinguished-name';
import { IssuanceError, type IssuerTask } from '../issuer';
import {
  type CryptoKey,
  InvalidKeyError,
  type KeyAlgorithm,
  keyAlgorithmOf,
  keyAlgorithmOfKeyObject,
  describeKeyAlgorithm,
} from '../key-pair';
import { certificateDerToPem, type CertificateSource, decodePem } from '../pem';
import { generateSerialNumber, normalizeSerialNumber, positiveIntegerOctets } from '../serial-number';
import { type CertificateProfile, resolveSubjectAltNames, type SubjectAltNames } from '../subject-alt-names';
import {
  AuthorityInfoAccessExtension,
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  CRLDistributionPointsExtension,
  cryptoEngine,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  Extension,
  KeyUsageFlags,
  KeyUsagesExtension,
  Name,
  Pkcs10CertificateRequest,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  type X509Certificate,
  X509CertificateGenerator,
  X509CrlGenerator,
} from '../x509-runtime';

/** The reference's CSR result: the same as ParsedCsr, with the key imported into WebCrypto. */
export type ReferenceParsedCsr = Omit<ParsedCsr, 'publicKey' | 'attributeTypes'> & { readonly publicKey: CryptoKey };

export interface ReferenceCaRequest extends IssuerUrls {
  readonly subject: DistinguishedName | DistinguishedNameFields | string;
  readonly publicKey: CryptoKey;
  readonly signingKey: CryptoKey;
  readonly issuer: CertificateSource | null;
  readonly validDays: number;
  readonly pathLength: number | null;
}

export interface ReferenceLeafRequest extends IssuerUrls {
  readonly subject: DistinguishedName | DistinguishedNameFields | string;
  readonly publicKey: CryptoKey;
  readonly issuerCertificate: CertificateSource;
  readonly issuerPrivateKey: CryptoKey;
  readonly validDays: number;
  readonly profile: CertificateProfile;
  readonly sans?: Partial<SubjectAltNames>;
}

const ATTRIBUTE_OIDS: Readonly<Record<string, string>> = {
  C: '2.5.4.6',
  ST: '2.5.4.8',
  L: '2.5.4.7',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  CN: '2.5.4.3',
};
const MS_PER_DAY = 86_400_000;
const PROFILE_EXTENDED_KEY_USAGES: Readonly<Record<CertificateProfile, readonly ExtendedKeyUsage[]>> = {
  server: [ExtendedKeyUsage.serverAuth],
  client: [ExtendedKeyUsage.clientAuth],
  dual_purpose: [ExtendedKeyUsage.serverAuth, ExtendedKeyUsage.clientAuth],
};

export function toX509Name(name: DistinguishedName): Name {
  return new Name(
    name.rdns.map((rdn) => {
      const entry: Record<string, { printableString?: string; utf8String?: string }[]> = {};
      for (const { key, value } of rdn) {
        (entry[ATTRIBUTE_OIDS[key]] ??= []).push(key === 'C' ? { printableString: value } : { utf8String: value });
      }
      return entry;
    }),
  );
}

export function fromX509Name(name: Name): DistinguishedName {
  const rdns = name.toJSON().map((rdn) =>
    Object.entries(rdn).flatMap(([type, values]) =>
      values.map((value) => {
        if (!Object.hasOwn(ATTRIBUTE_OIDS, type)) {
          throw new InvalidDistinguishedNameError(`Unsupported distinguished name attribute "${type}"; allowed: CN, OU, O, L, ST, C`);
        }
        return { key: type as keyof typeof ATTRIBUTE_OIDS, value };
      }),
    ),
  );
  return validateDistinguishedName({ rdns } as DistinguishedName);
}

export async function referenceParseCsr(pem: string): Promise<ReferenceParsedCsr> {
  const invalid = (reason: string) => new InvalidCsrError('invalid_csr', `Invalid CSR: ${reason}`);
  let request: Pkcs10CertificateRequest;
  try {
    request = new Pkcs10CertificateRequest(decodePem(pem, ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST']));
  } catch (error) {
    throw invalid((error as Error).message);
  }
  let publicKey: CryptoKey;
  try {
    publicKey = await importPublicKeySpki(new Uint8Array(request.publicKey.rawData));
  } catch (error) {
    throw invalid((error as Error).message);
  }
  let signatureValid: boolean;
  try {
    signatureValid = await request.verify(cryptoEngine);
  } catch {
    signatureValid = false;
  }
  if (!signatureValid) {
    throw new InvalidCsrError('csr_signature_invalid', 'CSR signature verification failed');
  }
  let subjectName: DistinguishedName;
  try {
    subjectName = fromX509Name(request.subjectName);
  } catch (error) {
    throw invalid(`subject: ${(error as Error).message}`);
  }
  const extension = request.getExtension('2.5.29.17');
  const extracted = extractSubjectAltNames(extension === null ? null : new SubjectAlternativeNameExtension(extension.rawData));
  if (extracted.unsupported.length > 0) {
    throw invalid(`unsupported subjectAltName entries ${extracted.unsupported.join(', ')}; only DNS, IP and email are allowed`);
  }
  const keyAlgorithm = keyAlgorithmOf(publicKey);
  return {
    subject: formatDistinguishedName(subjectName),
    subjectName,
    publicKey,
    keyAlgorithm,
    keyAlgorithmName: describeKeyAlgorithm(keyAlgorithm),
    sans: extracted.sans,
  };
}

async function importPublicKeySpki(spki: Uint8Array): Promise<CryptoKey> {
  let keyObject: KeyObject;
  try {
    keyObject = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
  } catch (error) {
    throw new InvalidKeyError('unsupported_key_algorithm', `Unreadable public key: ${(error as Error).message}`);
  }
  return cryptoEngine.subtle.importKey('spki', spki, importParameters(keyAlgorithmOfKeyObject(keyObject)), true, ['verify']);
}

function importParameters(algorithm: KeyAlgorithm) {
  switch (algorithm.type) {
    case 'rsa':
      return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    case 'ec':
      return { name: 'ECDSA', namedCurve: algorithm.curve };
    case 'ed25519':
      return { name: 'Ed25519' };
  }
}

function signatureAlgorithmFor(signingKey: CryptoKey): { name: string; hash?: string } {
  const algorithm = keyAlgorithmOf(signingKey);
  switch (algorithm.type) {
    case 'rsa':
      return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    case 'ec':
      return { name: 'ECDSA', hash: algorithm.curve === 'P-256' ? 'SHA-256' : 'SHA-384' };
    case 'ed25519':
      return { name: 'Ed25519' };
  }
}

interface ReferenceIssuer {
  readonly certificate: X509Certificate;
  readonly keyIdentifier: string;
}

async function loadIssuer(source: CertificateSource, task: IssuerTask): Promise<ReferenceIssuer> {
  const certificate = loadCertificate(source);
  const basicConstraints = certificate.getExtension(BasicConstraintsExtension);
  if (!basicConstraints?.ca) {
    throw new IssuanceError('issuer_not_ca', `Issuer "${certificate.subject}" is not a CA certificate (basicConstraints CA:TRUE missing)`);
  }
  const keyUsage = certificate.getExtension(KeyUsagesExtension);
  const required =
    task === 'crl' ? { flag: KeyUsageFlags.cRLSign, name: 'cRLSign' } : { flag: KeyUsageFlags.keyCertSign, name: 'keyCertSign' };
  if (keyUsage && (keyUsage.usages & required.flag) === 0) {
    throw new IssuanceError('issuer_not_ca', `Issuer "${certificate.subject}" lacks the ${required.name} key usage`);
  }
  if (task === 'ca_certificate' && basicConstraints.pathLength === 0) {
    throw new IssuanceError(
      'issuer_path_length_exhausted',
      `Issuer "${certificate.subject}" has pathLen 0 and cannot sign CA certificates`,
    );
  }
  const subjectKeyIdentifier = certificate.getExtension(SubjectKeyIdentifierExtension)?.keyId;
  const keyIdentifier = subjectKeyIdentifier ?? Buffer.from(await certificate.publicKey.getKeyIdentifier(cryptoEngine)).toString('hex');
  return { certificate, keyIdentifier };
}

async function assertSignatureVerifies(verify: () => Promise<boolean>, message: string): Promise<void> {
  let verified: boolean;
  try {
    verified = await verify();
  } catch {
    verified = false;
  }
  if (!verified) throw new IssuanceError('issuer_key_mismatch', message);
}

export async function referenceBuildCaCertificate(request: ReferenceCaRequest): Promise<IssuedCertificate> {
  const subjectName = toX509Name(resolveSubject(request.subject));
  if (request.pathLength !== null && (!Number.isSafeInteger(request.pathLength) || request.pathLength < 0)) {
    throw new IssuanceError('invalid_path_length', `pathLength must be null or a non-negative integer, got ${request.pathLength}`);
  }
  const issuer = request.issuer === null ? null : await loadIssuer(request.issuer, 'ca_certificate');
  const validity = validityPeriod(request.validDays, issuer);
  keyAlgorithmOf(request.publicKey);
  const extensions: Extension[] = [
    new BasicConstraintsExtension(true, request.pathLength ?? undefined, true),
    new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature, true),
    await SubjectKeyIdentifierExtension.create(request.publicKey, false, cryptoEngine),
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
  return signCertificate(subjectName, issuer, request.publicKey, request.signingKey, validity, extensions);
}

export async function referenceBuildLeafCertificate(request: ReferenceLeafRequest): Promise<IssuedCertificate> {
  const subject = resolveSubject(request.subject);
  const keyAlgorithm = keyAlgorithmOf(request.publicKey);
  const sans = resolveSubjectAltNames(request.profile, commonNameOf(subject), request.sans);
  const issuer = await loadIssuer(request.issuerCertificate, 'leaf_certificate');
  const validity = validityPeriod(request.validDays, issuer);
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
  if (generalNames.length > 0) extensions.push(new SubjectAlternativeNameExtension(generalNames, false));
  extensions.push(...issuerLinkExtensions(issuer, request));
  return signCertificate(toX509Name(subject), issuer, request.publicKey, request.issuerPrivateKey, validity, extensions);
}

async function signCertificate(
  subjectName: Name,
  issuer: ReferenceIssuer | null,
  publicKey: CryptoKey,
  signingKey: CryptoKey,
  validity: { notBefore: Date; notAfter: Date },
  extensions: Extension[],
): Promise<IssuedCertificate> {
  const certificate = await X509CertificateGenerator.create(
    {
      serialNumber: generateSerialNumber(),
      subject: subjectName,
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
  const info: CertificateInfo = describeCertificate(certificate);
  const der = new Uint8Array(certificate.rawData);
  return { ...info, pem: certificateDerToPem(der), der };
}

function resolveSubject(subject: DistinguishedName | DistinguishedNameFields | string): DistinguishedName {
  return typeof subject === 'string' ? parseDistinguishedName(subject) : validateDistinguishedName(subject);
}

function validityPeriod(validDays: number, issuer: ReferenceIssuer | null): { notBefore: Date; notAfter: Date } {
  if (!Number.isInteger(validDays) || validDays < 1 || validDays > MAX_VALID_DAYS) {
    throw new IssuanceError('invalid_validity', `validDays must be an integer between 1 and ${MAX_VALID_DAYS}, got ${validDays}`);
  }
  const now = Date.now();
  const notBefore = new Date((Math.floor(now / 1000) - NOT_BEFORE_BACKDATE_SECONDS) * 1000);
  const requested = notBefore.getTime() + validDays * MS_PER_DAY;
  if (issuer === null) return { notBefore, notAfter: new Date(requested) };
  const issuerNotAfter = issuer.certificate.notAfter.getTime();
  if (issuerNotAfter <= now) {
    throw new IssuanceError(
      'issuer_expired',
      `Issuer "${issuer.certificate.subject}" expired on ${issuer.certificate.notAfter.toISOString()}`,
    );
  }
  return { notBefore, notAfter: new Date(Math.min(requested, issuerNotAfter)) };
}

function issuerLinkExtensions(issuer: ReferenceIssuer, urls: IssuerUrls): Extension[] {
  const extensions: Extension[] = [new AuthorityKeyIdentifierExtension(issuer.keyIdentifier, false)];
  const crlUrl = optionalUrl('crlDistributionPointUrl', urls.crlDistributionPointUrl);
  const caIssuersUrl = optionalUrl('caIssuersUrl', urls.caIssuersUrl);
  const ocspUrl = optionalUrl('ocspUrl', urls.ocspUrl);
  if (crlUrl !== undefined) extensions.push(new CRLDistributionPointsExtension([crlUrl], false));
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

/** The reference CRL, DER (its entries without a reason carried an empty crlEntryExtensions). */
export async function referenceBuildCrl(request: CrlRequest): Promise<Uint8Array> {
  const issuer = await loadIssuer(request.issuerCertificate, 'crl');
  const second = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);
  const entries = request.entries.map((entry) => {
    const reasonCode = revocationReasonCode(entry.reason);
    return {
      serialNumber: normalizeSerialNumber(entry.serialHex),
      revocationDate: second(entry.revokedAt),
      extensions: reasonCode === null ? [] : [new Extension('2.5.29.21', false, Uint8Array.of(0x0a, 1, reasonCode))],
    };
  });
  const crlNumber = positiveIntegerOctets(BigInt(request.crlNumber).toString(16));
  const crl = await X509CrlGenerator.create(
    {
      issuer: issuer.certificate.subjectName,
      thisUpdate: second(request.thisUpdate),
      nextUpdate: second(request.nextUpdate),
      entries,
      extensions: [
        new AuthorityKeyIdentifierExtension(issuer.keyIdentifier, false),
        new Extension('2.5.29.20', false, Uint8Array.of(0x02, crlNumber.length, ...crlNumber)),
      ],
      signingKey: request.issuerPrivateKey,
      signingAlgorithm: signatureAlgorithmFor(request.issuerPrivateKey),
    },
    cryptoEngine,
  );
  return new Uint8Array(crl.rawData);
}
