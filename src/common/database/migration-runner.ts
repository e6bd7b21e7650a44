import type { DataSource } from 'typeorm';

/** Arbitrary constant naming "schema migration" among advisory locks. */
const MIGRATION_LOCK_KEY = 7_310_442_019;

/**
 * Applies pending migrations, by default while holding a session advisory lock so that replicas
 * starting together migrate one after another instead of racing. Embedded PGlite skips the lock: it
 * excludes nothing there (the data-directory lock already allows one process) and would need a
 * second connection. Returns the names of the migrations applied.
 */
export async function runPendingMigrations(dataSource: DataSource, options: { lock: boolean }): Promise<string[]> {
  if (!options.lock) return (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await lockHolder.release();
  }
}
