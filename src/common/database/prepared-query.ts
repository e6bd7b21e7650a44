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
 * more than a small statement itself. Meant for statements whose text comes from a bounded set
 * (built from declarations, values as parameters): each distinct text stays prepared for the
 * connection's life, so past {@link MAX_PREPARED_TEXTS} texts new ones run unnamed. On PGlite every
 * connection is one shared session, where a name one pg client prepared collides with the next
 * client's (42P05): there statements run unnamed.
 */
export async function preparedQuery<Row>(manager: EntityManager, text: string, values: readonly unknown[]): Promise<Row[]> {
  const target = await queryableOf(manager);
  const name = (await sessionsArePrivate(manager.connection, target)) ? statementName(text) : undefined;
  const result = await target.query(name ? { name, text, values } : { text, values });
  return result.rows as Row[];
}

/**
 * Runs `text` unnamed, as {@link preparedQuery} runs it otherwise (on the transaction's connection
 * or straight on the pool): for statements whose texts are too many to keep prepared, such as a
 * list's page under each combination of filters.
 */
export async function directQuery<Row>(manager: EntityManager, text: string, values: readonly unknown[]): Promise<Row[]> {
  const result = await (await queryableOf(manager)).query({ text, values });
  return result.rows as Row[];
}

async function queryableOf(manager: EntityManager): Promise<PgQueryable> {
  const own = manager.queryRunner;
  return own && !own.isReleased
    ? ((await own.connect()) as PgQueryable)
    : (manager.connection.driver as unknown as { master: PgQueryable }).master;
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

/** Distinct statement texts a process prepares; each costs every pooled connection its parse tree and plan. */
const MAX_PREPARED_TEXTS = 256;
const namesByText = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = namesByText.get(text);
  if (!name) {
    if (namesByText.size >= MAX_PREPARED_TEXTS) return undefined;
    name = `p_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    namesByText.set(text, name);
  }
  return name;
}
