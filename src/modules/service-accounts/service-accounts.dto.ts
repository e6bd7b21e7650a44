import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { CapabilityFlagsDto } from '../../common/auth/capability-flags.dto';
import { IsDatabaseId } from '../../common/validation/integer.decorator';
import { IsOptionalNotNull } from '../../common/validation/optional.decorator';
import { CERTIFICATE_TYPES } from '../pki/certificate.entity';
import type { CertificateType } from '../pki/certificate.entity';
import { IssuancePolicyEntity } from './issuance-policy.entity';
import { ServiceAccountTokenEntity } from './service-account-token.entity';
import { ServiceAccountEntity } from './service-account.entity';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const MAX_ENTRIES = 200;

export class CreateServiceAccountDto extends CapabilityFlagsDto {
  @ApiProperty({ maxLength: 255 })
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;

  @ApiPropertyOptional({ description: 'Superusers only; admins create accounts in their own organization' })
  @IsOptionalNotNull()
  @IsDatabaseId()
  organization_id?: number;
}

export class UpdateServiceAccountDto extends CapabilityFlagsDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNotNull()
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;

  @ApiPropertyOptional({ description: 'true disables the account (its tokens stop working), false enables it' })
  @IsOptionalNotNull()
  @IsBoolean()
  disabled?: boolean;
}

export class ServiceAccountDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() organization_id: number;
  @ApiProperty() can_create_ca: boolean;
  @ApiProperty() can_create_cert: boolean;
  @ApiProperty() can_revoke_cert: boolean;
  @ApiProperty() can_export_private_key: boolean;
  @ApiProperty() can_delete_ca: boolean;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disabled_at: Date | null;
  @ApiProperty({ type: Number, nullable: true }) created_by_user_id: number | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: Date;

  static from(account: ServiceAccountEntity): ServiceAccountDto {
    return {
      id: account.id,
      name: account.name,
      description: account.description,
      organization_id: account.organizationId,
      can_create_ca: account.canCreateCa,
      can_create_cert: account.canCreateCert,
      can_revoke_cert: account.canRevokeCert,
      can_export_private_key: account.canExportPrivateKey,
      can_delete_ca: account.canDeleteCa,
      disabled: account.disabledAt !== null,
      disabled_at: account.disabledAt,
      created_by_user_id: account.createdByUserId,
      created_at: account.createdAt,
      updated_at: account.updatedAt,
    };
  }
}

export class CreateTokenDto {
  @ApiProperty({ maxLength: 255 })
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'Must be in the future; none: never expires' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  expires_at?: Date | null;
}

export class TokenDto {
  @ApiProperty() id: number;
  @ApiProperty() public_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at: Date | null;
  @ApiProperty() revoked: boolean;

  static from(token: ServiceAccountTokenEntity): TokenDto {
    return {
      id: token.id,
      public_id: token.publicId,
      name: token.name,
      created_at: token.createdAt,
      last_used_at: token.lastUsedAt,
      expires_at: token.expiresAt,
      revoked: token.revokedAt !== null,
    };
  }
}

export class CreatedTokenDto extends TokenDto {
  @ApiProperty({ description: 'pki_sa_<public_id>.<secret> — shown only in this response' }) token: string;
}

export class IssuancePolicyDto {
  @ApiPropertyOptional({ type: [String], description: 'Globs for the CN: * within a label, ** across labels, ? one character' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ENTRIES)
  @IsString({ each: true })
  cn_patterns?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Globs for DNS SANs (same syntax)' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ENTRIES)
  @IsString({ each: true })
  san_dns_patterns?: string[];

  @ApiPropertyOptional({ type: [String], example: ['10.0.0.0/24', '2001:db8::/48'] })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ENTRIES)
  @IsString({ each: true })
  san_ip_cidrs?: string[];

  @ApiPropertyOptional({ type: [String], example: ['example.com'], description: 'Exact domains, case-insensitive' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ENTRIES)
  @IsString({ each: true })
  san_email_domains?: string[];

  @ApiPropertyOptional({ type: [Number] })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ENTRIES)
  @IsDatabaseId({ each: true })
  allowed_ca_ids?: number[];

  @ApiPropertyOptional({ enum: CERTIFICATE_TYPES, isArray: true })
  @IsOptionalNotNull()
  @IsArray()
  @IsIn(CERTIFICATE_TYPES, { each: true })
  allowed_certificate_types?: CertificateType[];

  @ApiProperty({ minimum: 1, maximum: 36500 })
  @IsInt()
  @Min(1)
  @Max(36500)
  max_validity_days: number;

  @ApiPropertyOptional({
    type: [Number],
    description:
      "Platform devices (dcim) the account enrolls. With bound_device_tags or bound_device_roles, binds issuance to the devices' inventory names in place of the name patterns",
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ENTRIES)
  @IsDatabaseId({ each: true })
  bound_device_ids?: number[];

  @ApiPropertyOptional({ type: [String], description: 'Tag slugs: every device carrying one is bound' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ENTRIES)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  bound_device_tags?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Device role slugs: every device of one is bound' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ENTRIES)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  bound_device_roles?: string[];
}

export class IssuancePolicyResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() service_account_id: number;
  @ApiProperty({ type: [String] }) cn_patterns: string[];
  @ApiProperty({ type: [String] }) san_dns_patterns: string[];
  @ApiProperty({ type: [String] }) san_ip_cidrs: string[];
  @ApiProperty({ type: [String] }) san_email_domains: string[];
  @ApiProperty({ type: [Number] }) allowed_ca_ids: number[];
  @ApiProperty({ enum: CERTIFICATE_TYPES, isArray: true }) allowed_certificate_types: CertificateType[];
  @ApiProperty() max_validity_days: number;
  @ApiProperty({ type: [Number] }) bound_device_ids: number[];
  @ApiProperty({ type: [String] }) bound_device_tags: string[];
  @ApiProperty({ type: [String] }) bound_device_roles: string[];
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: Date;

  static from(policy: IssuancePolicyEntity): IssuancePolicyResponseDto {
    return {
      id: policy.id,
      service_account_id: policy.serviceAccountId,
      cn_patterns: policy.cnPatterns,
      san_dns_patterns: policy.sanDnsPatterns,
      san_ip_cidrs: policy.sanIpCidrs,
      san_email_domains: policy.sanEmailDomains,
      allowed_ca_ids: policy.allowedCaIds,
      allowed_certificate_types: policy.allowedCertificateTypes,
      max_validity_days: policy.maxValidityDays,
      bound_device_ids: policy.boundDeviceIds,
      bound_device_tags: policy.boundDeviceTags,
      bound_device_roles: policy.boundDeviceRoles,
      created_at: policy.createdAt,
      updated_at: policy.updatedAt,
    };
  }
}
