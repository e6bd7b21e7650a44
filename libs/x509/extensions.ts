import { createHash } from 'node:crypto';
import {
  children,
  contextTag,
  DER_TRUE,
  DerTag,
  integerFromHex,
  namedBits,
  objectIdentifier,
  octetString,
  readBitStringOctets,
  readRoot,
  sequence,
  smallInteger,
  tlv,
} from './der';
import { ipAddressOctets, type SubjectAltNames } from './subject-alt-names';

/**
 * The certificate extensions the engine writes, encoded exactly as the profile in README.md says
 * (and as the engine has always encoded them: same values, criticality and string types).
 */
const OIDS = {
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  crlNumber: '2.5.29.20',
  reasonCode: '2.5.29.21',
  crlDistributionPoints: '2.5.29.31',
  authorityKeyIdentifier: '2.5.29.35',
  extendedKeyUsage: '2.5.29.37',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  ocsp: '1.3.6.1.5.5.7.48.1',
  caIssuers: '1.3.6.1.5.5.7.48.2',
} as const;

/** RFC 5280 §4.2.1.3 bit numbers. */
export const KEY_USAGE_BITS = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;

export type ExtendedKeyUsage = 'serverAuth' | 'clientAuth';

/** One Extension: extnID, critical (only when TRUE: DER leaves the default out), extnValue. */
export function extension(oid: string, critical: boolean, value: Uint8Array): Buffer {
  return sequence(critical ? [objectIdentifier(oid), DER_TRUE, octetString(value)] : [objectIdentifier(oid), octetString(value)]);
}

/** basicConstraints, critical: `CA:TRUE` with pathLen when given, or the empty sequence (CA:FALSE). */
export function basicConstraintsExtension(ca: boolean, pathLength: number | null): Buffer {
  const fields = ca ? [DER_TRUE, ...(pathLength === null ? [] : [smallInteger(pathLength)])] : [];
  return extension(OIDS.basicConstraints, true, sequence(fields));
}

/** keyUsage, critical. */
export function keyUsageExtension(bits: readonly number[]): Buffer {
  return extension(OIDS.keyUsage, true, namedBits(bits));
}

export function extendedKeyUsageExtension(usages: readonly ExtendedKeyUsage[]): Buffer {
  return extension(OIDS.extendedKeyUsage, false, sequence(usages.map((usage) => objectIdentifier(OIDS[usage]))));
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING's value. */
export function subjectKeyIdentifierOf(subjectPublicKeyInfo: Uint8Array): Buffer {
  const [, subjectPublicKey] = children(readRoot(subjectPublicKeyInfo, DerTag.SEQUENCE, 'SubjectPublicKeyInfo'));
  return createHash('sha1').update(readBitStringOctets(subjectPublicKey, 'subjectPublicKey')).digest();
}

export function subjectKeyIdentifierExtension(keyIdentifier: Uint8Array): Buffer {
  return extension(OIDS.subjectKeyIdentifier, false, octetString(keyIdentifier));
}

/** authorityKeyIdentifier with the keyIdentifier field only (the issuer's SKI, hex). */
export function authorityKeyIdentifierExtension(keyIdentifierHex: string): Buffer {
  return extension(OIDS.authorityKeyIdentifier, false, sequence([tlv(contextTag(0, false), Buffer.from(keyIdentifierHex, 'hex'))]));
}

/** subjectAltName, non-critical: DNS names, then IP addresses, then email addresses (values already validated). */
export function subjectAltNameExtension(sans: SubjectAltNames): Buffer {
  return extension(
    OIDS.subjectAltName,
    false,
    sequence([
      ...sans.dns.map((name) => tlv(contextTag(2, false), Buffer.from(name, 'latin1'))),
      ...sans.ip.map((address) => tlv(contextTag(7, false), ipAddressOctets(address))),
      ...sans.email.map((address) => tlv(contextTag(1, false), Buffer.from(address, 'latin1'))),
    ]),
  );
}

function uri(url: string): Buffer {
  return tlv(contextTag(6, false), Buffer.from(url, 'latin1'));
}

/** One distribution point with the URL as its full name. */
export function crlDistributionPointsExtension(url: string): Buffer {
  const fullName = tlv(contextTag(0, true), uri(url));
  return extension(OIDS.crlDistributionPoints, false, sequence([sequence([tlv(contextTag(0, true), fullName)])]));
}

/** authorityInfoAccess: OCSP first, then caIssuers. */
export function authorityInfoAccessExtension(ocspUrl: string | undefined, caIssuersUrl: string | undefined): Buffer {
  const descriptions = [
    ...(ocspUrl === undefined ? [] : [sequence([objectIdentifier(OIDS.ocsp), uri(ocspUrl)])]),
    ...(caIssuersUrl === undefined ? [] : [sequence([objectIdentifier(OIDS.caIssuers), uri(caIssuersUrl)])]),
  ];
  return extension(OIDS.authorityInfoAccess, false, sequence(descriptions));
}

/** cRLNumber, non-critical. */
export function crlNumberExtension(crlNumberHex: string): Buffer {
  return extension(OIDS.crlNumber, false, integerFromHex(crlNumberHex));
}

/** A CRL entry's reasonCode (ENUMERATED), non-critical. */
export function reasonCodeExtension(code: number): Buffer {
  return extension(OIDS.reasonCode, false, Buffer.of(DerTag.ENUMERATED, 1, code));
}
