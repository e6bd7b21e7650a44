import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../common/http/pagination.dto';
import { IsDatabaseId } from '../../common/validation/integer.decorator';
import { AUDIT_ACTIONS } from './audit-action';
import type { AuditAction } from './audit-action';
import { AuditLogEntity } from './audit-log.entity';

export class AuditLogQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  action?: AuditAction;

  @ApiPropertyOptional()
  @IsOptional()
  @IsDatabaseId({ query: true })
  user_id?: number;

  @ApiPropertyOptional({ example: 'user' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  resource_type?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsDatabaseId({ query: true })
  resource_id?: number;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Inclusive lower bound' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  since?: Date;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Inclusive upper bound' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  until?: Date;
}

export class AuditLogDto {
  @ApiProperty()
  id: number;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty({ enum: AUDIT_ACTIONS })
  action: AuditAction;

  @ApiProperty({ type: Number, nullable: true })
  user_id: number | null;

  @ApiProperty({ type: String, nullable: true })
  username: string | null;

  @ApiProperty({ type: Number, nullable: true })
  service_account_id: number | null;

  @ApiProperty({ type: String, nullable: true })
  service_account_name: string | null;

  @ApiProperty({ type: Number, nullable: true })
  organization_id: number | null;

  @ApiProperty({ type: String, nullable: true })
  resource_type: string | null;

  @ApiProperty({ type: Number, nullable: true })
  resource_id: number | null;

  @ApiProperty({ type: String, nullable: true })
  detail: string | null;

  static from(entity: AuditLogEntity): AuditLogDto {
    return {
      id: Number(entity.id),
      created_at: entity.createdAt,
      action: entity.action,
      user_id: entity.userId,
      username: entity.username,
      service_account_id: entity.serviceAccountId,
      service_account_name: entity.serviceAccountName,
      organization_id: entity.organizationId,
      resource_type: entity.resourceType,
      resource_id: entity.resourceId,
      detail: entity.detail,
    };
  }
}
