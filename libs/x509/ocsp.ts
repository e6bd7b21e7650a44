import { createHash } from 'node:crypto';
import {
  BasicOCSPResponse,
  CertID,
  CertStatus,
  id_pkix_ocsp_basic,
  id_pkix_ocsp_nonce,
  OCSPRequest,
  OCSPResponse,
  OCSPResponseStatus,
  ResponderID,
  ResponseBytes,
  ResponseData,
  RevokedInfo,
  SingleResponse,
} from '@peculiar/asn1-ocsp';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, CRLReason, Extension } from '@peculiar/asn1-x509';
import { revocationReasonCode } from './crl-builder';
import { loadCertificate } from './certificate-reader';
import { subjectKeyIdentifierOf } from './extensions';
import { type CryptoKey, keyAlgorithmOf, signingKeyOf } from './key-pair';
import { type CertificateSource, certificatePemToDer } from './pem';
import { generateSerialNumber, normalizeSerialNumber } from './serial-number';
import { signatureSchemeFor, signData } from './signature';
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  cryptoEngine,
  Extension as X509Extension,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  Name,
  SubjectKeyIdentifierExtension,
  X509CertificateGenerator,
} from './x509-runtime';
import { X509EngineError } from './x509-error';

/** A request that is not a DER OCSPRequest this responder can answer (RFC 6960 malformedRequest). */
export class MalformedOcspRequestError extends X509EngineError<'malformed_ocsp_request'> {
  constructor(message: string) {
    super('malformed_ocsp_request', message);
  }
}

/** Hash algorithms a CertID may use, by OID. */
const CERT_ID_HASHES: ReadonlyMap<string, string> = new Map([
  ['1.3.14.3.2.26', 'sha1'],
  ['2.16.840.1.101.3.4.2.1', 'sha256'],
  ['2.16.840.1.101.3.4.2.2', 'sha384'],
  ['2.16.840.1.101.3.4.2.3', 'sha512'],
]);

/** RFC 8954: a nonce is 1 to 32 octets. */
const MAX_NONCE_OCTETS = 32;

/** One certificate asked about. `raw` is the CertID as sent: the response must echo it. */
export interface OcspQuery {
  readonly certId: CertID;
  /** The hash algorithm name (`sha1`, `sha256`, …), or null when the responder does not support it. */
  readonly hash: string | null;
  readonly serialHex: string;
}

export interface ParsedOcspRequest {
  readonly queries: readonly OcspQuery[];
  /** The nonce extension's value (the OCTET STRING it wraps, DER), when the client sent one. */
  readonly nonce: Buffer | null;
}

/** Reads a DER OCSPRequest. Signed requests are accepted and their signature ignored (RFC 6960 §4.1.2 leaves it to the responder). */
export function parseOcspRequest(der: Uint8Array): ParsedOcspRequest {
  let request: OCSPRequest;
  try {
    request = AsnConvert.parse(der, OCSPRequest);
  } catch (error) {
    throw new MalformedOcspRequestError(`Not a DER OCSPRequest: ${(error as Error).message}`);
  }
  const list = request.tbsRequest.requestList;
  if (list.length === 0) throw new MalformedOcspRequestError('The request lists no certificate');
  const queries = list.map(({ reqCert }) => {
    const serial = Buffer.from(reqCert.serialNumber);
    if (serial.length === 0 || serial.length > 64) throw new MalformedOcspRequestError('Invalid serial number');
    return {
      certId: reqCert,
      hash: CERT_ID_HASHES.get(reqCert.hashAlgorithm.algorithm) ?? null,
      serialHex: normalizeSerialNumber(serial.toString('hex')),
    };
  });
  const nonceExtension = request.tbsRequest.requestExtensions?.find((extension) => extension.extnID === id_pkix_ocsp_nonce);
  let nonce: Buffer | null = null;
  if (nonceExtension) {
    nonce = Buffer.from(nonceExtension.extnValue.buffer);
    let inner: OctetString;
    try {
      inner = AsnConvert.parse(nonce, OctetString);
    } catch {
      throw new MalformedOcspRequestError('The nonce extension does not hold an OCTET STRING');
    }
    if (inner.byteLength < 1 || inner.byteLength > MAX_NONCE_OCTETS) {
      throw new MalformedOcspRequestError(`The nonce must be 1 to ${MAX_NONCE_OCTETS} octets (RFC 8954)`);
    }
  }
  return { queries, nonce };
}

/** What a CertID has to match: the issuer's name and key, hashed per algorithm on first use. */
export class OcspIssuer {
  private readonly nameDer: Buffer;
  private readonly keyBits: Buffer;
  private readonly hashes = new Map<string, { name: Buffer; key: Buffer }>();
  /** SHA-1 of the signer's public key bits: the ResponderID byKey (RFC 5019 §2.2.3). */
  readonly responderKeyHash: Buffer;

  constructor(issuerCertificate: CertificateSource) {
    const certificate = AsnConvert.parse(certificateDer(issuerCertificate), Certificate);
    this.nameDer = Buffer.from(AsnConvert.serialize(certificate.tbsCertificate.subject));
    this.keyBits = Buffer.from(certificate.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey);
    this.responderKeyHash = createHash('sha1').update(this.keyBits).digest();
  }

  /** Whether a query names a certificate of this issuer (a CertID of another issuer gets `unknown`). */
  issued(query: OcspQuery): boolean {
    if (query.hash === null) return false;
    let hashes = this.hashes.get(query.hash);
    if (!hashes) {
      hashes = {
        name: createHash(query.hash).update(this.nameDer).digest(),
        key: createHash(query.hash).update(this.keyBits).digest(),
      };
      this.hashes.set(query.hash, hashes);
    }
    return (
      hashes.name.equals(Buffer.from(query.certId.issuerNameHash.buffer)) &&
      hashes.key.equals(Buffer.from(query.certId.issuerKeyHash.buffer))
    );
  }
}

export type OcspCertificateStatus =
  | { readonly status: 'good' }
  | { readonly status: 'unknown' }
  | { readonly status: 'revoked'; readonly revokedAt: Date; readonly reason: string | null };

export interface OcspAnswer {
  readonly query: OcspQuery;
  readonly status: OcspCertificateStatus;
}

export interface OcspResponseRequest {
  readonly answers: readonly OcspAnswer[];
  /** The responder: the CA itself or its delegated OCSP signing certificate. */
  readonly signerCertificate: CertificateSource;
  readonly signerPrivateKey: CryptoKey;
  /** Sent in `certs` when the signer is a delegated responder, so clients can check it (RFC 6960 §4.2.2.2). */
  readonly includeSignerCertificate: boolean;
  readonly thisUpdate: Date;
  readonly nextUpdate: Date;
  readonly nonce?: Buffer | null;
}

/** Builds and signs a successful OCSPResponse (id-pkix-ocsp-basic), DER. */
export async function buildOcspResponse(request: OcspResponseRequest): Promise<Buffer> {
  const signer = AsnConvert.parse(certificateDer(request.signerCertificate), Certificate);
  const keyBits = Buffer.from(signer.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey);
  const thisUpdate = wholeSeconds(request.thisUpdate);
  const nextUpdate = wholeSeconds(request.nextUpdate);
  const tbs = new ResponseData({
    responderID: new ResponderID({ byKey: new OctetString(createHash('sha1').update(keyBits).digest()) }),
    producedAt: thisUpdate,
    responses: request.answers.map(
      ({ query, status }) => new SingleResponse({ certID: query.certId, certStatus: certStatus(status), thisUpdate, nextUpdate }),
    ),
    ...(request.nonce && {
      responseExtensions: [new Extension({ extnID: id_pkix_ocsp_nonce, critical: false, extnValue: new OctetString(request.nonce) })],
    }),
  });
  const tbsDer = Buffer.from(AsnConvert.serialize(tbs));
  const key = signingKeyOf(request.signerPrivateKey);
  const signature = await signData(tbsDer, key);
  const basic = new BasicOCSPResponse({
    tbsResponseData: tbs,
    signatureAlgorithm: AsnConvert.parse(signatureSchemeFor(key.algorithm).algorithmIdentifier, AlgorithmIdentifier),
    signature: new Uint8Array(signature).buffer,
    ...(request.includeSignerCertificate && { certs: [signer] }),
  });
  return encodeResponse(
    new OCSPResponse({
      responseStatus: OCSPResponseStatus.successful,
      responseBytes: new ResponseBytes({ responseType: id_pkix_ocsp_basic, response: new OctetString(AsnConvert.serialize(basic)) }),
    }),
  );
}

/** An unsuccessful OCSPResponse: a status and nothing else (RFC 6960 §4.2.1), DER. */
export function ocspErrorResponse(status: 'malformedRequest' | 'internalError' | 'tryLater' | 'unauthorized'): Buffer {
  return encodeResponse(new OCSPResponse({ responseStatus: OCSPResponseStatus[status] }));
}

function encodeResponse(response: OCSPResponse): Buffer {
  return Buffer.from(AsnConvert.serialize(response));
}

function certStatus(status: OcspCertificateStatus): CertStatus {
  switch (status.status) {
    case 'good':
      return new CertStatus({ good: null });
    case 'unknown':
      return new CertStatus({ unknown: null });
    case 'revoked': {
      const code = revocationReasonCode(status.reason);
      return new CertStatus({
        revoked: new RevokedInfo({
          revocationTime: wholeSeconds(status.revokedAt),
          ...(code !== null && { revocationReason: new CRLReason(code) }),
        }),
      });
    }
  }
}

function certificateDer(source: CertificateSource): Uint8Array {
  return typeof source === 'string' ? certificatePemToDer(source) : source;
}

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

export const ID_KP_OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
const ID_PKIX_OCSP_NOCHECK = '1.3.6.1.5.5.7.48.1.5';
/** The DER NULL id-pkix-ocsp-nocheck carries (RFC 6960 §4.2.2.2.1). */
const DER_NULL = new Uint8Array([0x05, 0x00]);

export interface OcspSigningCertificateRequest {
  readonly issuerCertificate: CertificateSource;
  readonly issuerPrivateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/**
 * A delegated OCSP responder certificate (RFC 6960 §4.2.2.2): issued by the CA it answers for, with
 * id-kp-OCSPSigning as its only extended key usage and id-pkix-ocsp-nocheck, so clients do not ask
 * about the responder itself; its subject is the CA's subject with an `OCSP Responder` CN. Rotated
 * rarely, so built with @peculiar/x509 rather than the engine's fast path. Returns PEM.
 */
export async function buildOcspSigningCertificate(request: OcspSigningCertificateRequest): Promise<string> {
  const issuer = loadCertificate(request.issuerCertificate);
  const publicKeyDer = new Uint8Array(await cryptoEngine.subtle.exportKey('spki', request.publicKey));
  const issuerKeyId = issuer.getExtension(SubjectKeyIdentifierExtension)?.keyId;
  const certificate = await X509CertificateGenerator.create({
    serialNumber: generateSerialNumber(),
    subject: new Name([{ CN: ['OCSP Responder'] }]),
    issuer: issuer.subjectName,
    notBefore: request.notBefore,
    notAfter: request.notAfter,
    publicKey: request.publicKey,
    signingKey: request.issuerPrivateKey,
    signingAlgorithm: signingAlgorithmOf(request.issuerPrivateKey),
    extensions: [
      new BasicConstraintsExtension(false, undefined, true),
      new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
      new ExtendedKeyUsageExtension([ID_KP_OCSP_SIGNING], false),
      new X509Extension(ID_PKIX_OCSP_NOCHECK, false, DER_NULL),
      new SubjectKeyIdentifierExtension(subjectKeyIdentifierOf(publicKeyDer).toString('hex')),
      ...(issuerKeyId ? [new AuthorityKeyIdentifierExtension(issuerKeyId)] : []),
    ],
  });
  return certificate.toString('pem');
}

function signingAlgorithmOf(key: CryptoKey): { name: string; hash?: string } {
  const algorithm = keyAlgorithmOf(key);
  switch (algorithm.type) {
    case 'rsa':
      return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    case 'ec':
      return { name: 'ECDSA', hash: algorithm.curve === 'P-256' ? 'SHA-256' : 'SHA-384' };
    case 'ed25519':
      return { name: 'Ed25519' };
  }
}
