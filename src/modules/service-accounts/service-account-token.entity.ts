import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ServiceAccountEntity } from './service-account.entity';

/**
 * An API token of a service account: `pki_sa_<public_id>.<secret>`. Only the public id and an
 * HMAC-SHA256 of the secret (keyed by the server's pepper) are stored.
 */
@Entity('service_account_tokens')
@Index('service_account_tokens_public_id_key', ['publicId'], { unique: true })
@Index('service_account_tokens_service_account_id_idx', ['serviceAccountId'])
export class ServiceAccountTokenEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'service_account_tokens_pkey' })
  id: number;

  @Column({ name: 'service_account_id', type: 'integer' })
  serviceAccountId: number;

  @ManyToOne(() => ServiceAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'service_account_id', foreignKeyConstraintName: 'service_account_tokens_service_account_id_fkey' })
  serviceAccount?: ServiceAccountEntity;

  @Column({ name: 'public_id', type: 'varchar', length: 32 })
  publicId: string;

  @Column({ name: 'secret_digest', type: 'char', length: 64 })
  secretDigest: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
