import { createPublicKey, type KeyObject } from 'node:crypto';
import { InvalidCertificateError, loadCertificate } from './certificate-reader';
import { children, contextTag, type DerElement, DerTag, encoded, expectTag, readRoot } from './der';
import { formatX509Name } from './distinguished-name';
import { authorityKeyIdentifierExtension, subjectKeyIdentifierOf } from './extensions';
import { type CertificateSource } from './pem';
import { BasicConstraintsExtension, KeyUsageFlags, KeyUsagesExtension, SubjectKeyIdentifierExtension } from './x509-runtime';
import { X509EngineError } from './x509-error';

export type IssuanceErrorCode =
  | 'invalid_validity'
  | 'invalid_path_length'
  | 'invalid_url'
  | 'root_cannot_have_issuer_urls'
  | 'issuer_not_ca'
  | 'issuer_expired'
  | 'issuer_path_length_exhausted'
  | 'issuer_key_mismatch'
  | 'invalid_crl_number'
  | 'invalid_crl_dates'
  | 'duplicate_serial';

/** A certificate or CRL cannot be issued as requested. */
export class IssuanceError extends X509EngineError<IssuanceErrorCode> {}

/** What the issuer is about to sign. */
export type IssuerTask = 'leaf_certificate' | 'ca_certificate' | 'crl';

/** What signing under an issuer certificate needs, worked out once per certificate. */
export interface Issuer {
  /** The issuer's subject `Name`, DER, byte for byte as in its certificate: what its children carry as issuer. */
  readonly nameDer: Uint8Array;
  /** The subject as @peculiar/x509 renders it (`C=US, O=…, CN=…`), for messages. */
  readonly displayName: string;
  /** The subject as formatDistinguishedName renders it: the `issuer` of what it signs. */
  readonly formattedName: string;
  readonly notAfter: Date;
  /** The issuer's subject key identifier (hex): what AuthorityKeyIdentifier must carry. */
  readonly keyIdentifier: string;
  /** The AuthorityKeyIdentifier extension (keyIdentifier only), encoded. */
  readonly authorityKeyIdentifier: Buffer;
  /** The issuer's public key: every signature made under it is checked against it. */
  readonly publicKey: KeyObject;
  readonly isCa: boolean;
  readonly pathLength: number | null;
  /** keyUsage flags, or null when the certificate has no keyUsage extension. */
  readonly keyUsage: number | null;
}

const REQUIRED_KEY_USAGE: Readonly<Record<IssuerTask, { flag: KeyUsageFlags; name: string }>> = {
  leaf_certificate: { flag: KeyUsageFlags.keyCertSign, name: 'keyCertSign' },
  ca_certificate: { flag: KeyUsageFlags.keyCertSign, name: 'keyCertSign' },
  crl: { flag: KeyUsageFlags.cRLSign, name: 'cRLSign' },
};

/**
 * Issuers worked out so far, by certificate (PEM text, or the DER's base64). A service signs under
 * a handful of CAs, so reading each certificate once instead of per signature is the whole point;
 * the bound only keeps a pathological caller from growing it without limit.
 */
const issuers = new Map<string, Issuer>();
const MAX_CACHED_ISSUERS = 1024;

/**
 * Loads an issuer certificate and checks it may perform `task`: it must be a CA, its key usage (when
 * present) must allow the signature, and a CA with pathLen 0 may not sign another CA.
 */
export function loadIssuer(source: CertificateSource, task: IssuerTask): Issuer {
  const key = typeof source === 'string' ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('base64');
  let issuer = issuers.get(key);
  if (issuer === undefined) {
    issuer = readIssuer(source);
    if (issuers.size >= MAX_CACHED_ISSUERS) issuers.delete(issuers.keys().next().value!);
    issuers.set(key, issuer);
  }
  if (!issuer.isCa) {
    throw new IssuanceError('issuer_not_ca', `Issuer "${issuer.displayName}" is not a CA certificate (basicConstraints CA:TRUE missing)`);
  }
  const required = REQUIRED_KEY_USAGE[task];
  if (issuer.keyUsage !== null && (issuer.keyUsage & required.flag) === 0) {
    throw new IssuanceError('issuer_not_ca', `Issuer "${issuer.displayName}" lacks the ${required.name} key usage`);
  }
  if (task === 'ca_certificate' && issuer.pathLength === 0) {
    throw new IssuanceError('issuer_path_length_exhausted', `Issuer "${issuer.displayName}" has pathLen 0 and cannot sign CA certificates`);
  }
  return issuer;
}

function readIssuer(source: CertificateSource): Issuer {
  const certificate = loadCertificate(source);
  let subject: DerElement;
  let subjectPublicKeyInfo: DerElement;
  try {
    const [tbs] = children(readRoot(new Uint8Array(certificate.rawData), DerTag.SEQUENCE, 'Certificate'));
    const fields = children(tbs);
    const first = fields[0]?.tag === contextTag(0, true) ? 1 : 0;
    subject = expectTag(fields[first + 4], DerTag.SEQUENCE, 'subject');
    subjectPublicKeyInfo = expectTag(fields[first + 5], DerTag.SEQUENCE, 'subjectPublicKeyInfo');
  } catch (error) {
    throw new InvalidCertificateError(`Invalid certificate: ${(error as Error).message}`);
  }
  const basicConstraints = certificate.getExtension(BasicConstraintsExtension);
  const keyIdentifier =
    certificate.getExtension(SubjectKeyIdentifierExtension)?.keyId ?? subjectKeyIdentifierOf(encoded(subjectPublicKeyInfo)).toString('hex');
  return {
    nameDer: encoded(subject),
    displayName: certificate.subject,
    formattedName: formatX509Name(certificate.subjectName),
    notAfter: certificate.notAfter,
    keyIdentifier,
    authorityKeyIdentifier: authorityKeyIdentifierExtension(keyIdentifier),
    publicKey: createPublicKey({ key: Buffer.from(encoded(subjectPublicKeyInfo)), format: 'der', type: 'spki' }),
    isCa: basicConstraints?.ca ?? false,
    pathLength: basicConstraints?.pathLength ?? null,
    keyUsage: certificate.getExtension(KeyUsagesExtension)?.usages ?? null,
  };
}
