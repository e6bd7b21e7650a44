import { Injectable } from '@nestjs/common';
import {
  buildOcspResponse,
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

/** A signed response kept for reuse while the certificate's status is what it was signed with. */
interface CachedResponse {
  readonly der: Buffer;
  /** The status it states, as a comparable key: a revocation changes it. */
  readonly statusKey: string;
  /** When it is signed again, halfway through its validity, so a cache never serves one near its nextUpdate. */
  readonly refreshAt: number;
  readonly nextUpdate: Date;
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

  constructor(
    private readonly dataSource: DataSource,
    private readonly publicPki: PublicPkiService,
    private readonly caService: CaService,
    private readonly config: AppConfig,
  ) {}

  async respond(slug: string, requestDer: Uint8Array): Promise<OcspHttpResponse> {
    let ca: CertificateAuthorityEntity;
    try {
      ca = await this.publicPki.ca(slug);
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
    const answers = await Promise.all(parsed.queries.map(async (query) => ({ query, status: await this.statusOf(ca.id, query) })));
    if (parsed.nonce === null && answers.length === 1) return this.cached(ca, answers[0]);
    const signed = await this.sign(ca, answers, parsed.nonce);
    return { der: signed.der, nextUpdate: null };
  }

  private async cached(ca: CertificateAuthorityEntity, answer: OcspAnswer): Promise<OcspHttpResponse> {
    const key = `${ca.id}:${answer.query.hash}:${answer.query.serialHex}`;
    const statusKey = statusKeyOf(answer.status);
    const hit = this.responses.get(key);
    if (hit && hit.statusKey === statusKey && hit.refreshAt > Date.now()) return { der: hit.der, nextUpdate: hit.nextUpdate };
    const signed = await this.sign(ca, [answer], null);
    const validity = signed.nextUpdate.getTime() - signed.thisUpdate.getTime();
    this.responses.delete(key);
    if (this.responses.size >= MAX_CACHED_RESPONSES) this.responses.delete(this.responses.keys().next().value!);
    this.responses.set(key, {
      der: signed.der,
      statusKey,
      refreshAt: signed.thisUpdate.getTime() + validity / 2,
      nextUpdate: signed.nextUpdate,
    });
    return { der: signed.der, nextUpdate: signed.nextUpdate };
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
  ): Promise<{ der: Buffer; thisUpdate: Date; nextUpdate: Date }> {
    const signer = await this.caService.signer(ca);
    // Backdated a minute, as certificates are, for relying parties with slightly slow clocks.
    const thisUpdate = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const nextUpdate = new Date(thisUpdate.getTime() + this.config.ocspValidityHours * 3_600_000);
    const der = await buildOcspResponse({
      answers,
      signerCertificate: ca.certificate,
      signerPrivateKey: signer.privateKey,
      includeSignerCertificate: false,
      thisUpdate,
      nextUpdate,
      nonce,
    });
    return { der, thisUpdate, nextUpdate };
  }

  private issuerOf(ca: CertificateAuthorityEntity): OcspIssuer {
    const known = this.issuers.get(ca.id);
    if (known?.certificate === ca.certificate) return known.issuer;
    const issuer = new OcspIssuer(ca.certificate);
    this.issuers.set(ca.id, { certificate: ca.certificate, issuer });
    return issuer;
  }
}

function statusKeyOf(status: OcspCertificateStatus): string {
  return status.status === 'revoked' ? `revoked:${status.revokedAt.getTime()}:${status.reason ?? ''}` : status.status;
}
