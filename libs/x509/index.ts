export { X509EngineError } from './x509-error';
export {
  commonNameOf,
  DISTINGUISHED_NAME_KEYS,
  distinguishedNameAttributes,
  formatDistinguishedName,
  InvalidDistinguishedNameError,
  parseDistinguishedName,
  validateDistinguishedName,
  withCommonName,
} from './distinguished-name';
export type {
  DistinguishedName,
  DistinguishedNameAttribute,
  DistinguishedNameFields,
  DistinguishedNameKey,
  RelativeDistinguishedName,
} from './distinguished-name';
export {
  describeKeyAlgorithm,
  EC_CURVES,
  exportPrivateKeyPem,
  generateKeyPair,
  importPrivateKeyPem,
  InvalidKeyError,
  keyAlgorithmOf,
  MIN_RSA_KEY_SIZE,
  readPublicKeyInfo,
  RSA_KEY_SIZES,
} from './key-pair';
export type {
  CertifiablePublicKey,
  CryptoKey,
  CryptoKeyPair,
  EcCurve,
  InvalidKeyErrorCode,
  KeyAlgorithm,
  KeySpec,
  PublicKeyInfo,
  RsaKeySize,
} from './key-pair';
export { generateSerialNumber, InvalidSerialNumberError, normalizeSerialNumber, SERIAL_NUMBER_BYTES } from './serial-number';
export {
  CERTIFICATE_PROFILES,
  isDnsName,
  isEmailAddress,
  isIpAddress,
  normalizeDnsName,
  normalizeEmailAddress,
  normalizeIpAddress,
  resolveSubjectAltNames,
  SubjectAltNameError,
} from './subject-alt-names';
export type { CertificateProfile, SubjectAltNameErrorCode, SubjectAltNames } from './subject-alt-names';
export { certificateDerToPem, certificatePemToDer, concatenatePemChain, InvalidPemError, sha256Fingerprint, splitPemChain } from './pem';
export type { CertificateSource } from './pem';
export { InvalidCertificateError, readCertificate } from './certificate-reader';
export type { CertificateInfo } from './certificate-reader';
export { IssuanceError } from './issuer';
export type { IssuanceErrorCode } from './issuer';
export { buildCaCertificate, buildLeafCertificate, MAX_VALID_DAYS, NOT_BEFORE_BACKDATE_SECONDS } from './certificate-builder';
export type { CaCertificateRequest, IssuedCertificate, IssuerUrls, LeafCertificateRequest } from './certificate-builder';
export { InvalidCsrError, parseCsr } from './csr';
export { buildCertsOnlyPkcs7, buildCsrAttributes, ENCRYPTED_KEY_REQUEST_ATTRIBUTES, privateKeyPemToDer } from './est';
export type { InvalidCsrErrorCode, ParsedCsr } from './csr';
export { buildCrl, crlDerToPem, crlPemToDer, REVOCATION_REASON_CODES, revocationReasonCode } from './crl-builder';
export type { BuiltCrl, CrlEntry, CrlRequest, RevocationReason } from './crl-builder';
export {
  buildOcspResponse,
  buildOcspSigningCertificate,
  MalformedOcspRequestError,
  OcspIssuer,
  ocspErrorResponse,
  parseOcspRequest,
} from './ocsp';
export type { OcspAnswer, OcspCertificateStatus, OcspQuery, OcspResponseRequest, ParsedOcspRequest } from './ocsp';
