import { Injectable } from '@nestjs/common';
import {
  buildOcspResponse,
  buildOcspSigningCertificate,
  type CryptoKey,
  exportPrivateKeyPem,
  generateKeyPair,
  importPrivateKeyPem,
  readCertificate,
  MalformedOcspRequestError,
  type OcspAnswer,
  type OcspCertificateStatus,
  OcspIssuer,
  type OcspQuery,
  ocspErrorResponse,
  parseOcspRequest,
} from '@libs/x509';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { preparedQuery } from '../../common/database/prepared-query';
import { NotFoundError } from '../../common/errors/common-errors';
import { CaService } from './ca.service';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { keySpecFor } from './key-type';
import { PrivateKeyVault } from './private-key-vault';
import { PublicPkiService } from './public-pki.service';

/** At most this many signed single-certificate responses are kept in memory (oldest dropped first). */
const MAX_CACHED_RESPONSES = 100_000;

const CERTIFICATE_STATUS_QUERY = `SELECT status, revoked_at, revocation_reason FROM certificates
  WHERE issuer_id = $1 AND serial_number = $2`;

interface CertificateStatusRow {
  status: 'valid' | 'revoked';
  revoked_at: Date | null;
  revocation_reason: string | null;
}

/** A delegated responder certificate is valid this long (cut at the CA's notAfter)… */
const DELEGATED_VALIDITY_MS = 30 * 86_400_000;
/** …and replaced when less than this is left: more than the longest OCSP validity (168 h). */
const DELEGATED_ROTATE_BEFORE_MS = 10 * 86_400_000;
/** Delegated responder keys are RSA-2048 under RSA CAs; EC and Ed25519 CAs get their own key type. */
const DELEGATED_RSA_BITS = 2048;

/** What signs a CA's OCSP answers. */
interface Responder {
  readonly certificate: string;
  readonly notAfter: Date;
  readonly privateKey: CryptoKey;
  readonly delegated: boolean;
}

/**
 * How long a process answers from a CA row it read (slug, certificate, settings, revocation count)
 * before reading it again; a revocation made in this process drops it at once.
 */
const CA_STATE_TTL_MS = 1000;

/** A signed response kept for reuse while the certificate's status is what it was signed with. */
interface CachedResponse {
  readonly der: Buffer;
  /** The CA's revocation count when the status was last read: unchanged, no revocation can have changed it. */
  revocationCount: number;
  /** The status it states, as a comparable key: a revocation changes it. */
  readonly statusKey: string;
  /** When it is signed again, halfway through its validity, so a cache never serves one near its nextUpdate. */
  readonly refreshAt: number;
  readonly nextUpdate: Date;
  /** The responder certificate it was signed under: a rotated or switched responder signs again. */
  readonly signerCertificate: string;
  /** When a delegated signer falls due for rotation (never for the CA's own key). */
  readonly signerRotatesAt: number;
}

/** A CA row as read, and when: the lean path answers from it only while it is fresh. */
interface CaState {
  readonly readAt: number;
  readonly ca: Promise<CertificateAuthorityEntity>;
  /** The row once the read has finished, for the synchronous lookup of `cachedAnswer`. */
  settled?: CertificateAuthorityEntity;
  /** The row of the read this one replaced, answered from until this read finishes. */
  readonly previous?: CertificateAuthorityEntity;
}

/** An OCSP answer as sent: DER and, for a signed response, how long HTTP caches may keep it. */
export interface OcspHttpResponse {
  readonly der: Buffer;
  /** nextUpdate of a cacheable (nonce-free, single-certificate) successful response; null otherwise. */
  readonly nextUpdate: Date | null;
}

/**
 * The OCSP responder of every CA (RFC 6960, RFC 5019 profile, RFC 8954 nonces). Each answer reads the
 * certificate's status row (one prepared statement), so a revocation made by any process is answered
 * at once; the signed response for that status is reused until halfway to its nextUpdate. A request
 * with a nonce is signed afresh, echoing the nonce.
 */
@Injectable()
export class OcspService {
  private readonly responses = new Map<string, CachedResponse>();
  private readonly issuers = new Map<number, { certificate: string; issuer: OcspIssuer }>();
  private readonly delegatedKeys = new Map<number, { ciphertext: string; key: Promise<CryptoKey> }>();
  private readonly rotations = new Map<number, Promise<CertificateAuthorityEntity>>();
  private readonly caStates = new Map<string, CaState>();
  /** Cached entries by CA slug and the request's DER (base64), for `cachedAnswer`: the same objects as `responses`. */
  private readonly byRequest = new Map<string, CachedResponse>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly publicPki: PublicPkiService,
    private readonly caService: CaService,
    private readonly vault: PrivateKeyVault,
    private readonly config: AppConfig,
  ) {}

  async respond(slug: string, requestDer: Uint8Array): Promise<OcspHttpResponse> {
    let ca: CertificateAuthorityEntity;
    try {
      ca = await this.caBySlug(slug);
    } catch (error) {
      // RFC 6960 §2.3: a responder asked about a CA it does not serve answers unauthorized.
      if (error instanceof NotFoundError) return { der: ocspErrorResponse('unauthorized'), nextUpdate: null };
      throw error;
    }
    let parsed: ReturnType<typeof parseOcspRequest>;
    try {
      parsed = parseOcspRequest(requestDer);
    } catch (error) {
      if (error instanceof MalformedOcspRequestError) return { der: ocspErrorResponse('malformedRequest'), nextUpdate: null };
      throw error;
    }
    const issuer = this.issuerOf(ca);
    if (!parsed.queries.every((query) => issuer.issued(query))) return { der: ocspErrorResponse('unauthorized'), nextUpdate: null };
    if (parsed.nonce === null && parsed.queries.length === 1) return this.cached(ca, parsed.queries[0], requestKey(slug, requestDer));
    const answers = await Promise.all(parsed.queries.map(async (query) => ({ query, status: await this.statusOf(ca.id, query) })));
    const signed = await this.sign(ca, answers, parsed.nonce);
    return { der: signed.der, nextUpdate: null };
  }

  /**
   * The cached answer to a nonce-free single-certificate request, found by the request's bytes with
   * no parsing, signing or query: only while the CA's revocation count (read at most a second ago, or
   * the read before while a new one is under way) is the one the status was read under, the answer
   * is in the first half of its validity and its signer is current. Otherwise null, and `respond`
   * decides. A row older than a second starts a new read here, so the cached path keeps it fresh.
   */
  cachedAnswer(slug: string, requestDer: Uint8Array): OcspHttpResponse | null {
    let state = this.caStates.get(slug);
    if (state === undefined) return null;
    if (Date.now() - state.readAt >= CA_STATE_TTL_MS) {
      this.caBySlug(slug).catch(() => undefined);
      state = this.caStates.get(slug);
    }
    const ca = state?.settled ?? state?.previous;
    if (ca === undefined) return null;
    const hit = this.byRequest.get(requestKey(slug, requestDer));
    if (hit === undefined || hit.revocationCount !== ca.revocationCount) return null;
    const now = Date.now();
    if (hit.refreshAt <= now || hit.signerRotatesAt <= now) return null;
    const signer = ca.ocspSigner === 'ca' ? ca.certificate : ca.ocspSignerCertificate;
    return hit.signerCertificate === signer ? { der: hit.der, nextUpdate: hit.nextUpdate } : null;
  }

  /** Forgets what it read of the CAs' rows, so a revocation made here is answered at once. */
  forgetCaStates(): void {
    this.caStates.clear();
  }

  /**
   * The CA a slug names, read at most once a second per process (concurrent requests share the read):
   * the cached path then costs no query while the CA's revocation count stays the same.
   */
  private caBySlug(slug: string): Promise<CertificateAuthorityEntity> {
    const known = this.caStates.get(slug);
    if (known && Date.now() - known.readAt < CA_STATE_TTL_MS) return known.ca;
    const ca = this.publicPki.ca(slug);
    const state: CaState = { readAt: Date.now(), ca, previous: known?.settled };
    ca.then(
      (row) => (state.settled = row),
      () => this.caStates.get(slug) === state && this.caStates.delete(slug),
    );
    this.caStates.set(slug, state);
    return ca;
  }

  private async cached(ca: CertificateAuthorityEntity, query: OcspQuery, byRequestKey: string): Promise<OcspHttpResponse> {
    const key = `${ca.id}:${query.hash}:${query.serialHex}`;
    const hit = this.responses.get(key);
    if (hit) this.remember(byRequestKey, hit);
    const reusable = hit !== undefined && hit.refreshAt > Date.now() && hit.signerCertificate === this.currentSignerCertificate(ca);
    if (reusable && hit.revocationCount === ca.revocationCount) return { der: hit.der, nextUpdate: hit.nextUpdate };
    const status = await this.statusOf(ca.id, query);
    const statusKey = statusKeyOf(status);
    if (reusable && hit.statusKey === statusKey) {
      hit.revocationCount = ca.revocationCount;
      return { der: hit.der, nextUpdate: hit.nextUpdate };
    }
    const signed = await this.sign(ca, [{ query, status }], null);
    const validity = signed.nextUpdate.getTime() - signed.thisUpdate.getTime();
    this.responses.delete(key);
    if (this.responses.size >= MAX_CACHED_RESPONSES) this.responses.delete(this.responses.keys().next().value!);
    const entry: CachedResponse = {
      der: signed.der,
      revocationCount: ca.revocationCount,
      statusKey,
      refreshAt: signed.thisUpdate.getTime() + validity / 2,
      nextUpdate: signed.nextUpdate,
      signerCertificate: signed.signerCertificate,
      signerRotatesAt:
        ca.ocspSigner === 'ca' ? Infinity : readCertificate(signed.signerCertificate).notAfter.getTime() - DELEGATED_ROTATE_BEFORE_MS,
    };
    this.responses.set(key, entry);
    this.remember(byRequestKey, entry);
    return { der: signed.der, nextUpdate: signed.nextUpdate };
  }

  /** Files an entry under the request that asked for it too (bounded like `responses`). */
  private remember(byRequestKey: string, entry: CachedResponse): void {
    if (this.byRequest.get(byRequestKey) === entry) return;
    this.byRequest.delete(byRequestKey);
    if (this.byRequest.size >= MAX_CACHED_RESPONSES) this.byRequest.delete(this.byRequest.keys().next().value!);
    this.byRequest.set(byRequestKey, entry);
  }

  private async statusOf(caId: number, query: OcspQuery): Promise<OcspCertificateStatus> {
    const [row] = await preparedQuery<CertificateStatusRow>(this.dataSource.manager, CERTIFICATE_STATUS_QUERY, [caId, query.serialHex]);
    if (!row) return { status: 'unknown' };
    if (row.status === 'revoked') return { status: 'revoked', revokedAt: row.revoked_at!, reason: row.revocation_reason };
    return { status: 'good' };
  }

  private async sign(
    ca: CertificateAuthorityEntity,
    answers: readonly OcspAnswer[],
    nonce: Buffer | null,
  ): Promise<{ der: Buffer; thisUpdate: Date; nextUpdate: Date; signerCertificate: string }> {
    const responder = await this.responderOf(ca);
    // Backdated a minute, as certificates are, for relying parties with slightly slow clocks.
    const thisUpdate = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const validityMs = (ca.ocspValidityHours ?? this.config.ocspValidityHours) * 3_600_000;
    const nextUpdate = new Date(Math.min(thisUpdate.getTime() + validityMs, responder.notAfter.getTime()));
    const der = await buildOcspResponse({
      answers,
      signerCertificate: responder.certificate,
      signerPrivateKey: responder.privateKey,
      includeSignerCertificate: responder.delegated,
      thisUpdate,
      nextUpdate,
      nonce,
    });
    return { der, thisUpdate, nextUpdate, signerCertificate: responder.certificate };
  }

  /** The certificate answers are signed under now: the CA's, or its delegated responder's while that is not due for rotation. */
  private currentSignerCertificate(ca: CertificateAuthorityEntity): string | null {
    if (ca.ocspSigner === 'ca') return ca.certificate;
    return ca.ocspSignerCertificate !== null && !dueForRotation(ca.ocspSignerCertificate) ? ca.ocspSignerCertificate : null;
  }

  private async responderOf(ca: CertificateAuthorityEntity): Promise<Responder> {
    if (ca.ocspSigner === 'ca') {
      const signer = await this.caService.signer(ca);
      return { certificate: ca.certificate, notAfter: ca.notAfter, privateKey: signer.privateKey, delegated: false };
    }
    let current = ca;
    if (this.currentSignerCertificate(ca) === null) current = await this.rotate(ca);
    const certificate = current.ocspSignerCertificate!;
    return {
      certificate,
      notAfter: readCertificate(certificate).notAfter,
      privateKey: await this.delegatedKey(current.id, current.ocspSignerPrivateKey!),
      delegated: true,
    };
  }

  /**
   * Issues the CA a new delegated responder certificate. Within a process one rotation per CA runs;
   * across processes the update is conditional on the certificate it replaces, and a process that
   * loses reads the winner's.
   */
  private rotate(ca: CertificateAuthorityEntity): Promise<CertificateAuthorityEntity> {
    const running = this.rotations.get(ca.id);
    if (running) return running;
    const rotation = this.issueDelegated(ca).finally(() => this.rotations.delete(ca.id));
    this.rotations.set(ca.id, rotation);
    return rotation;
  }

  private async issueDelegated(ca: CertificateAuthorityEntity): Promise<CertificateAuthorityEntity> {
    const signer = await this.caService.signer(ca);
    const keys = await generateKeyPair(keySpecFor(ca.keyType, DELEGATED_RSA_BITS));
    const notBefore = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const notAfter = new Date(Math.min(notBefore.getTime() + DELEGATED_VALIDITY_MS, ca.notAfter.getTime()));
    const certificate = await buildOcspSigningCertificate({
      issuerCertificate: ca.certificate,
      issuerPrivateKey: signer.privateKey,
      publicKey: keys.publicKey,
      notBefore,
      notAfter,
    });
    const privateKey = this.vault.encrypt(await exportPrivateKeyPem(keys.privateKey));
    const result = await this.dataSource
      .createQueryBuilder()
      .update(CertificateAuthorityEntity)
      .set({ ocspSignerCertificate: certificate, ocspSignerPrivateKey: privateKey })
      .where('id = :id AND ocsp_signer_certificate IS NOT DISTINCT FROM :previous', { id: ca.id, previous: ca.ocspSignerCertificate })
      .execute();
    if (result.affected) return { ...ca, ocspSignerCertificate: certificate, ocspSignerPrivateKey: privateKey };
    return this.dataSource.manager.findOneByOrFail(CertificateAuthorityEntity, { id: ca.id });
  }

  /** The delegated responder's key, imported once per stored ciphertext. */
  private delegatedKey(caId: number, ciphertext: string): Promise<CryptoKey> {
    const cached = this.delegatedKeys.get(caId);
    if (cached?.ciphertext === ciphertext) return cached.key;
    const key = importPrivateKeyPem(this.vault.decrypt(ciphertext));
    key.catch(() => this.delegatedKeys.delete(caId));
    this.delegatedKeys.set(caId, { ciphertext, key });
    return key;
  }

  private issuerOf(ca: CertificateAuthorityEntity): OcspIssuer {
    const known = this.issuers.get(ca.id);
    if (known?.certificate === ca.certificate) return known.issuer;
    const issuer = new OcspIssuer(ca.certificate);
    this.issuers.set(ca.id, { certificate: ca.certificate, issuer });
    return issuer;
  }
}

function requestKey(slug: string, requestDer: Uint8Array): string {
  return `${slug}\n${Buffer.from(requestDer.buffer, requestDer.byteOffset, requestDer.byteLength).toString('latin1')}`;
}

function dueForRotation(certificate: string): boolean {
  return readCertificate(certificate).notAfter.getTime() - Date.now() < DELEGATED_ROTATE_BEFORE_MS;
}

function statusKeyOf(status: OcspCertificateStatus): string {
  return status.status === 'revoked' ? `revoked:${status.revokedAt.getTime()}:${status.reason ?? ''}` : status.status;
}
