import {
  children,
  childrenTagged,
  content,
  contextTag,
  type DerElement,
  DerError,
  DerTag,
  encoded,
  expectTag,
  readBitStringOctets,
  readElement,
  readObjectIdentifier,
  readRoot,
  readSmallInteger,
} from './der';
import { decodeDistinguishedName, type DistinguishedName, formatDistinguishedName } from './distinguished-name';
import { describeKeyAlgorithm, type KeyAlgorithm, type PublicKeyInfo, readPublicKeyInfo } from './key-pair';
import { decodePem } from './pem';
import { RSA_PSS_PADDING, type VerificationParameters, verifySignature } from './signature';
import { ipAddressFromOctets, type SubjectAltNames } from './subject-alt-names';
import { X509EngineError } from './x509-error';

export type InvalidCsrErrorCode = 'invalid_csr' | 'csr_signature_invalid';

export class InvalidCsrError extends X509EngineError<InvalidCsrErrorCode> {}

export interface ParsedCsr {
  /** Rendered like formatDistinguishedName: `CN=…,O=…,C=…`. */
  readonly subject: string;
  readonly subjectName: DistinguishedName;
  /** The requester's key (its SubjectPublicKeyInfo bytes as in the CSR), ready to pass to buildLeafCertificate. */
  readonly publicKey: PublicKeyInfo;
  readonly keyAlgorithm: KeyAlgorithm;
  /** `RSA 2048`, `EC P-256`, `Ed25519`. */
  readonly keyAlgorithmName: string;
  /** Requested SANs as found in the CSR (IP addresses canonicalised); the profile rules apply at issuance. */
  readonly sans: SubjectAltNames;
  /** The object identifiers of the request's attributes (extensionRequest, challengePassword, …), in order. */
  readonly attributeTypes: readonly string[];
}

const CSR_PEM_LABELS = ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST'];
const EXTENSION_REQUEST_OID = '1.2.840.113549.1.9.14';
const SUBJECT_ALT_NAME_OID = '2.5.29.17';

/** The request's parts, located but not yet interpreted. */
interface RequestParts {
  readonly certificationRequestInfo: Uint8Array;
  readonly subject: DerElement;
  readonly subjectPublicKeyInfo: Uint8Array;
  readonly attributes: DerElement;
  readonly signatureAlgorithm: DerElement;
  readonly signature: Uint8Array;
}

/**
 * Parses a PEM PKCS#10 request and verifies its self-signature. Only the subject, public key and
 * requested SANs are taken from it; other requested extensions (key usage, basic constraints…) are
 * ignored because the CA decides them from the profile.
 *
 * Signatures accepted: RSA PKCS#1 v1.5 and RSA-PSS (MGF1 with the same hash), ECDSA, each with
 * SHA-1, SHA-256, SHA-384 or SHA-512, and Ed25519, verified natively over the request info as encoded.
 *
 * Errors: InvalidCsrError with code `invalid_csr` (message `Invalid CSR: …`) for anything malformed
 * or unsupported, `csr_signature_invalid` when the signature does not verify.
 */
export async function parseCsr(pem: string): Promise<ParsedCsr> {
  const request = decodeRequest(pem);

  let publicKey: PublicKeyInfo;
  try {
    publicKey = readPublicKeyInfo(request.subjectPublicKeyInfo);
  } catch (error) {
    throw invalid((error as Error).message);
  }

  const parameters = verificationParameters(request.signatureAlgorithm, publicKey.algorithm);
  const signatureValid =
    parameters !== null && (await verifySignature(request.certificationRequestInfo, request.signature, publicKey.keyObject, parameters));
  if (!signatureValid) {
    throw new InvalidCsrError('csr_signature_invalid', 'CSR signature verification failed');
  }

  let subjectName: DistinguishedName;
  try {
    // An empty subject is what ACME clients send (certbot: SANs only); the caller supplies a CN or refuses it.
    subjectName = request.subject.contentStart === request.subject.end ? { rdns: [] } : decodeDistinguishedName(request.subject);
  } catch (error) {
    throw invalid(`subject: ${(error as Error).message}`);
  }

  let extracted: RequestedNames;
  let attributeTypes: string[];
  try {
    extracted = requestedSubjectAltNames(request.attributes);
    attributeTypes = children(request.attributes).map((attribute) => readObjectIdentifier(children(attribute)[0], 'attribute type'));
  } catch (error) {
    throw invalid(`subjectAltName: ${(error as Error).message}`);
  }
  if (extracted.unsupported.length > 0) {
    throw invalid(`unsupported subjectAltName entries ${extracted.unsupported.join(', ')}; only DNS, IP and email are allowed`);
  }

  return {
    subject: formatDistinguishedName(subjectName),
    subjectName,
    publicKey,
    keyAlgorithm: publicKey.algorithm,
    keyAlgorithmName: describeKeyAlgorithm(publicKey.algorithm),
    sans: extracted.sans,
    attributeTypes,
  };
}

function decodeRequest(pem: string): RequestParts {
  let der: Uint8Array;
  try {
    der = decodePem(pem, CSR_PEM_LABELS);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  try {
    const request = readRoot(der, DerTag.SEQUENCE, 'CertificationRequest');
    const [info, signatureAlgorithm, signature] = childrenTagged(
      request,
      [DerTag.SEQUENCE, DerTag.SEQUENCE, DerTag.BIT_STRING],
      'CertificationRequest',
    );
    const [version, subject, subjectPublicKeyInfo, attributes] = childrenTagged(
      info,
      [DerTag.INTEGER, DerTag.SEQUENCE, DerTag.SEQUENCE, contextTag(0, true)],
      'CertificationRequestInfo',
    );
    if (readSmallInteger(version, 'version') !== 0) throw new DerError('unsupported version');
    return {
      certificationRequestInfo: encoded(info),
      subject,
      subjectPublicKeyInfo: encoded(subjectPublicKeyInfo),
      attributes,
      signatureAlgorithm,
      signature: readBitStringOctets(signature, 'signature'),
    };
  } catch (error) {
    throw invalid(`not a PKCS#10 certification request (${(error as Error).message})`);
  }
}

const RSA_PKCS1_DIGESTS: Readonly<Record<string, string>> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
};
const ECDSA_DIGESTS: Readonly<Record<string, string>> = {
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};
const HASH_DIGESTS: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
const RSASSA_PSS_OID = '1.2.840.113549.1.1.10';
const MGF1_OID = '1.2.840.113549.1.1.8';
const ED25519_OID = '1.3.101.112';
const PSS_DEFAULT_SALT_LENGTH = 20;

/**
 * How to check the request's signature, or null when its algorithm is unknown, malformed or does
 * not match the key (the request then fails as csr_signature_invalid).
 */
function verificationParameters(algorithmIdentifier: DerElement, key: KeyAlgorithm): VerificationParameters | null {
  try {
    const [algorithm, ...parameters] = children(algorithmIdentifier);
    const oid = readObjectIdentifier(algorithm, 'signature algorithm');
    if (parameters.length > 1) return null;
    const [parameter] = parameters;
    if (oid in RSA_PKCS1_DIGESTS) {
      const nullOrAbsent = parameter === undefined || (parameter.tag === DerTag.NULL && parameter.end === parameter.contentStart);
      return key.type === 'rsa' && nullOrAbsent ? { digest: RSA_PKCS1_DIGESTS[oid] } : null;
    }
    if (oid in ECDSA_DIGESTS) {
      return key.type === 'ec' && parameter === undefined ? { digest: ECDSA_DIGESTS[oid] } : null;
    }
    if (oid === ED25519_OID) {
      return key.type === 'ed25519' && parameter === undefined ? { digest: null } : null;
    }
    if (oid === RSASSA_PSS_OID && key.type === 'rsa' && parameter !== undefined) {
      return pssParameters(parameter);
    }
    return null;
  } catch {
    return null;
  }
}

/** RSASSA-PSS-params (RFC 4055): the hash, MGF1 over that same hash, the salt length, trailer 1. */
function pssParameters(parameters: DerElement): VerificationParameters | null {
  let digest = 'sha1';
  let mgfDigest = 'sha1';
  let saltLength = PSS_DEFAULT_SALT_LENGTH;
  for (const field of children(expectTag(parameters, DerTag.SEQUENCE, 'RSASSA-PSS-params'))) {
    const inner = readElement(field.bytes, field.contentStart, field.end);
    if (inner.end !== field.end) return null;
    switch (field.tag) {
      case contextTag(0, true): {
        const hash = HASH_DIGESTS[hashOf(inner)];
        if (hash === undefined) return null;
        digest = hash;
        break;
      }
      case contextTag(1, true): {
        const [mgf, mgfParameters] = children(expectTag(inner, DerTag.SEQUENCE, 'maskGenAlgorithm'));
        if (readObjectIdentifier(mgf, 'maskGenAlgorithm') !== MGF1_OID || mgfParameters === undefined) return null;
        const hash = HASH_DIGESTS[hashOf(mgfParameters)];
        if (hash === undefined) return null;
        mgfDigest = hash;
        break;
      }
      case contextTag(2, true):
        saltLength = readSmallInteger(inner, 'saltLength');
        break;
      case contextTag(3, true):
        if (readSmallInteger(inner, 'trailerField') !== 1) return null;
        break;
      default:
        return null;
    }
  }
  // node:crypto (like WebCrypto) uses MGF1 with the signature's own hash.
  if (mgfDigest !== digest) return null;
  return { digest, padding: RSA_PSS_PADDING, saltLength };
}

/** The OID of a hash AlgorithmIdentifier (parameters absent or NULL). */
function hashOf(algorithmIdentifier: DerElement): string {
  const [algorithm, parameter] = children(expectTag(algorithmIdentifier, DerTag.SEQUENCE, 'hash algorithm'));
  if (parameter !== undefined && parameter.tag !== DerTag.NULL) return '';
  return readObjectIdentifier(algorithm, 'hash algorithm');
}

/** SANs split into the supported kinds, plus descriptions of entries of any other kind. */
interface RequestedNames {
  readonly sans: SubjectAltNames;
  readonly unsupported: readonly string[];
}

/** The subjectAltName of the first extensionRequest attribute, if any. */
function requestedSubjectAltNames(attributes: DerElement): RequestedNames {
  const dns: string[] = [];
  const ip: string[] = [];
  const email: string[] = [];
  const unsupported: string[] = [];
  const generalNames = subjectAltNameExtension(attributes);
  if (generalNames !== null) {
    for (const name of children(readRoot(generalNames, DerTag.SEQUENCE, 'GeneralNames'))) {
      const text = Buffer.from(content(name)).toString('latin1');
      switch (name.tag) {
        case contextTag(1, false):
          email.push(text);
          break;
        case contextTag(2, false):
          dns.push(text);
          break;
        case contextTag(7, false): {
          const address = ipAddressFromOctets(content(name));
          if (address === null) unsupported.push(`ip:${Buffer.from(content(name)).toString('hex')}`);
          else ip.push(address);
          break;
        }
        case contextTag(6, false):
          unsupported.push(`url:${text}`);
          break;
        case contextTag(8, false):
          unsupported.push(`id:${readObjectIdentifier({ ...name, tag: DerTag.OBJECT_IDENTIFIER }, 'registeredID')}`);
          break;
        case contextTag(4, true):
          unsupported.push(`dn:${describeName(readElement(name.bytes, name.contentStart, name.end))}`);
          break;
        case contextTag(0, true):
          unsupported.push(`otherName:${readObjectIdentifier(readElement(name.bytes, name.contentStart, name.end), 'otherName type')}`);
          break;
        default:
          unsupported.push(`[${name.tag & 0x1f}]`);
      }
    }
  }
  return { sans: { dns, ip, email }, unsupported };
}

/** The extnValue of the requested subjectAltName extension, or null. */
function subjectAltNameExtension(attributes: DerElement): Uint8Array | null {
  for (const attribute of children(attributes)) {
    const [type, values] = childrenTagged(attribute, [DerTag.OBJECT_IDENTIFIER, DerTag.SET], 'Attribute');
    if (readObjectIdentifier(type, 'attribute type') !== EXTENSION_REQUEST_OID) continue;
    const [extensions] = children(values);
    if (extensions === undefined) return null;
    for (const extension of children(expectTag(extensions, DerTag.SEQUENCE, 'Extensions'))) {
      const fields = children(expectTag(extension, DerTag.SEQUENCE, 'Extension'));
      const id = readObjectIdentifier(fields[0], 'extension id');
      const value = fields[fields.length - 1];
      const criticalOk = fields.length === 2 || (fields.length === 3 && fields[1].tag === DerTag.BOOLEAN);
      if (!criticalOk) throw new DerError('malformed extension');
      if (id === SUBJECT_ALT_NAME_OID) return content(expectTag(value, DerTag.OCTET_STRING, 'extnValue'));
    }
    return null;
  }
  return null;
}

/** A directory name SAN, for the error message only: `type=value` in encoding order. */
function describeName(name: DerElement): string {
  return children(expectTag(name, DerTag.SEQUENCE, 'Name'))
    .map((rdn) =>
      children(rdn)
        .map((attribute) => {
          const [type, value] = children(attribute);
          return `${readObjectIdentifier(type, 'attribute type')}=${Buffer.from(content(value)).toString('utf8')}`;
        })
        .join('+'),
    )
    .join(', ');
}

function invalid(reason: string): InvalidCsrError {
  return new InvalidCsrError('invalid_csr', `Invalid CSR: ${reason}`);
}
