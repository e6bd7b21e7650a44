import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { preparedQuery } from './prepared-query';

/**
 * Column types whose values pg hands back exactly as TypeORM would hydrate them (numbers, strings,
 * booleans, Dates, parsed JSON, arrays of those). An entity with any other type, or a transformer,
 * is refused here rather than loaded subtly differently.
 */
const PLAIN_TYPES = new Set([
  'varchar',
  'character varying',
  'text',
  'integer',
  'int',
  'int4',
  'bigint',
  'int8',
  'boolean',
  'timestamptz',
  'timestamp with time zone',
  'uuid',
  'jsonb',
  'json',
]);

interface EntityStatements {
  selectById: string;
  /** INSERTs by the properties they write, in order (callers write fixed sets: bounded). */
  inserts: Map<string, { text: string; columns: ColumnMetadata[] }>;
}

/** A statement's text and its parameters. */
export interface Statement {
  text: string;
  values: unknown[];
}

const statementsByMetadata = new WeakMap<EntityMetadata, EntityStatements>();

function statementsFor(manager: EntityManager, metadata: EntityMetadata): EntityStatements {
  let statements = statementsByMetadata.get(metadata);
  if (statements) return statements;
  // A foreign key declared as a @Column as well as a relation is one column (with relationMetadata): selected, as findOne does.
  const columns = metadata.columns.filter((column) => column.isSelect && !column.isVirtual);
  for (const column of columns) {
    const type = manager.connection.driver.normalizeType(column);
    if (column.transformer || !PLAIN_TYPES.has(type) || column.embeddedMetadata) {
      throw new Error(`${metadata.name}.${column.propertyName}: column type ${String(column.type)} is not loaded by entity-statements`);
    }
  }
  const [primary] = metadata.primaryColumns;
  const list = columns.map((column) => `"${column.databaseName}" AS "${column.propertyName}"`).join(', ');
  statements = { selectById: `SELECT ${list} FROM "${metadata.tableName}" WHERE "${primary.databaseName}" = $1`, inserts: new Map() };
  statementsByMetadata.set(metadata, statements);
  return statements;
}

/**
 * `findOne({ where: { id } })` for the hot paths (issuance runs it on every request): the same
 * selected columns and hydrated values, read by a prepared statement whose text is built once per
 * entity, instead of a query built, planned and mapped by TypeORM each time.
 */
export async function findEntityById<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  id: number,
): Promise<T | null> {
  const metadata = manager.connection.getMetadata(target);
  const [row] = await preparedQuery<ObjectLiteral>(manager, statementsFor(manager, metadata).selectById, [id]);
  return row ? (Object.assign(metadata.create(), row) as T) : null;
}

/**
 * An INSERT of `values` (entity properties) returning `returning` (column names), as TypeORM's insert
 * builder would write it, with its text built once per set of properties rather than per call.
 */
export function entityInsert<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: Partial<T>,
  returning: readonly string[],
): Statement {
  const metadata = manager.connection.getMetadata(target);
  const properties = Object.keys(values);
  const key = `${properties.join(',')} ${returning.join(',')}`;
  const inserts = statementsFor(manager, metadata).inserts;
  let insert = inserts.get(key);
  if (!insert) {
    const columns = properties.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      return column;
    });
    const placeholders = properties.map((_, index) => `$${index + 1}`);
    const names = columns.map((column) => `"${column.databaseName}"`);
    const text = `INSERT INTO "${metadata.tableName}" (${names.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING ${returning.map((name) => `"${name}"`).join(', ')}`;
    insert = { text, columns };
    inserts.set(key, insert);
  }
  // TypeORM's own conversion per column (JSON text for jsonb, transformers), as its insert builder applies.
  const driver = manager.connection.driver;
  const { columns } = insert;
  return {
    text: insert.text,
    values: properties.map((property, index): unknown =>
      driver.preparePersistentValue((values as ObjectLiteral)[property], columns[index]),
    ),
  };
}
