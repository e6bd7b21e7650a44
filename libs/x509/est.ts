import { constructed, contextTag, objectIdentifier, sequence, set, smallInteger } from './der';
import { type CertificateSource, certificateSourceToDer, decodePem, PRIVATE_KEY_PEM_LABEL } from './pem';

const SIGNED_DATA_OID = '1.2.840.113549.1.7.2';
const DATA_OID = '1.2.840.113549.1.7.1';

/**
 * CSR attributes by which an EST client asks for its server-generated key encrypted (RFC 7030
 * §4.4.1.1 DecryptKeyIdentifier, §4.4.1.2 AsymmetricDecryptKeyIdentifier).
 */
export const ENCRYPTED_KEY_REQUEST_ATTRIBUTES: ReadonlyMap<string, string> = new Map([
  ['1.2.840.113549.1.9.16.2.37', 'DecryptKeyIdentifier'],
  ['1.2.840.113549.1.9.16.2.54', 'AsymmetricDecryptKeyIdentifier'],
]);

/**
 * A "certs-only" PKCS#7 (RFC 5652 SignedData with no signers, RFC 7030 §4.1.3): a ContentInfo of
 * SignedData version 1, no digest algorithms, id-data with no content, the certificates in the order
 * given, no signer infos. This is what `openssl pkcs7 -print_certs` and every EST client read.
 */
export function buildCertsOnlyPkcs7(certificates: readonly CertificateSource[]): Buffer {
  const signedData = sequence([
    smallInteger(1),
    set([]),
    sequence([objectIdentifier(DATA_OID)]),
    constructed(contextTag(0, true), certificates.map(certificateSourceToDer)),
    set([]),
  ]);
  return sequence([objectIdentifier(SIGNED_DATA_OID), constructed(contextTag(0, true), [signedData])]);
}

/** CsrAttrs (RFC 7030 §4.5.2) listing object identifiers only, e.g. the signature algorithm the CSR should use. */
export function buildCsrAttributes(oids: readonly string[]): Buffer {
  return sequence(oids.map(objectIdentifier));
}

/** The DER PKCS#8 PrivateKeyInfo of a `PRIVATE KEY` PEM (the `application/pkcs8` part of an EST serverkeygen answer). */
export function privateKeyPemToDer(pem: string): Uint8Array {
  return decodePem(pem, PRIVATE_KEY_PEM_LABEL);
}
