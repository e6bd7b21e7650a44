import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { JobEntity } from './job.entity';
import { Metrics } from '../metrics/metrics';

export type JobHandler = (payload: Record<string, unknown>, job: { id: string; attempt: number }) => Promise<void>;

/** A running job whose worker has not finished it within this time is presumed lost and retried. */
const LEASE_SECONDS = 300;
const MAX_BACKOFF_SECONDS = 3600;

/**
 * Runs queued jobs. Claiming is one `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED)`, so
 * any number of workers in any number of replicas share the queue and no job runs twice at once.
 * A failed attempt is retried with exponential backoff (2, 4, 8 … × JOB_BACKOFF_BASE_MS, at most an hour) until
 * `max_attempts`; a job whose worker died is taken up again once its lease expires. Delivery is
 * at-least-once: a crash after the handler succeeded but before the job is marked done repeats it.
 */
@Injectable()
export class JobWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly id = randomUUID();
  private readonly handlers = new Map<string, JobHandler>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {
    metrics.readAtScrape(metrics.jobQueueDepth, async () => {
      const rows = (await this.dataSource.query(
        `SELECT queue, status, count(*)::int AS jobs FROM jobs WHERE status IN ('pending', 'running') GROUP BY queue, status`,
      )) as Array<{ queue: string; status: string; jobs: number }>;
      metrics.jobQueueDepth.reset();
      for (const row of rows) metrics.jobQueueDepth.set({ queue: row.queue, status: row.status }, row.jobs);
    });
  }

  register(queue: string, handler: JobHandler): void {
    this.handlers.set(queue, handler);
  }

  onApplicationBootstrap(): void {
    if (this.config.jobPollIntervalMs === 0) return;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.drain()
        .catch((error: unknown) => this.logger.error({ err: error }, 'job worker tick failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.config.jobPollIntervalMs);
        });
    };
    this.timer = setTimeout(tick, this.config.jobPollIntervalMs);
  }

  /** Before the database connections close (TypeORM closes them on application shutdown), not beside it. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs due jobs until none is left; returns how many ran. */
  async drain(): Promise<number> {
    if (this.handlers.size === 0) return 0;
    await this.releaseExpiredLeases();
    let ran = 0;
    while (!this.stopped && (await this.runOne())) ran++;
    return ran;
  }

  /** Claims and runs one due job of a registered queue; false when there was none. */
  async runOne(): Promise<boolean> {
    const queues = [...this.handlers.keys()];
    if (queues.length === 0) return false;
    const rows = (await this.dataSource.query(
      `UPDATE jobs SET status = 'running', locked_at = now(), locked_by = $1, attempts = attempts + 1, updated_at = now()
        WHERE id = (SELECT id FROM jobs WHERE queue = ANY($2) AND status = 'pending' AND run_at <= now()
                    ORDER BY run_at, id FOR UPDATE SKIP LOCKED LIMIT 1)
        RETURNING id, queue, payload, attempts, max_attempts`,
      [this.id, queues],
    )) as [Array<{ id: string; queue: string; payload: Record<string, unknown>; attempts: number; max_attempts: number }>, number];
    const [job] = rows[0];
    if (!job) return false;
    try {
      await this.handlers.get(job.queue)!(job.payload, { id: String(job.id), attempt: job.attempts });
      await this.dataSource.query(
        `UPDATE jobs SET status = 'succeeded', completed_at = now(), locked_at = NULL, locked_by = NULL, last_error = NULL, updated_at = now() WHERE id = $1`,
        [job.id],
      );
      this.metrics.jobOutcomes.inc({ queue: job.queue, outcome: 'succeeded' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = job.attempts >= job.max_attempts;
      const backoff = Math.min((2 ** job.attempts * this.config.jobBackoffBaseMs) / 1000, MAX_BACKOFF_SECONDS);
      await this.dataSource.query(
        `UPDATE jobs SET status = $2::text, run_at = now() + make_interval(secs => $3), last_error = $4,
                locked_at = NULL, locked_by = NULL, completed_at = CASE WHEN $2::text = 'failed' THEN now() END, updated_at = now()
          WHERE id = $1`,
        [job.id, giveUp ? 'failed' : 'pending', backoff, message.slice(0, 2000)],
      );
      this.metrics.jobOutcomes.inc({ queue: job.queue, outcome: giveUp ? 'failed' : 'retry' });
      this.logger.warn({ job_id: job.id, queue: job.queue, attempt: job.attempts, gave_up: giveUp, error: message }, 'job attempt failed');
    }
    return true;
  }

  private async releaseExpiredLeases(): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(JobEntity)
      .set({ status: 'pending', lockedAt: null, lockedBy: null })
      .where("status = 'running' AND locked_at < now() - make_interval(secs => :lease)", { lease: LEASE_SECONDS })
      .execute();
  }
}
