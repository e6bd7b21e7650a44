import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { UserEntity } from '../../modules/users/user.entity';

export const API_TOKEN_TABLE = 'users_token';

/** Platform API tokens: only an HMAC of the key is kept (plus its last four characters, for display). */
@Entity(API_TOKEN_TABLE)
@Unique('users_token_key_digest_key', ['key_digest'])
@Index('users_token_user_id_idx', ['user_id'])
export class ApiTokenEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'users_token_pkey' })
  id: number;

  @Column({ type: 'integer' })
  user_id: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'users_token_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'char', length: 64 })
  key_digest: string;

  @Column({ type: 'varchar', length: 4 })
  key_suffix: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @Column({ type: 'timestamptz', nullable: true })
  expires: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  last_used: Date | null;

  @Column({ type: 'boolean', default: true })
  write_enabled: boolean;

  @Column({ type: 'varchar', length: 200, default: '' })
  description: string;
}

export type ApiTokenRow = Omit<ApiTokenEntity, 'user'>;
