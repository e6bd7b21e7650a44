import { formatX509Name } from './distinguished-name';
import { type CertificateSource, certificateSourceToDer, sha256Fingerprint } from './pem';
import { isIpAddress, normalizeIpAddress, type SubjectAltNames } from './subject-alt-names';
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
} from './x509-runtime';
import { X509EngineError } from './x509-error';

export class InvalidCertificateError extends X509EngineError<'invalid_certificate'> {
  constructor(message: string) {
    super('invalid_certificate', message);
  }
}

/** The certificate fields the service layer stores and displays. */
export interface CertificateInfo {
  /** Rendered like formatDistinguishedName: `CN=…,O=…,C=…`. */
  readonly subject: string;
  readonly issuer: string;
  readonly commonName: string | null;
  /** Lowercase hex without leading zeros, as generateSerialNumber produces. */
  readonly serialNumber: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly sans: SubjectAltNames;
  /** Hex key identifiers, or null when the extension is absent. */
  readonly subjectKeyIdentifier: string | null;
  readonly authorityKeyIdentifier: string | null;
  readonly isCa: boolean;
  readonly pathLength: number | null;
  /** SHA-256 of the DER, lowercase hex. */
  readonly fingerprintSha256: string;
}

/** SANs split into the supported kinds, plus descriptions of entries of any other kind. */
export interface ExtractedSubjectAltNames {
  readonly sans: SubjectAltNames;
  readonly unsupported: readonly string[];
}

/** Parses a certificate from PEM or DER; throws InvalidCertificateError when it is not one. */
export function loadCertificate(source: CertificateSource): X509Certificate {
  try {
    return new X509Certificate(certificateSourceToDer(source));
  } catch (error) {
    throw new InvalidCertificateError(`Invalid certificate: ${(error as Error).message}`);
  }
}

/** Reads the stored fields from a PEM or DER certificate. */
export function readCertificate(source: CertificateSource): CertificateInfo {
  return describeCertificate(loadCertificate(source));
}

export function describeCertificate(certificate: X509Certificate): CertificateInfo {
  const basicConstraints = certificate.getExtension(BasicConstraintsExtension);
  return {
    subject: formatX509Name(certificate.subjectName),
    issuer: formatX509Name(certificate.issuerName),
    commonName: certificate.subjectName.getField('CN')[0] ?? null,
    serialNumber: certificate.serialNumber.toLowerCase().replace(/^0+(?=.)/, ''),
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    sans: extractSubjectAltNames(certificate.getExtension(SubjectAlternativeNameExtension)).sans,
    subjectKeyIdentifier: certificate.getExtension(SubjectKeyIdentifierExtension)?.keyId ?? null,
    authorityKeyIdentifier: certificate.getExtension(AuthorityKeyIdentifierExtension)?.keyId ?? null,
    isCa: basicConstraints?.ca ?? false,
    pathLength: basicConstraints?.pathLength ?? null,
    fingerprintSha256: sha256Fingerprint(new Uint8Array(certificate.rawData)),
  };
}

/** Sorts SAN entries into DNS / IP / email; anything else (URI, directory name, malformed IP) is reported as unsupported. */
export function extractSubjectAltNames(extension: SubjectAlternativeNameExtension | null): ExtractedSubjectAltNames {
  const dns: string[] = [];
  const ip: string[] = [];
  const email: string[] = [];
  const unsupported: string[] = [];
  for (const { type, value } of extension?.names.items ?? []) {
    if (type === 'dns') {
      dns.push(value);
    } else if (type === 'email') {
      email.push(value);
    } else if (type === 'ip' && isIpAddress(value)) {
      ip.push(normalizeIpAddress(value));
    } else {
      unsupported.push(`${type}:${value}`);
    }
  }
  return { sans: { dns, ip, email }, unsupported };
}
