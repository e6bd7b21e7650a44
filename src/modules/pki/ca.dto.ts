import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min, MinLength } from 'class-validator';
import { RSA_KEY_SIZES } from '../../common/config/app-config';
import { IsDatabaseId } from '../../common/validation/integer.decorator';
import { IsOptionalNotNull } from '../../common/validation/optional.decorator';
import { caSlug, issuerUrls } from './ca-slug';
import { CertificateAuthorityEntity, OCSP_SIGNERS, type OcspSigner } from './certificate-authority.entity';
import { KEY_TYPES } from './key-type';
import type { KeyType } from './key-type';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** What a CA writes into what it issues and how it answers OCSP: set on create, changed by PATCH. */
class CaPublicationSettingsDto {
  @ApiPropertyOptional({
    enum: OCSP_SIGNERS,
    description: "Who signs OCSP answers: the CA's key (default), or a delegated responder certificate the CA issues and rotates",
  })
  @IsOptionalNotNull()
  @IsIn(OCSP_SIGNERS)
  ocsp_signer?: OcspSigner;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: 168,
    description: 'OCSP nextUpdate − thisUpdate; null: OCSP_VALIDITY_HOURS',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(168)
  ocsp_validity_hours?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'https://pki.example.com',
    description: 'Base of the CRL, CA-certificate and OCSP URLs written into what this CA issues; null: PUBLIC_BASE_URL',
  })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @MaxLength(1024)
  public_base_url?: string | null;
}

export class CreateCaDto extends CaPublicationSettingsDto {
  @ApiProperty({ maxLength: 255 })
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  @ApiProperty({ example: 'CN=Example Root CA,O=Example,C=US' })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  subject_dn: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;

  @ApiPropertyOptional({ enum: KEY_TYPES, default: 'rsa' })
  @IsOptionalNotNull()
  @IsIn(KEY_TYPES)
  key_type?: KeyType;

  @ApiPropertyOptional({ enum: RSA_KEY_SIZES, description: 'RSA only; default CA_KEY_SIZE' })
  @IsOptionalNotNull()
  @IsIn(RSA_KEY_SIZES)
  key_size?: (typeof RSA_KEY_SIZES)[number];

  @ApiPropertyOptional({ minimum: 1, maximum: 36500, description: 'default CA_CERT_DAYS' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(36500)
  valid_days?: number;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'creates an intermediate CA under this CA' })
  @IsOptional()
  @IsDatabaseId()
  parent_ca_id?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  path_length?: number | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: 'null: managed (leaves until the CA gets a sub-CA)' })
  @IsOptional()
  @IsBoolean()
  allow_leaf_certs?: boolean | null;
}

/** PATCH /cas/{id}: the organization (superusers) and/or the leaf-certificate policy. */
export class UpdateCaDto extends CaPublicationSettingsDto {
  @ApiPropertyOptional({ description: 'Superusers only' })
  @IsOptionalNotNull()
  @IsDatabaseId()
  organization_id?: number;

  @ApiPropertyOptional({ default: false, description: 'With organization_id: adopt the organization-less subtree too' })
  @IsOptionalNotNull()
  @IsBoolean()
  cascade?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description: "null: managed (leaves until the CA gets a sub-CA). Admins of the CA's organization and superusers",
  })
  @IsOptional()
  @IsBoolean()
  allow_leaf_certs?: boolean | null;
}

export class CaDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Public name in /crl/{slug} and /ca/{slug}.crt' }) slug: string;
  @ApiProperty({
    description:
      "The CA's CRL (DER; append .pem for PEM): the CRL distribution point of the certificates it issues, on PUBLIC_BASE_URL or the address asked",
  })
  crl_url: string;
  @ApiProperty({ description: 'The OCSP responder of the certificates it issues (their AIA OCSP URL)' }) ocsp_url: string;
  @ApiProperty({ enum: OCSP_SIGNERS }) ocsp_signer: OcspSigner;
  @ApiProperty({ type: Number, nullable: true }) ocsp_validity_hours: number | null;
  @ApiProperty({ type: String, nullable: true }) public_base_url: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() subject_dn: string;
  @ApiProperty({ enum: KEY_TYPES }) key_type: KeyType;
  @ApiProperty({ type: Number, nullable: true }) key_size: number | null;
  @ApiProperty({ description: "The validity asked for; not_after is earlier when the issuer's not_after comes first" })
  valid_days: number;
  @ApiProperty({ type: Number, nullable: true }) parent_ca_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) path_length: number | null;
  @ApiProperty({ type: Boolean, nullable: true, description: 'The setting; null means managed' })
  allow_leaf_certs: boolean | null;
  @ApiProperty({ description: 'Whether the CA issues leaf certificates now' }) leaf_certs_allowed: boolean;
  @ApiProperty() is_root: boolean;
  @ApiProperty({ description: 'PEM' }) certificate: string;
  @ApiProperty() serial_number: string;
  @ApiProperty({ type: String, format: 'date-time' }) not_before: Date;
  @ApiProperty({ type: String, format: 'date-time' }) not_after: Date;
  @ApiProperty({ type: Number, nullable: true }) organization_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) created_by_user_id: number | null;
  @ApiProperty({ type: Number, nullable: true }) created_by_service_account_id: number | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: Date;

  static from(ca: CertificateAuthorityEntity, leafCertsAllowed: boolean, baseUrl: string): CaDto {
    return {
      id: ca.id,
      name: ca.name,
      slug: caSlug(ca),
      crl_url: issuerUrls(ca, baseUrl).crlDistributionPointUrl,
      ocsp_url: issuerUrls(ca, baseUrl).ocspUrl,
      ocsp_signer: ca.ocspSigner,
      ocsp_validity_hours: ca.ocspValidityHours,
      public_base_url: ca.publicBaseUrl,
      description: ca.description,
      subject_dn: ca.subjectDn,
      key_type: ca.keyType,
      key_size: ca.keySize,
      valid_days: ca.validDays,
      parent_ca_id: ca.parentCaId,
      path_length: ca.pathLength,
      allow_leaf_certs: ca.allowLeafCerts,
      leaf_certs_allowed: leafCertsAllowed,
      is_root: ca.parentCaId === null,
      certificate: ca.certificate,
      serial_number: ca.serialNumber,
      not_before: ca.notBefore,
      not_after: ca.notAfter,
      organization_id: ca.organizationId,
      created_by_user_id: ca.createdByUserId,
      created_by_service_account_id: ca.createdByServiceAccountId,
      created_at: ca.createdAt,
      updated_at: ca.updatedAt,
    };
  }
}

export class CaDetailDto extends CaDto {
  @ApiProperty({ description: 'PKCS#8 PEM' }) private_key: string;
}
