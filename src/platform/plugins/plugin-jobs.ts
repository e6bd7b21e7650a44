import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EgressPolicy } from '../../common/http/egress-policy';
import { JobWorker } from '../../common/jobs/job-worker';
import { PluginSet } from './plugin-set';

/** Registers the job queues of the mounted plugins with the worker; jobs of other plugins wait in the queue. */
@Injectable()
export class PluginJobs implements OnModuleInit {
  constructor(
    private readonly plugins: PluginSet,
    private readonly worker: JobWorker,
    private readonly dataSource: DataSource,
    private readonly egress: EgressPolicy,
  ) {}

  onModuleInit(): void {
    for (const { plugin, settings } of this.plugins.mounted) {
      for (const job of plugin.jobs ?? []) {
        this.worker.register(job.queue, (payload, run) =>
          job.handle(payload, { dataSource: this.dataSource, settings, job: run, egress: this.egress }),
        );
      }
    }
  }
}
