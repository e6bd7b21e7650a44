import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CertificateEntity } from '../pki/certificate.entity';
import { PkiModule } from '../pki/pki.module';
import { PublicBaseUrl } from '../pki/public-base-url';
import { IssuancePolicyEntity } from '../service-accounts/issuance-policy.entity';
import { ServiceAccountEntity } from '../service-accounts/service-account.entity';
import { ServiceAccountsModule } from '../service-accounts/service-accounts.module';
import { EstAuthenticator } from './est-authenticator';
import { EstController } from './est.controller';
import { EstService } from './est.service';

/** EST (RFC 7030), mounted at the root: /.well-known/est/<ca-slug>/…. */
@Module({
  imports: [TypeOrmModule.forFeature([CertificateEntity, IssuancePolicyEntity, ServiceAccountEntity]), PkiModule, ServiceAccountsModule],
  controllers: [EstController],
  providers: [EstService, EstAuthenticator, PublicBaseUrl],
})
export class EstModule {}
