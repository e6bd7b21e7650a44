import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { OrganizationEntity } from '../orgs/organization.entity';
import { UserEntity } from '../users/user.entity';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import type { KeyType } from './key-type';

/** End-entity profiles; the only types a CSR can be signed as. */
export const LEAF_CERTIFICATE_TYPES = ['server', 'client', 'dual_purpose'] as const;
export type LeafCertificateType = (typeof LEAF_CERTIFICATE_TYPES)[number];
/** : a CA-constrained certificate issued by a CA, tracked as one of its certificates. */
export const CERTIFICATE_TYPES = [...LEAF_CERTIFICATE_TYPES, 'ca'] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];
/** Where the key came from: generated here (`server_key`) or the requester's (`csr`). */
export type CertificateOrigin = 'server_key' | 'csr';

@Entity('certificates')
@Index('certificates_issuer_serial_key', ['issuerId', 'serialNumber'], { unique: true })
@Index('certificates_serial_number_idx', ['serialNumber'])
@Index('certificates_organization_id_idx', ['organizationId'])
@Index('certificates_renewed_from_id_idx', ['renewedFromId'])
@Index('certificates_device_id_idx', ['deviceId'])
@Check('certificates_status_check', `"status" IN ('valid', 'revoked')`)
@Check('certificates_type_check', `"certificate_type" IN ('server', 'client', 'dual_purpose', 'ca')`)
@Check('certificates_origin_check', `"origin" IN ('server_key', 'csr')`)
export class CertificateEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'certificates_pkey' })
  id: number;

  @Column({ name: 'issuer_id', type: 'integer' })
  issuerId: number;

  @ManyToOne(() => CertificateAuthorityEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issuer_id', foreignKeyConstraintName: 'certificates_issuer_id_fkey' })
  issuer?: CertificateAuthorityEntity;

  @Column({ name: 'common_name', type: 'varchar', length: 255 })
  commonName: string;

  @Column({ name: 'subject_dn', type: 'text' })
  subjectDn: string;

  @Column({ name: 'certificate_type', type: 'varchar', length: 16 })
  certificateType: CertificateType;

  @Column({ type: 'varchar', length: 16 })
  origin: CertificateOrigin;

  @Column({ name: 'key_type', type: 'varchar', length: 16 })
  keyType: KeyType;

  @Column({ name: 'key_size', type: 'integer', nullable: true })
  keySize: number | null;

  @Column({ name: 'valid_days', type: 'integer' })
  validDays: number;

  /** `valid` or `revoked`; `expired` is derived from not_after when read. */
  @Column({ type: 'varchar', length: 16, default: 'valid' })
  status: 'valid' | 'revoked';

  @Column({ name: 'san_dns_names', type: 'jsonb' })
  sanDnsNames: string[];

  @Column({ name: 'san_ip_addresses', type: 'jsonb' })
  sanIpAddresses: string[];

  @Column({ name: 'san_email_addresses', type: 'jsonb' })
  sanEmailAddresses: string[];

  @Column({ type: 'text' })
  certificate: string;

  /** Encrypted PKCS#8 PEM when the key was generated here; null for CSR certificates. */
  @Column({ name: 'private_key', type: 'text', nullable: true })
  privateKey: string | null;

  @Column({ name: 'serial_number', type: 'varchar', length: 64 })
  serialNumber: string;

  @Column({ name: 'not_before', type: 'timestamptz' })
  notBefore: Date;

  @Column({ name: 'not_after', type: 'timestamptz' })
  notAfter: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'revocation_reason', type: 'text', nullable: true })
  revocationReason: string | null;

  @Column({ name: 'organization_id', type: 'integer', nullable: true })
  organizationId: number | null;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'certificates_organization_id_fkey' })
  organization?: OrganizationEntity | null;

  /**
   * The inventory device it was issued to, by a service account bound to the inventory. No foreign
   * key: the device is the platform's, and outlives nothing here (its deletion revokes the certificate).
   */
  @Column({ name: 'device_id', type: 'integer', nullable: true })
  deviceId: number | null;

  /** The service account that created it, when one did (no foreign key: the account may be deleted). */
  @Column({ name: 'created_by_service_account_id', type: 'integer', nullable: true })
  createdByServiceAccountId: number | null;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by_user_id', foreignKeyConstraintName: 'certificates_created_by_user_id_fkey' })
  createdByUser?: UserEntity | null;

  @Column({ name: 'renewed_from_id', type: 'integer', nullable: true })
  renewedFromId: number | null;

  @ManyToOne(() => CertificateEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'renewed_from_id', foreignKeyConstraintName: 'certificates_renewed_from_id_fkey' })
  renewedFrom?: CertificateEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
