import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { RSA_KEY_SIZES } from '../../common/config/app-config';
import { PaginationQueryDto } from '../../common/http/pagination.dto';
import { IsDatabaseId } from '../../common/validation/integer.decorator';
import { IsOptionalNotNull } from '../../common/validation/optional.decorator';
import { CERTIFICATE_TYPES, CertificateEntity, LEAF_CERTIFICATE_TYPES } from './certificate.entity';
import type { CertificateType, LeafCertificateType } from './certificate.entity';
import { KEY_TYPES } from './key-type';
import type { KeyType } from './key-type';

const MAX_SANS = 100;

class SanFieldsDto {
  @ApiPropertyOptional({ type: [String], description: 'server and dual_purpose only' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_SANS)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  san_dns_names?: string[];

  @ApiPropertyOptional({ type: [String], description: 'server and dual_purpose only' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_SANS)
  @IsString({ each: true })
  @MaxLength(45, { each: true })
  san_ip_addresses?: string[];

  @ApiPropertyOptional({ type: [String], description: 'client and dual_purpose only' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_SANS)
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  san_email_addresses?: string[];
}

export class IssueCertificateQueryDto {
  @ApiProperty({ description: 'Issuing CA' })
  @IsDatabaseId({ query: true })
  ca_id: number;
}

export class IssueCertificateDto extends SanFieldsDto {
  @ApiProperty({ maxLength: 64 })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  common_name: string;

  @ApiProperty({ example: 'CN=www.example.com,O=Example,C=US', description: 'The CN is replaced by common_name' })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  subject_dn: string;

  @ApiProperty({
    enum: CERTIFICATE_TYPES,
    description:
      'ca: a CA-constrained certificate (no SANs) issued by this CA, needs can_create_ca; a CA that issues here is made with POST /cas/',
  })
  @IsIn(CERTIFICATE_TYPES)
  certificate_type: CertificateType;

  @ApiPropertyOptional({
    minimum: 0,
    description: 'ca type only: basicConstraints pathLen; default and maximum one less than the issuer’s',
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(100)
  path_length?: number;

  @ApiPropertyOptional({ enum: KEY_TYPES, default: 'rsa' })
  @IsOptionalNotNull()
  @IsIn(KEY_TYPES)
  key_type?: KeyType;

  @ApiPropertyOptional({ enum: RSA_KEY_SIZES, description: 'RSA only; default CERT_KEY_SIZE' })
  @IsOptionalNotNull()
  @IsIn(RSA_KEY_SIZES)
  key_size?: (typeof RSA_KEY_SIZES)[number];

  @ApiPropertyOptional({ minimum: 1, maximum: 36500, description: 'default CERT_DAYS' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(36500)
  valid_days?: number;

  @ApiPropertyOptional({
    default: true,
    description:
      'true: the generated key is kept (encrypted) and can be exported later; false: it is returned once, in this response, and not kept',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  include_private_key?: boolean;
}

export class SignCsrDto extends SanFieldsDto {
  @ApiProperty({ description: 'PEM PKCS#10 request; its signature is verified' })
  @IsString()
  @MinLength(1)
  @MaxLength(65536)
  csr: string;

  @ApiPropertyOptional({ description: 'Issuing CA by id (exactly one of ca_id, ca_name)' })
  @IsOptionalNotNull()
  @IsDatabaseId()
  ca_id?: number;

  @ApiPropertyOptional({ description: 'Issuing CA by name, within the caller’s organization (any for superusers)' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  ca_name?: string;

  @ApiProperty({ enum: LEAF_CERTIFICATE_TYPES })
  @IsIn(LEAF_CERTIFICATE_TYPES)
  certificate_type: LeafCertificateType;

  @ApiPropertyOptional({ minimum: 1, maximum: 36500, description: 'default CERT_DAYS' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(36500)
  valid_days?: number;

  @ApiPropertyOptional({ description: 'Overrides the CSR’s CN' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  common_name?: string;

  @ApiPropertyOptional({ description: 'Overrides the CSR’s whole subject' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  subject_dn?: string;
}

export class RenewCertificateDto {
  @ApiPropertyOptional({ description: 'Required for certificates that came from a CSR (its subject is ignored); not allowed otherwise' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(65536)
  csr?: string;
}

export class RevokeCertificateDto {
  @ApiPropertyOptional({
    description:
      'Free text, stored as given. When it names an RFC 5280 reason (keyCompromise, cACompromise, affiliationChanged, ' +
      'superseded, cessationOfOperation, certificateHold, privilegeWithdrawn, aACompromise, unspecified; any case, ' +
      'snake_case accepted) the CRL entry carries that reason code, otherwise unspecified; without a reason it carries none.',
    maxLength: 1024,
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(1024)
  reason?: string;
}

export class ListCertificatesQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Only certificates issued by this CA' })
  @IsOptional()
  @IsDatabaseId({ query: true })
  ca_id?: number;
}

export type CertificateStatus = 'valid' | 'revoked' | 'expired';

export class CertificateDto {
  @ApiProperty() id: number;
  @ApiProperty() common_name: string;
  @ApiProperty() subject_dn: string;
  @ApiProperty({ enum: CERTIFICATE_TYPES }) certificate_type: CertificateType;
  @ApiProperty({ enum: ['server_key', 'csr'], description: 'Where the key came from' }) origin: string;
  @ApiProperty({ enum: KEY_TYPES }) key_type: KeyType;
  @ApiProperty({ type: Number, nullable: true }) key_size: number | null;
  @ApiProperty({ description: "The validity asked for; not_after is earlier when the issuer's not_after comes first" })
  valid_days: number;
  @ApiProperty({ enum: ['valid', 'revoked', 'expired'] }) status: CertificateStatus;
  @ApiProperty({ description: 'PEM' }) certificate: string;
  @ApiProperty() serial_number: string;
  @ApiProperty({ type: String, format: 'date-time' }) not_before: Date;
  @ApiProperty({ type: String, format: 'date-time' }) not_after: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revoked_at: Date | null;
  @ApiProperty({ type: String, nullable: true }) revocation_reason: string | null;
  @ApiProperty({ type: [String] }) san_dns_names: string[];
  @ApiProperty({ type: [String] }) san_ip_addresses: string[];
  @ApiProperty({ type: [String] }) san_email_addresses: string[];
  @ApiProperty() issuer_id: number;
  @ApiProperty({ type: Number, nullable: true }) organization_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) created_by_user_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) created_by_service_account_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) renewed_from_id: number | null;
  @ApiProperty({ type: [Number] }) renewed_to_ids: number[];
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: Date;

  static from(certificate: CertificateEntity, renewedToIds: number[] = []): CertificateDto {
    return {
      id: certificate.id,
      common_name: certificate.commonName,
      subject_dn: certificate.subjectDn,
      certificate_type: certificate.certificateType,
      origin: certificate.origin,
      key_type: certificate.keyType,
      key_size: certificate.keySize,
      valid_days: certificate.validDays,
      status: certificateStatus(certificate),
      certificate: certificate.certificate,
      serial_number: certificate.serialNumber,
      not_before: certificate.notBefore,
      not_after: certificate.notAfter,
      revoked_at: certificate.revokedAt,
      revocation_reason: certificate.revocationReason,
      san_dns_names: certificate.sanDnsNames,
      san_ip_addresses: certificate.sanIpAddresses,
      san_email_addresses: certificate.sanEmailAddresses,
      issuer_id: certificate.issuerId,
      organization_id: certificate.organizationId,
      created_by_user_id: certificate.createdByUserId,
      created_by_service_account_id: certificate.createdByServiceAccountId,
      renewed_from_id: certificate.renewedFromId,
      renewed_to_ids: renewedToIds,
      created_at: certificate.createdAt,
      updated_at: certificate.updatedAt,
    };
  }
}

export class CertificateDetailDto extends CertificateDto {
  @ApiProperty({ type: String, nullable: true, description: 'PKCS#8 PEM; null when no key is held' })
  private_key: string | null;
}

export function certificateStatus(certificate: CertificateEntity, now = new Date()): CertificateStatus {
  if (certificate.status === 'revoked') return 'revoked';
  return certificate.notAfter.getTime() <= now.getTime() ? 'expired' : 'valid';
}
