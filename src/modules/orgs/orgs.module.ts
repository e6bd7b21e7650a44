import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { UserEntity } from '../users/user.entity';
import { OrganizationEntity } from './organization.entity';
import { OrgsController } from './orgs.controller';
import { OrgsService } from './orgs.service';

@Module({
  imports: [TypeOrmModule.forFeature([OrganizationEntity, UserEntity]), AuditModule],
  controllers: [OrgsController],
  providers: [OrgsService],
})
export class OrgsModule {}
