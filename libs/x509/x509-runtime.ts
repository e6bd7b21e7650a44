// @peculiar/x509 resolves its algorithm registry through tsyringe, which needs the Reflect
// metadata polyfill loaded before the library itself; every engine module imports the library
// through this file so the order is guaranteed without relying on the application's entry point.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { cryptoProvider } from '@peculiar/x509';

export {
  AuthorityInfoAccessExtension,
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  CRLDistributionPointsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  Extension,
  KeyUsageFlags,
  KeyUsagesExtension,
  Name,
  Pkcs10CertificateRequest,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
  X509CertificateGenerator,
  X509Crl,
  X509CrlGenerator,
} from '@peculiar/x509';
export type { JsonGeneralName, JsonNameParams } from '@peculiar/x509';

/** Node's WebCrypto; passed explicitly everywhere so no code path depends on a global `crypto`. */
export const cryptoEngine: webcrypto.Crypto = webcrypto;

cryptoProvider.set(webcrypto);
