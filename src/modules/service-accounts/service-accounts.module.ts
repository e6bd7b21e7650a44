import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { IssuancePolicyEnforcer } from './issuance-policy.enforcer';
import { IssuancePolicyEntity } from './issuance-policy.entity';
import { ServiceAccountTokenEntity } from './service-account-token.entity';
import { ServiceAccountTokenResolver } from './service-account-token.resolver';
import { ServiceAccountEntity } from './service-account.entity';
import { ServiceAccountsController } from './service-accounts.controller';
import { ServiceAccountsService } from './service-accounts.service';

@Module({
  imports: [TypeOrmModule.forFeature([ServiceAccountEntity, ServiceAccountTokenEntity, IssuancePolicyEntity]), AuditModule],
  controllers: [ServiceAccountsController],
  providers: [ServiceAccountsService, ServiceAccountTokenResolver, IssuancePolicyEnforcer],
  exports: [ServiceAccountTokenResolver, IssuancePolicyEnforcer, ServiceAccountsService],
})
export class ServiceAccountsModule {}
