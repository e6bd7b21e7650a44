import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { CapabilityColumns } from '../../common/auth/capability-columns';
import type { Role } from '../../common/auth/principal';
import { OrganizationEntity } from '../orgs/organization.entity';

@Entity('users')
@Index('users_username_key', ['username'], { unique: true })
@Index('users_email_key', ['email'], { unique: true })
@Index('users_organization_id_idx', ['organizationId'])
@Check('users_role_check', `"role" IN ('superuser', 'admin', 'user')`)
export class UserEntity extends CapabilityColumns {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'users_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 150 })
  username: string;

  /** Stored lower-cased, so uniqueness ignores case. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** argon2id PHC string; never leaves the service layer. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ type: 'varchar', length: 16, default: 'user' })
  role: Role;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive: boolean;

  @Column({ name: 'organization_id', type: 'integer', nullable: true })
  organizationId: number | null;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'users_organization_id_fkey' })
  organization?: OrganizationEntity | null;

  /** Access tokens issued (iat, whole seconds) before this second are rejected. */
  @Column({ name: 'tokens_invalidated_at', type: 'timestamptz', nullable: true })
  tokensInvalidatedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
