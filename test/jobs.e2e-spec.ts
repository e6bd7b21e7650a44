import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '../src/common/config/app-config';
import { JobEntity } from '../src/common/jobs/job.entity';
import { JobQueue } from '../src/common/jobs/job-queue';
import { JobWorker } from '../src/common/jobs/job-worker';
import { ROOT_LOGGER } from '../src/common/logging/logging.module';
import { startTestApp, TestApp } from './support/test-app';
import { Metrics } from '../src/common/metrics/metrics';

describe('PostgreSQL job queue', () => {
  let testApp: TestApp;
  let dataSource: DataSource;
  let queue: JobQueue;
  let worker: JobWorker;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { JOB_POLL_INTERVAL_MS: '0', JOB_BACKOFF_BASE_MS: '200' } });
    dataSource = testApp.app.get(DataSource);
    queue = testApp.app.get(JobQueue);
    worker = testApp.app.get(JobWorker);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const enqueue = (name: string, payload: Record<string, unknown>, maxAttempts?: number) =>
    dataSource.transaction((manager) => queue.enqueue(manager, name, payload, { maxAttempts }));
  const job = (id: string) => dataSource.getRepository(JobEntity).findOneByOrFail({ id });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('runs each job exactly once when two workers drain the queue at the same time', async () => {
    const second = new JobWorker(dataSource, testApp.app.get(AppConfig), testApp.app.get<Logger>(ROOT_LOGGER), testApp.app.get(Metrics));
    const deliveries: Array<{ n: number; worker: string }> = [];
    for (const w of [worker, second]) {
      w.register('count', async (payload) => {
        await pause(2);
        deliveries.push({ n: payload.n as number, worker: w.id });
      });
    }
    for (let n = 0; n < 30; n++) await enqueue('count', { n });
    const [a, b] = await Promise.all([worker.drain(), second.drain()]);
    expect(a + b).toBe(30);
    expect(deliveries.map((d) => d.n).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    const { count } = (await dataSource.query(`SELECT count(*)::int AS count FROM jobs WHERE queue = 'count' AND status = 'succeeded'`))[0];
    expect(count).toBe(30);
  });

  it('retries a failed job after a backoff and records the error until it succeeds', async () => {
    let calls = 0;
    worker.register('flaky', async () => {
      calls++;
      if (calls === 1) throw new Error('receiver answered 502');
    });
    const id = await enqueue('flaky', {});
    expect(await worker.drain()).toBe(1);
    const failedOnce = await job(id);
    expect(failedOnce).toMatchObject({ status: 'pending', attempts: 1, lastError: 'receiver answered 502' });
    expect(failedOnce.runAt.getTime()).toBeGreaterThan(Date.now() - 1000);
    expect(await worker.drain()).toBe(0);
    await pause(500);
    expect(await worker.drain()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'succeeded', attempts: 2, lastError: null });
    expect(calls).toBe(2);
  });

  it('gives up after max_attempts', async () => {
    worker.register('doomed', async () => {
      throw new Error('always fails');
    });
    const id = await enqueue('doomed', {}, 2);
    await worker.drain();
    await pause(500);
    await worker.drain();
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 2, lastError: 'always fails' });
    await pause(200);
    expect(await worker.drain()).toBe(0);
  });

  it('takes up a job whose worker died once its lease has expired', async () => {
    const seen: string[] = [];
    worker.register('orphan', async (_payload, meta) => {
      seen.push(meta.id);
    });
    const id = await enqueue('orphan', {});
    await dataSource.query(
      `UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'dead-worker', locked_at = now() - interval '10 minutes' WHERE id = $1`,
      [id],
    );
    expect(await worker.drain()).toBe(1);
    expect(seen).toEqual([id]);
    expect(await job(id)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('enqueues only when the surrounding transaction commits', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await queue.enqueue(manager, 'never', { lost: true });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const { count } = (await dataSource.query(`SELECT count(*)::int AS count FROM jobs WHERE queue = 'never'`))[0];
    expect(count).toBe(0);
  });

  it('runs due jobs by itself when polling is on', async () => {
    const polling = await startTestApp({ env: { JOB_POLL_INTERVAL_MS: '50' } });
    try {
      const done: unknown[] = [];
      polling.app.get(JobWorker).register('auto', async (payload) => {
        done.push(payload.n);
      });
      const pollingData = polling.app.get(DataSource);
      await pollingData.transaction((manager) => polling.app.get(JobQueue).enqueue(manager, 'auto', { n: 7 }));
      for (let i = 0; i < 100 && done.length === 0; i++) await pause(20);
      expect(done).toEqual([7]);
    } finally {
      await polling.close();
    }
  });

  it('a job running when the application closes finishes and is recorded before the database connections close', async () => {
    const polling = await startTestApp({ env: { JOB_POLL_INTERVAL_MS: '50', LOG_LEVEL: 'info' } });
    let state = 'waiting';
    polling.app.get(JobWorker).register('slow', async () => {
      state = 'running';
      await pause(300);
      state = 'finished';
    });
    await polling.app.get(DataSource).transaction((manager) => polling.app.get(JobQueue).enqueue(manager, 'slow', { n: 1 }));
    for (let i = 0; i < 100 && state === 'waiting'; i++) await pause(20);
    expect(state).toBe('running');
    await polling.close();
    expect(state).toBe('finished');
    // Marking the job succeeded needed the database: a closed pool would have failed the worker's tick.
    const failures = polling.logs.entries().filter((entry) => /job worker tick failed|job attempt failed/.test(String(entry.msg)));
    expect(failures).toEqual([]);
  });
});
