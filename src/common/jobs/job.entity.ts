import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type JobStatus = 'pending' | 'running' | 'succeeded' | 'failed';

/** One unit of background work (a webhook delivery, an email), kept until done or given up. */
@Entity('jobs')
@Index('jobs_claim_idx', ['queue', 'status', 'runAt'])
@Check('jobs_status_check', `"status" IN ('pending', 'running', 'succeeded', 'failed')`)
export class JobEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'jobs_pkey' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  queue: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: JobStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'max_attempts', type: 'integer' })
  maxAttempts: number;

  /** Not before this moment (retries are scheduled by moving it). */
  @Column({ name: 'run_at', type: 'timestamptz' })
  runAt: Date;

  @Column({ name: 'locked_at', type: 'timestamptz', nullable: true })
  lockedAt: Date | null;

  @Column({ name: 'locked_by', type: 'varchar', length: 64, nullable: true })
  lockedBy: string | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
