import { createHash } from 'node:crypto';
import type { QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

interface Statement {
  name?: string;
  text: string;
  values: readonly unknown[];
}

/** What TypeORM's PostgreSQL query runner's connect() resolves to, and its driver's pool: both answer pg's query(). */
interface PgQueryable {
  query(statement: Statement): Promise<QueryResult>;
}

/**
 * Runs `text` as a named prepared statement, so PostgreSQL parses and plans it once per connection
 * rather than per request: for a page's reference statement, planning took ten times as long as
 * running it. Inside the manager's transaction it runs on that transaction's connection; otherwise
 * straight on the pool, since checking out, releasing and announcing a TypeORM query runner cost
 * more than a small statement itself. Only for statements whose text comes from a bounded set
 * (built from declarations, values as parameters): each distinct text stays prepared for the
 * connection's life. On PGlite every connection is one shared session, where a name one pg client
 * prepared collides with the next client's (42P05): there statements run unnamed.
 */
export async function preparedQuery<Row>(manager: EntityManager, text: string, values: readonly unknown[]): Promise<Row[]> {
  const own = manager.queryRunner;
  const target =
    own && !own.isReleased
      ? ((await own.connect()) as PgQueryable)
      : (manager.connection.driver as unknown as { master: PgQueryable }).master;
  const named = await sessionsArePrivate(manager.connection, target);
  const result = await target.query(named ? { name: statementName(text), text, values } : { text, values });
  return result.rows as Row[];
}

const privateSessions = new WeakMap<DataSource, Promise<boolean>>();

/** False on PGlite (one session behind every connection); read once per data source from version(). */
function sessionsArePrivate(dataSource: DataSource, target: PgQueryable): Promise<boolean> {
  let answer = privateSessions.get(dataSource);
  if (!answer) {
    answer = target
      .query({ text: 'SELECT version() AS version', values: [] })
      .then((result) => !(result.rows[0] as { version: string }).version.includes('PGlite'));
    // A failed check (the database unreachable) is asked again next time rather than remembered.
    answer.catch(() => privateSessions.delete(dataSource));
    privateSessions.set(dataSource, answer);
  }
  return answer;
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
