import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { PkiModule } from '../pki/pki.module';
import { PublicBaseUrl } from '../pki/public-base-url';
import { ServiceAccountEntity } from '../service-accounts/service-account.entity';
import { ServiceAccountsModule } from '../service-accounts/service-accounts.module';
import {
  AcmeAccountEntity,
  AcmeAuthorizationEntity,
  AcmeChallengeEntity,
  AcmeEabKeyEntity,
  AcmeNonceEntity,
  AcmeOrderEntity,
} from './acme.entities';
import { AcmeController } from './acme.controller';
import { AcmeEabController } from './acme-eab.controller';
import { AcmeEabService } from './acme-eab.service';
import { AcmeDns01Validator } from './acme-dns01.validator';
import { AcmeHttp01Validator } from './acme-http01.validator';
import { AcmeNonces } from './acme-nonces';
import { AcmeProblemFilter } from './acme-problem.filter';
import { AcmeService } from './acme.service';

const ENTITIES = [AcmeNonceEntity, AcmeEabKeyEntity, AcmeAccountEntity, AcmeOrderEntity, AcmeAuthorizationEntity, AcmeChallengeEntity];

/** The ACME server (RFC 8555) of every CA, at the root: /acme/<ca-slug>/directory. */
@Module({
  imports: [TypeOrmModule.forFeature([...ENTITIES, ServiceAccountEntity]), PkiModule, ServiceAccountsModule, AuditModule],
  controllers: [AcmeController],
  providers: [AcmeService, AcmeNonces, AcmeHttp01Validator, AcmeDns01Validator, AcmeProblemFilter, PublicBaseUrl],
})
export class AcmeModule {}

/** ACME administration under API_V1_STR: External Account Binding keys for service accounts. */
@Module({
  imports: [TypeOrmModule.forFeature([AcmeEabKeyEntity]), PkiModule, ServiceAccountsModule, AuditModule],
  controllers: [AcmeEabController],
  providers: [AcmeEabService],
})
export class AcmeApiModule {}
