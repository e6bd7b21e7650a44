import { Injectable } from '@nestjs/common';
import { buildCrl } from '@libs/x509';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { CaService } from './ca.service';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { CertificateEntity } from './certificate.entity';

/** A cached CRL is rebuilt when less than this much of its validity is left. */
const REFRESH_BEFORE_MS = 24 * 60 * 60 * 1000;

/**
 * Per-CA CRLs, cached on the CA row. Each rebuild takes the next CRL number under a row lock, so
 * numbers only grow and concurrent rebuilds cannot store an older CRL over a newer one.
 */
@Injectable()
export class CrlService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly caService: CaService,
    private readonly config: AppConfig,
  ) {}

  /** The current CRL (DER) of a CA, rebuilt first when missing or close to its nextUpdate. */
  async current(ca: CertificateAuthorityEntity): Promise<Buffer> {
    const fresh = ca.crlDer && ca.crlNextUpdate && ca.crlNextUpdate.getTime() - Date.now() > REFRESH_BEFORE_MS;
    return fresh ? ca.crlDer! : this.rebuild(ca.id);
  }

  async rebuild(caId: number): Promise<Buffer> {
    return this.dataSource.transaction(async (manager) => {
      const ca = await manager.findOneOrFail(CertificateAuthorityEntity, { where: { id: caId }, lock: { mode: 'pessimistic_write' } });
      const revoked = await manager.find(CertificateEntity, {
        where: { issuerId: caId, status: 'revoked' },
        order: { revokedAt: 'ASC', id: 'ASC' },
      });
      const crlNumber = BigInt(ca.crlNumber) + 1n;
      const thisUpdate = new Date();
      const signer = await this.caService.signer(ca);
      const crl = await buildCrl({
        issuerCertificate: ca.certificate,
        issuerPrivateKey: signer.privateKey,
        entries: revoked.map((certificate) => ({
          serialHex: certificate.serialNumber,
          revokedAt: certificate.revokedAt!,
          reason: certificate.revocationReason,
        })),
        thisUpdate,
        nextUpdate: new Date(thisUpdate.getTime() + this.config.crlValidityDays * 86_400_000),
        crlNumber,
      });
      const der = Buffer.from(crl.der);
      await manager.update(
        CertificateAuthorityEntity,
        { id: caId },
        { crlNumber: crlNumber.toString(), crlDer: der, crlNextUpdate: crl.nextUpdate },
      );
      return der;
    });
  }
}
