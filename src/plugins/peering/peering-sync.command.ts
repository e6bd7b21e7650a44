import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { loadEnvironmentOrExit } from '../../common/config/load-environment';
import { openDatabaseConnection } from '../../common/database/database-connection';
import { dataSourceOptions } from '../../common/database/data-source-options';
import { JobQueue } from '../../common/jobs/job-queue';
import { JobEntity } from '../../common/jobs/job.entity';
import { createRootLogger } from '../../common/logging/root-logger';
import { IRR_SYNC_ALL_QUEUE } from './irr-sync';
import { PEERINGDB_SYNC_QUEUE } from './peeringdb-sync';

const USAGE = 'usage: peering-sync peeringdb --live | peering-sync peeringdb --file <PeeringDB JSON export> | peering-sync irr [--all]';

/** The job a command line asks for, or a problem with it. */
export function jobOfArguments(
  args: readonly string[],
  readFile: (path: string) => string,
): { queue: string; payload: Record<string, unknown> } | { problem: string } {
  const [command, ...options] = args;
  if (command === 'irr') {
    if (options.some((option) => option !== '--all')) return { problem: USAGE };
    return { queue: IRR_SYNC_ALL_QUEUE, payload: { all: options.includes('--all') } };
  }
  if (command === 'peeringdb' && options.length === 1 && options[0] === '--live')
    return { queue: PEERINGDB_SYNC_QUEUE, payload: { live: true } };
  if (command !== 'peeringdb' || options.length !== 2 || options[0] !== '--file') return { problem: USAGE };
  let dump: unknown;
  try {
    dump = JSON.parse(readFile(options[1]));
  } catch (error) {
    return { problem: `cannot read ${options[1]} as JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (dump === null || typeof dump !== 'object' || Array.isArray(dump))
    return { problem: `${options[1]} is not a PeeringDB export (a JSON object of ix, ixlan, ixpfx, netixlan, net)` };
  return { queue: PEERINGDB_SYNC_QUEUE, payload: { export: dump } };
}

/**
 * `npm run peering:sync-peeringdb -- --live` (from the PeeringDB API), `-- --file dump.json` (an export) and `npm run peering:sync-irr [-- --all]`:
 * enqueue the synchronisation on the platform's PostgreSQL job queue (DATABASE_URL), where one
 * worker of one replica runs it; prints the job id.
 */
async function main(): Promise<void> {
  const job = jobOfArguments(process.argv.slice(2), (path) => readFileSync(path, 'utf8'));
  if ('problem' in job) {
    process.stderr.write(`${job.problem}\n`);
    process.exit(2);
  }
  const config = loadEnvironmentOrExit();
  const database = await openDatabaseConnection(config, createRootLogger('warn'));
  const dataSource = await new DataSource({ ...dataSourceOptions(database.url, 1, []), entities: [JobEntity] }).initialize();
  try {
    const id = await dataSource.transaction((manager) => new JobQueue().enqueue(manager, job.queue, job.payload, { maxAttempts: 3 }));
    process.stdout.write(`enqueued ${job.queue} job ${id}\n`);
  } finally {
    await dataSource.destroy();
    await database.close();
  }
}

if (require.main === module) void main();
