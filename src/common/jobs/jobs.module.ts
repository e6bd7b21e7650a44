import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobEntity } from './job.entity';
import { JobQueue } from './job-queue';
import { JobWorker } from './job-worker';

/** The PostgreSQL-backed job queue (webhook deliveries, outbound mail). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([JobEntity])],
  providers: [JobQueue, JobWorker],
  exports: [JobQueue, JobWorker],
})
export class JobsModule {}
