import { createHash } from 'node:crypto';
import { X509EngineError } from './x509-error';

export const CERTIFICATE_PEM_LABEL = 'CERTIFICATE';
export const CRL_PEM_LABEL = 'X509 CRL';
export const PRIVATE_KEY_PEM_LABEL = 'PRIVATE KEY';

/** A certificate as the service layer holds it: PEM text or raw DER bytes. */
export type CertificateSource = string | Uint8Array;

export class InvalidPemError extends X509EngineError<'invalid_pem'> {
  constructor(message: string) {
    super('invalid_pem', message);
  }
}

interface PemBlock {
  readonly label: string;
  readonly der: Uint8Array;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END ([A-Z0-9 ]+)-----/g;
const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;

/** Encodes DER as RFC 7468 PEM: 64-character base64 lines and a trailing newline. */
export function encodePem(der: Uint8Array, label: string): string {
  const base64 = Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('base64');
  const lines: string[] = [];
  for (let offset = 0; offset < base64.length; offset += 64) lines.push(base64.slice(offset, offset + 64));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

function readPemBlocks(pem: string): PemBlock[] {
  if (typeof pem !== 'string') {
    throw new InvalidPemError('PEM input must be a string');
  }
  const blocks: PemBlock[] = [];
  for (const match of pem.matchAll(PEM_BLOCK)) {
    const [, label, rawBody, endLabel] = match;
    if (label !== endLabel) {
      throw new InvalidPemError(`PEM block "BEGIN ${label}" is closed by "END ${endLabel}"`);
    }
    const body = rawBody.replace(/\s+/g, '');
    // Buffer.from(…, 'base64') silently skips invalid characters, so the alphabet is checked first.
    if (body.length === 0 || body.length % 4 !== 0 || !BASE64_BODY.test(body)) {
      throw new InvalidPemError(`PEM block "${label}" does not contain valid base64 data`);
    }
    blocks.push({ label, der: new Uint8Array(Buffer.from(body, 'base64')) });
  }
  return blocks;
}

/** Returns the DER of every PEM block carrying one of `labels`, in order. */
export function decodePemBlocks(pem: string, labels: string | readonly string[]): Uint8Array[] {
  const accepted = typeof labels === 'string' ? [labels] : labels;
  const blocks = readPemBlocks(pem);
  if (blocks.length === 0) {
    throw new InvalidPemError('No PEM block found');
  }
  const matching = blocks.filter((block) => accepted.includes(block.label));
  if (matching.length === 0) {
    const found = [...new Set(blocks.map((block) => block.label))].join(', ');
    throw new InvalidPemError(`Expected a PEM block labelled ${accepted.map((label) => `"${label}"`).join(' or ')}, found ${found}`);
  }
  return matching.map((block) => block.der);
}

/** Returns the DER of the first PEM block carrying one of `labels`. */
export function decodePem(pem: string, labels: string | readonly string[]): Uint8Array {
  return decodePemBlocks(pem, labels)[0];
}

export function certificatePemToDer(pem: string): Uint8Array {
  return decodePem(pem, CERTIFICATE_PEM_LABEL);
}

export function certificateDerToPem(der: Uint8Array): string {
  return encodePem(der, CERTIFICATE_PEM_LABEL);
}

export function certificateSourceToDer(source: CertificateSource): Uint8Array {
  return typeof source === 'string' ? certificatePemToDer(source) : source;
}

/** Concatenates certificates (leaf first, by convention) into one PEM bundle, re-encoding each block. */
export function concatenatePemChain(certificates: readonly CertificateSource[]): string {
  return certificates.map((certificate) => certificateDerToPem(certificateSourceToDer(certificate))).join('');
}

/** Splits a PEM bundle into one normalised PEM string per certificate. */
export function splitPemChain(bundle: string): string[] {
  return decodePemBlocks(bundle, CERTIFICATE_PEM_LABEL).map(certificateDerToPem);
}

/** SHA-256 over the certificate's DER, as 64 lowercase hex characters (no separators). */
export function sha256Fingerprint(source: CertificateSource): string {
  return createHash('sha256').update(certificateSourceToDer(source)).digest('hex');
}
