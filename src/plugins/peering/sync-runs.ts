import type { DataSource } from 'typeorm';

/** Where each synchronisation run is kept: kind, source, start and end, outcome, counts, error. */
export const SYNC_RUN_TABLE = 'peering_syncrun';

export interface SyncRun {
  kind: 'peeringdb' | 'irr';
  /** `live` (PeeringDB API), `file` (an export), `generator` (an IRR prefix-list generator). */
  source: 'live' | 'file' | 'generator';
  jobId: string;
}

/** Runs a synchronisation and stores its outcome (counts, or the error, which is thrown on). */
export async function recordedRun<T extends object>(dataSource: DataSource, run: SyncRun, work: () => Promise<T>): Promise<T> {
  const started = new Date();
  const store = (status: 'succeeded' | 'failed', counts: object, error: string) =>
    dataSource.query(
      `INSERT INTO ${SYNC_RUN_TABLE} (kind, source, job_id, started, finished, status, counts, error) VALUES ($1, $2, $3, $4, now(), $5, $6, $7)`,
      [run.kind, run.source, run.jobId, started, status, JSON.stringify(counts), error.slice(0, 2000)],
    );
  try {
    const result = await work();
    await store('succeeded', result, '');
    return result;
  } catch (error) {
    await store('failed', {}, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
