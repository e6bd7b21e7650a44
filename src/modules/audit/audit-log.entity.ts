import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AuditAction } from './audit-action';

/**
 * One audited event. Users and service accounts are referenced by id and name without foreign
 * keys, so the trail outlives whoever it names.
 */
@Entity('audit_logs')
@Index('audit_logs_created_at_idx', ['createdAt'])
@Index('audit_logs_organization_id_created_at_idx', ['organizationId', 'createdAt'])
@Index('audit_logs_action_idx', ['action'])
export class AuditLogEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'audit_logs_pkey' })
  id: string;

  /** Millisecond precision, as the API reports it, so `since`/`until` bounds taken from a response match exactly. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ type: 'varchar', length: 64 })
  action: AuditAction;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ type: 'varchar', length: 150, nullable: true })
  username: string | null;

  @Column({ name: 'service_account_id', type: 'integer', nullable: true })
  serviceAccountId: number | null;

  @Column({ name: 'service_account_name', type: 'varchar', length: 255, nullable: true })
  serviceAccountName: string | null;

  @Column({ name: 'organization_id', type: 'integer', nullable: true })
  organizationId: number | null;

  @Column({ name: 'resource_type', type: 'varchar', length: 64, nullable: true })
  resourceType: string | null;

  @Column({ name: 'resource_id', type: 'integer', nullable: true })
  resourceId: number | null;

  @Column({ type: 'text', nullable: true })
  detail: string | null;
}
