import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One failed (or in-flight) login, counted per client address (`ip:<addr>`), per address and username
 * (`ip-user:<sha256>`) and per username (`user:<name>`). Kept in the database so every replica sees
 * the same counts.
 */
@Entity('login_failures')
@Index('login_failures_key_created_at_idx', ['key', 'createdAt'])
export class LoginFailureEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'login_failures_pkey' })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  key: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
