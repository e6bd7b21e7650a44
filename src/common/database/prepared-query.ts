import { createHash } from 'node:crypto';
import type { QueryResult } from 'pg';
import type { EntityManager } from 'typeorm';

interface PreparedStatement {
  name: string;
  text: string;
  values: readonly unknown[];
}

/** What TypeORM's PostgreSQL query runner's connect() resolves to, and its driver's pool: both answer pg's query(). */
interface PgQueryable {
  query(statement: PreparedStatement): Promise<QueryResult>;
}

/**
 * Runs `text` as a named prepared statement, so PostgreSQL parses and plans it once per connection
 * rather than per request: for a page's reference statement, planning took ten times as long as
 * running it. Inside the manager's transaction it runs on that transaction's connection; otherwise
 * straight on the pool, since checking out, releasing and announcing a TypeORM query runner cost
 * more than a small statement itself. Only for statements whose text comes from a bounded set
 * (built from declarations, values as parameters): each distinct text stays prepared for the
 * connection's life.
 */
export async function preparedQuery<Row>(manager: EntityManager, text: string, values: readonly unknown[]): Promise<Row[]> {
  const statement = { name: statementName(text), text, values };
  const own = manager.queryRunner;
  const target =
    own && !own.isReleased
      ? ((await own.connect()) as PgQueryable)
      : (manager.connection.driver as unknown as { master: PgQueryable }).master;
  const result = await target.query(statement);
  return result.rows as Row[];
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
