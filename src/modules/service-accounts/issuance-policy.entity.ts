import { Column, CreateDateColumn, Entity, Index, JoinColumn, OneToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { CertificateType } from '../pki/certificate.entity';
import { ServiceAccountEntity } from './service-account.entity';

/** What one service account may issue. Empty lists allow nothing of their kind (deny by default). */
@Entity('service_account_policies')
@Index('service_account_policies_service_account_id_key', ['serviceAccountId'], { unique: true })
export class IssuancePolicyEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'service_account_policies_pkey' })
  id: number;

  @Column({ name: 'service_account_id', type: 'integer' })
  serviceAccountId: number;

  @OneToOne(() => ServiceAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'service_account_id', foreignKeyConstraintName: 'service_account_policies_service_account_id_fkey' })
  serviceAccount?: ServiceAccountEntity;

  @Column({ name: 'cn_patterns', type: 'jsonb' })
  cnPatterns: string[];

  @Column({ name: 'san_dns_patterns', type: 'jsonb' })
  sanDnsPatterns: string[];

  @Column({ name: 'san_ip_cidrs', type: 'jsonb' })
  sanIpCidrs: string[];

  @Column({ name: 'san_email_domains', type: 'jsonb' })
  sanEmailDomains: string[];

  @Column({ name: 'allowed_ca_ids', type: 'jsonb' })
  allowedCaIds: number[];

  @Column({ name: 'allowed_certificate_types', type: 'jsonb' })
  allowedCertificateTypes: CertificateType[];

  @Column({ name: 'max_validity_days', type: 'integer' })
  maxValidityDays: number;

  /** Inventory binding (docs/service-accounts.md): devices by id, tag slug and role slug; all empty, unbound. */
  @Column({ name: 'bound_device_ids', type: 'jsonb', default: () => "'[]'" })
  boundDeviceIds: number[];

  @Column({ name: 'bound_device_tags', type: 'jsonb', default: () => "'[]'" })
  boundDeviceTags: string[];

  @Column({ name: 'bound_device_roles', type: 'jsonb', default: () => "'[]'" })
  boundDeviceRoles: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
