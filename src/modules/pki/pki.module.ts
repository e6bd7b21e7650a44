import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ServiceAccountsModule } from '../service-accounts/service-accounts.module';
import { CaController } from './ca.controller';
import { CaService } from './ca.service';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { CertificateController } from './certificate.controller';
import { CertificateEntity } from './certificate.entity';
import { CertificateService } from './certificate.service';
import { CrlService } from './crl.service';
import { ExportController } from './export.controller';
import { PrivateKeyReencryption } from './private-key-reencryption.service';
import { PrivateKeyVault } from './private-key-vault';
import { OcspService } from './ocsp.service';
import { PublicBaseUrl } from './public-base-url';
import { PublicPkiService } from './public-pki.service';

/** CAs, certificates, CRLs and export under API_V1_STR. */
@Module({
  imports: [TypeOrmModule.forFeature([CertificateAuthorityEntity, CertificateEntity]), AuditModule, ServiceAccountsModule],
  controllers: [CaController, CertificateController, ExportController],
  providers: [
    CaService,
    CertificateService,
    CrlService,
    PrivateKeyVault,
    PrivateKeyReencryption,
    PublicBaseUrl,
    PublicPkiService,
    OcspService,
  ],
  exports: [CaService, CertificateService, CrlService, PublicPkiService, PrivateKeyVault, OcspService],
})
export class PkiModule {}
