import { Injectable } from '@nestjs/common';
import { buildCrl, crlDerToPem } from '@libs/x509';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { CaService } from './ca.service';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { Metrics } from '../../common/metrics/metrics';

/** A stored CRL is rebuilt when less than this much of its validity is left. */
const REFRESH_BEFORE_MS = 24 * 60 * 60 * 1000;

/** Advisory-lock namespace of CRL rebuilds (the second key is the CA id). */
const CRL_REBUILD_LOCK = 0x43524c;

/** What decides whether a CA's stored CRL is current. */
export type CrlState = Pick<CertificateAuthorityEntity, 'id' | 'crlNumber' | 'crlNextUpdate' | 'revocationCount' | 'crlRevocationCount'>;

/** A CRL as served: DER, and PEM made from it on first request. */
export interface CrlDocument {
  readonly crlNumber: string;
  readonly der: Buffer;
  pem?: Buffer;
}

/**
 * Per-CA CRLs, stored on the CA row and kept in memory by CRL number. A stored CRL is current when
 * it covers every revocation (the CA's revocation count) and is not close to its nextUpdate.
 * Rebuilds take a per-CA advisory lock and re-check under it, so concurrent revocations — in this
 * process or another — share one rebuild instead of each building the list again; within a process
 * at most one rebuild per CA runs and one more waits. CRL numbers only grow.
 */
@Injectable()
export class CrlService {
  private readonly documents = new Map<number, CrlDocument>();
  private readonly running = new Map<number, Promise<CrlDocument>>();
  private readonly queued = new Map<number, Promise<CrlDocument>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly caService: CaService,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** The current CRL of a CA, rebuilt first when it misses revocations or nears its nextUpdate. */
  async current(ca: CrlState): Promise<CrlDocument> {
    return isCurrent(ca) ? this.stored(this.dataSource.manager, ca) : this.refresh(ca.id);
  }

  /**
   * Brings a CA's CRL up to date with every revocation committed so far. A call made while a rebuild
   * runs waits for the next one, which starts after the running one ends and so sees its revocation.
   */
  refresh(caId: number): Promise<CrlDocument> {
    const queued = this.queued.get(caId);
    if (queued) return queued;
    const running = this.running.get(caId);
    if (!running) return this.start(caId);
    const next = running
      .catch(() => undefined)
      .then(() => {
        this.queued.delete(caId);
        return this.start(caId);
      });
    this.queued.set(caId, next);
    return next;
  }

  private start(caId: number): Promise<CrlDocument> {
    const run = this.rebuildUnlessCurrent(caId).finally(() => this.running.delete(caId));
    this.running.set(caId, run);
    return run;
  }

  private rebuildUnlessCurrent(caId: number): Promise<CrlDocument> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [CRL_REBUILD_LOCK, caId]);
      const ca = await manager.findOneOrFail(CertificateAuthorityEntity, { where: { id: caId } });
      if (isCurrent(ca)) return this.stored(manager, ca);
      // Read before the list: a revocation committed in between is listed and merely counted next time.
      const covered = ca.revocationCount;
      const revoked: Array<{ serial_number: string; revoked_at: Date; revocation_reason: string | null }> = await manager.query(
        `SELECT serial_number, revoked_at, revocation_reason FROM certificates
          WHERE issuer_id = $1 AND status = 'revoked' ORDER BY revoked_at, id`,
        [caId],
      );
      const crlNumber = BigInt(ca.crlNumber) + 1n;
      const thisUpdate = new Date();
      const signer = await this.caService.signer(ca);
      const crl = await buildCrl({
        issuerCertificate: ca.certificate,
        issuerPrivateKey: signer.privateKey,
        entries: revoked.map((row) => ({ serialHex: row.serial_number, revokedAt: row.revoked_at, reason: row.revocation_reason })),
        thisUpdate,
        nextUpdate: new Date(thisUpdate.getTime() + this.config.crlValidityDays * 86_400_000),
        crlNumber,
      });
      const der = Buffer.from(crl.der);
      this.metrics.crlRebuilds.inc();
      await manager.update(
        CertificateAuthorityEntity,
        { id: caId },
        { crlNumber: crlNumber.toString(), crlDer: der, crlNextUpdate: crl.nextUpdate, crlRevocationCount: covered },
      );
      return this.remember(caId, crlNumber.toString(), der);
    });
  }

  /** The stored CRL of a CA whose CRL is current: from memory when this number is there, else read. */
  private async stored(manager: EntityManager, ca: CrlState): Promise<CrlDocument> {
    const cached = this.documents.get(ca.id);
    if (cached?.crlNumber === ca.crlNumber) return cached;
    const [row]: Array<{ crl_der: Buffer }> = await manager.query('SELECT crl_der FROM certificate_authorities WHERE id = $1', [ca.id]);
    return this.remember(ca.id, ca.crlNumber, row.crl_der);
  }

  private remember(caId: number, crlNumber: string, der: Buffer): CrlDocument {
    const document: CrlDocument = { crlNumber, der };
    this.documents.set(caId, document);
    return document;
  }
}

/** PEM of a served CRL, made once per CRL. */
export function crlPem(document: CrlDocument): Buffer {
  document.pem ??= Buffer.from(crlDerToPem(document.der));
  return document.pem;
}

function isCurrent(ca: CrlState): boolean {
  return (
    ca.crlRevocationCount === ca.revocationCount && ca.crlNextUpdate !== null && ca.crlNextUpdate.getTime() - Date.now() > REFRESH_BEFORE_MS
  );
}
