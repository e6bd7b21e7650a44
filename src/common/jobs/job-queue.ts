import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { JobEntity } from './job.entity';

export interface EnqueueOptions {
  /** Default: now. */
  runAt?: Date;
  /** Default: 8 (about four minutes of backoff in all). */
  maxAttempts?: number;
}

const DEFAULT_MAX_ATTEMPTS = 8;

/**
 * Adds jobs with the caller's transaction manager: a job exists exactly when the change that
 * caused it commits.
 */
@Injectable()
export class JobQueue {
  async enqueue(manager: EntityManager, queue: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<string> {
    const job = manager.create(JobEntity, {
      queue,
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      runAt: options.runAt ?? new Date(),
    });
    job.payload = payload;
    const saved = await manager.save(job);
    return saved.id;
  }
}
