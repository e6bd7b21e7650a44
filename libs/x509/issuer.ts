import { loadCertificate } from './certificate-reader';
import { type CertificateSource } from './pem';
import {
  BasicConstraintsExtension,
  cryptoEngine,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectKeyIdentifierExtension,
  type X509Certificate,
} from './x509-runtime';
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

export interface Issuer {
  readonly certificate: X509Certificate;
  /** The issuer's subject key identifier (hex): what AuthorityKeyIdentifier must carry. */
  readonly keyIdentifier: string;
}

const REQUIRED_KEY_USAGE: Readonly<Record<IssuerTask, { flag: KeyUsageFlags; name: string }>> = {
  leaf_certificate: { flag: KeyUsageFlags.keyCertSign, name: 'keyCertSign' },
  ca_certificate: { flag: KeyUsageFlags.keyCertSign, name: 'keyCertSign' },
  crl: { flag: KeyUsageFlags.cRLSign, name: 'cRLSign' },
};

/**
 * Loads an issuer certificate and checks it may perform `task`: it must be a CA, its key usage (when
 * present) must allow the signature, and a CA with pathLen 0 may not sign another CA.
 */
export async function loadIssuer(source: CertificateSource, task: IssuerTask): Promise<Issuer> {
  const certificate = loadCertificate(source);
  const basicConstraints = certificate.getExtension(BasicConstraintsExtension);
  if (!basicConstraints?.ca) {
    throw new IssuanceError('issuer_not_ca', `Issuer "${certificate.subject}" is not a CA certificate (basicConstraints CA:TRUE missing)`);
  }
  const keyUsage = certificate.getExtension(KeyUsagesExtension);
  const required = REQUIRED_KEY_USAGE[task];
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

/**
 * Fails unless `verify` confirms the fresh signature. Signing with a key that does not belong to the
 * issuer certificate would otherwise produce an artefact nobody can validate.
 */
export async function assertSignatureVerifies(verify: () => Promise<boolean>, message: string): Promise<void> {
  let verified: boolean;
  try {
    verified = await verify();
  } catch {
    verified = false;
  }
  if (!verified) {
    throw new IssuanceError('issuer_key_mismatch', message);
  }
}
