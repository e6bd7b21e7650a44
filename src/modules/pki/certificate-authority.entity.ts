import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { OrganizationEntity } from '../orgs/organization.entity';
import { UserEntity } from '../users/user.entity';
import type { KeyType } from './key-type';

export const OCSP_SIGNERS = ['ca', 'delegated'] as const;
export type OcspSigner = (typeof OCSP_SIGNERS)[number];

@Entity('certificate_authorities')
@Index('certificate_authorities_parent_ca_id_idx', ['parentCaId'])
@Index('certificate_authorities_organization_id_idx', ['organizationId'])
// Names are unique per organization regardless of case (expression index, migration only).
@Index('certificate_authorities_org_name_key', { synchronize: false })
@Check('certificate_authorities_ocsp_signer_check', `"ocsp_signer" IN ('ca', 'delegated')`)
export class CertificateAuthorityEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'certificate_authorities_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'subject_dn', type: 'text' })
  subjectDn: string;

  @Column({ name: 'key_type', type: 'varchar', length: 16 })
  keyType: KeyType;

  /** RSA modulus bits; null for EC and Ed25519 keys. */
  @Column({ name: 'key_size', type: 'integer', nullable: true })
  keySize: number | null;

  @Column({ name: 'valid_days', type: 'integer' })
  validDays: number;

  @Column({ name: 'parent_ca_id', type: 'integer', nullable: true })
  parentCaId: number | null;

  @ManyToOne(() => CertificateAuthorityEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'parent_ca_id', foreignKeyConstraintName: 'certificate_authorities_parent_ca_id_fkey' })
  parent?: CertificateAuthorityEntity | null;

  @Column({ name: 'path_length', type: 'integer', nullable: true })
  pathLength: number | null;

  /** Explicit leaf policy; null means managed (issues leaves until it gets a child CA). */
  @Column({ name: 'allow_leaf_certs', type: 'boolean', nullable: true })
  allowLeafCerts: boolean | null;

  @Column({ type: 'text' })
  certificate: string;

  /** PKCS#8 PEM, always encrypted (PrivateKeyCipher). */
  @Column({ name: 'private_key', type: 'text' })
  privateKey: string;

  @Column({ name: 'serial_number', type: 'varchar', length: 64 })
  serialNumber: string;

  @Column({ name: 'not_before', type: 'timestamptz' })
  notBefore: Date;

  @Column({ name: 'not_after', type: 'timestamptz' })
  notAfter: Date;

  @Column({ name: 'organization_id', type: 'integer', nullable: true })
  organizationId: number | null;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'certificate_authorities_organization_id_fkey' })
  organization?: OrganizationEntity | null;

  /** The service account that created it, when one did (no foreign key: the account may be deleted). */
  @Column({ name: 'created_by_service_account_id', type: 'integer', nullable: true })
  createdByServiceAccountId: number | null;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by_user_id', foreignKeyConstraintName: 'certificate_authorities_created_by_user_id_fkey' })
  createdByUser?: UserEntity | null;

  /** Last CRL number issued; each new CRL takes the next one. */
  @Column({ name: 'crl_number', type: 'bigint', default: 0 })
  crlNumber: string;

  /**
   * The stored CRL (DER), rebuilt on revocation and before it expires. Not loaded with the CA: it can
   * be megabytes, and only the CRL service reads it.
   */
  @Column({ name: 'crl_der', type: 'bytea', nullable: true, select: false })
  crlDer?: Buffer | null;

  /** Revocations of certificates this CA issued, ever: a revocation increments it in its transaction. */
  @Column({ name: 'revocation_count', type: 'integer', default: 0 })
  revocationCount: number;

  /** The revocation count the stored CRL covers; null when there is none. */
  @Column({ name: 'crl_revocation_count', type: 'integer', nullable: true })
  crlRevocationCount: number | null;

  @Column({ name: 'crl_next_update', type: 'timestamptz', nullable: true })
  crlNextUpdate: Date | null;

  /** Who signs OCSP answers: the CA's key, or a delegated responder certificate the CA issues and rotates. */
  @Column({ name: 'ocsp_signer', type: 'varchar', length: 16, default: 'ca' })
  ocspSigner: OcspSigner;

  /** The current delegated responder certificate (PEM); null until first needed. */
  @Column({ name: 'ocsp_signer_certificate', type: 'text', nullable: true })
  ocspSignerCertificate: string | null;

  /** Its PKCS#8 PEM, encrypted as the CA's key is. */
  @Column({ name: 'ocsp_signer_private_key', type: 'text', nullable: true })
  ocspSignerPrivateKey: string | null;

  /** nextUpdate − thisUpdate of OCSP answers in hours; null: OCSP_VALIDITY_HOURS. */
  @Column({ name: 'ocsp_validity_hours', type: 'integer', nullable: true })
  ocspValidityHours: number | null;

  /** Base of the CRL, CA-certificate and OCSP URLs in what the CA issues; null: PUBLIC_BASE_URL or the request's address. */
  @Column({ name: 'public_base_url', type: 'text', nullable: true })
  publicBaseUrl: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
