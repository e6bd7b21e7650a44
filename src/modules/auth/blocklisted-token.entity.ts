import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Access tokens refused before their expiry (logout), kept until they would have expired anyway. */
@Entity('token_blocklist')
@Index('token_blocklist_expires_at_idx', ['expiresAt'])
export class BlocklistedTokenEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'token_blocklist_pkey' })
  jti: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
