import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { CapabilityColumns } from '../../common/auth/capability-columns';
import { OrganizationEntity } from '../orgs/organization.entity';
import { UserEntity } from '../users/user.entity';

/** A non-human principal: holds API tokens, acts as role `user` with its own capability flags. */
@Entity('service_accounts')
@Index('service_accounts_organization_id_idx', ['organizationId'])
// Names are unique within an organization regardless of case (expression index, migration only).
@Index('service_accounts_org_name_key', { synchronize: false })
export class ServiceAccountEntity extends CapabilityColumns {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'service_accounts_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'organization_id', type: 'integer' })
  organizationId: number;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'service_accounts_organization_id_fkey' })
  organization?: OrganizationEntity;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by_user_id', foreignKeyConstraintName: 'service_accounts_created_by_user_id_fkey' })
  createdByUser?: UserEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
