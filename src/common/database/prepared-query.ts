import { createHash } from 'node:crypto';
import type { QueryResult } from 'pg';
import type { EntityManager } from 'typeorm';

/** What TypeORM's PostgreSQL query runner's connect() resolves to: the pool's pg client. */
interface PgClient {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<QueryResult>;
}

/**
 * Runs `text` as a named prepared statement on the manager's connection (its transaction's, if it
 * has one), so PostgreSQL parses and plans it once per connection rather than per request: for a
 * page's reference statement, planning took ten times as long as running it. Only for statements
 * whose text comes from a bounded set (built from declarations, values as parameters): each
 * distinct text stays prepared for the connection's life.
 */
export async function preparedQuery<Row>(manager: EntityManager, text: string, values: readonly unknown[]): Promise<Row[]> {
  const own = manager.queryRunner;
  const runner = own && !own.isReleased ? own : manager.connection.createQueryRunner();
  try {
    const client = (await runner.connect()) as PgClient;
    const result = await client.query({ name: statementName(text), text, values });
    return result.rows as Row[];
  } finally {
    if (runner !== own) await runner.release();
  }
}

const namesByText = new Map<string, string>();

function statementName(text: string): string {
  let name = namesByText.get(text);
  if (!name) {
    name = `p_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    namesByText.set(text, name);
  }
  return name;
}
