import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { EgressPolicy } from '../../common/http/egress-policy';
import { JobQueue } from '../../common/jobs/job-queue';
import { JobWorker } from '../../common/jobs/job-worker';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { JobChangeLog } from './job-change-log';
import { PluginSet } from './plugin-set';

/** Names the advisory lock under which a recurring queue's next run is added. */
const SCHEDULE_LOCK = 'plugin-job-schedule';

/**
 * Registers the job queues of the mounted plugins with the worker (jobs of other plugins wait in
 * the queue) and keeps one pending run of each recurring job.
 */
@Injectable()
export class PluginJobs implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly plugins: PluginSet,
    private readonly worker: JobWorker,
    private readonly dataSource: DataSource,
    private readonly egress: EgressPolicy,
    private readonly changeLog: JobChangeLog,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    for (const { plugin, settings } of this.plugins.mounted) {
      for (const job of plugin.jobs ?? []) {
        const seconds = job.every?.(settings) ?? 0;
        this.worker.register(job.queue, async (payload, run) => {
          try {
            const runId = randomUUID();
            await job.handle(payload, {
              dataSource: this.dataSource,
              settings,
              job: run,
              egress: this.egress,
              changeLog: {
                snapshots: (manager, objectType, ids) => this.changeLog.snapshots(manager, objectType, ids),
                record: (manager, changes) => this.changeLog.record(manager, changes, { queue: job.queue, runId }),
                recordDeletions: (manager, objectType, ids) =>
                  this.changeLog.recordDeletions(manager, objectType, ids, { queue: job.queue, runId }),
              },
            });
          } finally {
            // The next run is added whatever the outcome of this one (a scheduled run has one attempt).
            if (seconds > 0 && payload.scheduled === true) await this.schedule(job.queue, seconds, run.id);
          }
        });
      }
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const { plugin, settings } of this.plugins.mounted) {
      for (const job of plugin.jobs ?? []) {
        const seconds = job.every?.(settings) ?? 0;
        if (seconds === 0) continue;
        // The first run is due one interval after the first boot; later boots find it (or its successor) queued and add nothing.
        await this.schedule(job.queue, seconds).catch((error: unknown) =>
          this.logger.error({ err: error, queue: job.queue }, 'cannot schedule the recurring job'),
        );
      }
    }
  }

  /**
   * Adds the next scheduled run of a queue `seconds` from now, unless one (other than `currentJobId`)
   * is pending or running; one replica at a time decides.
   */
  private async schedule(queue: string, seconds: number, currentJobId = '0'): Promise<void> {
    await this.dataSource.transaction(async (manager: EntityManager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${SCHEDULE_LOCK}:${queue}`]);
      const pending = (await manager.query(
        `SELECT 1 FROM jobs WHERE queue = $1 AND status IN ('pending', 'running') AND id <> $2 AND (payload::jsonb ->> 'scheduled') = 'true' LIMIT 1`,
        [queue, currentJobId],
      )) as unknown[];
      if (pending.length > 0) return;
      await new JobQueue().enqueue(manager, queue, { scheduled: true }, { maxAttempts: 1, runAt: new Date(Date.now() + seconds * 1000) });
    });
  }
}
