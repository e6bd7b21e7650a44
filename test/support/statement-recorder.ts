import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/**
 * The SQL statements the app runs while `work` runs (it serves in this process): TypeORM's query
 * runner's, and those sent straight to the pool (common/database/prepared-query.ts). `keep` leaves
 * out statements a test does not count.
 */
export async function recordStatements<T>(
  app: INestApplication,
  work: () => Promise<T>,
  keep: (statement: string) => boolean = () => true,
): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const record = (statement: unknown) => {
    const text = typeof statement === 'string' ? statement : String((statement as { text?: string }).text);
    if (keep(text)) statements.push(text);
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, applied to each runner by the spy below
  const runnerQuery = PostgresQueryRunner.prototype.query;
  const runnerSpy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args) {
    record(args[0]);
    return runnerQuery.apply(this, args);
  });
  const pool = (app.get(DataSource).driver as unknown as { master: { query: (...args: unknown[]) => unknown } }).master;
  const poolQuery = pool.query.bind(pool);
  const poolSpy = jest.spyOn(pool, 'query').mockImplementation((...args: unknown[]) => {
    record(args[0]);
    return poolQuery(...args);
  });
  try {
    return { result: await work(), statements };
  } finally {
    runnerSpy.mockRestore();
    poolSpy.mockRestore();
  }
}
