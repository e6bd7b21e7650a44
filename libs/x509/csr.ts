import { type ExtractedSubjectAltNames, extractSubjectAltNames } from './certificate-reader';
import { type DistinguishedName, formatDistinguishedName, fromX509Name } from './distinguished-name';
import { type CryptoKey, describeKeyAlgorithm, importPublicKeySpki, type KeyAlgorithm, keyAlgorithmOf } from './key-pair';
import { decodePem } from './pem';
import { type SubjectAltNames } from './subject-alt-names';
import { cryptoEngine, Pkcs10CertificateRequest, SubjectAlternativeNameExtension } from './x509-runtime';
import { X509EngineError } from './x509-error';

export type InvalidCsrErrorCode = 'invalid_csr' | 'csr_signature_invalid';

export class InvalidCsrError extends X509EngineError<InvalidCsrErrorCode> {}

export interface ParsedCsr {
  /** Rendered like formatDistinguishedName: `CN=…,O=…,C=…`. */
  readonly subject: string;
  readonly subjectName: DistinguishedName;
  /** The requester's key, ready to pass to buildLeafCertificate. */
  readonly publicKey: CryptoKey;
  readonly keyAlgorithm: KeyAlgorithm;
  /** `RSA 2048`, `EC P-256`, `Ed25519`. */
  readonly keyAlgorithmName: string;
  /** Requested SANs as found in the CSR (IP addresses canonicalised); the profile rules apply at issuance. */
  readonly sans: SubjectAltNames;
}

const CSR_PEM_LABELS = ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST'];
const SUBJECT_ALT_NAME_OID = '2.5.29.17';

/**
 * Parses a PEM PKCS#10 request and verifies its self-signature. Only the subject, public key and
 * requested SANs are taken from it; other requested extensions (key usage, basic constraints…) are
 * ignored because the CA decides them from the profile.
 *
 * Errors: InvalidCsrError with code `invalid_csr` (message `Invalid CSR: …`) for anything malformed
 * or unsupported, `csr_signature_invalid` when the signature does not verify.
 */
export async function parseCsr(pem: string): Promise<ParsedCsr> {
  const request = decodeRequest(pem);

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

  let extracted: ExtractedSubjectAltNames;
  try {
    const extension = request.getExtension(SUBJECT_ALT_NAME_OID);
    extracted = extractSubjectAltNames(extension === null ? null : new SubjectAlternativeNameExtension(extension.rawData));
  } catch (error) {
    throw invalid(`subjectAltName: ${(error as Error).message}`);
  }
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

function decodeRequest(pem: string): Pkcs10CertificateRequest {
  let der: Uint8Array;
  try {
    der = decodePem(pem, CSR_PEM_LABELS);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  try {
    return new Pkcs10CertificateRequest(der);
  } catch (error) {
    throw invalid(`not a PKCS#10 certification request (${(error as Error).message})`);
  }
}

function invalid(reason: string): InvalidCsrError {
  return new InvalidCsrError('invalid_csr', `Invalid CSR: ${reason}`);
}
