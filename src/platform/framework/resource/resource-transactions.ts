import { DataSource, EntityManager } from 'typeorm';
import { violatedUniqueConstraint } from '../../../common/database/unique-violation';
import { AfterTransaction } from './resource-declaration';
import { nonFieldError } from './resource-errors';

/**
 * A transaction whose unique-constraint violation (two items of one bulk request, or a race with
 * another request, both past the uniqueness check) is a 400 like the check's own, not a 500.
 */
export async function writeTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  try {
    return await dataSource.transaction(work);
  } catch (error) {
    const constraint = violatedUniqueConstraint(error);
    if (constraint === undefined) throw error;
    throw nonFieldError(`An object with these values already exists (${constraint}).`);
  }
}

/**
 * An action's work, in a {@link writeTransaction} for a POST; an {@link AfterTransaction} answer is
 * finished once that has ended. A GET reads, as NetBox's GETs do, outside a transaction: under READ
 * COMMITTED each statement takes its own snapshot inside one as well, so a transaction would only
 * add BEGIN and COMMIT.
 */
export async function actionTransaction<T>(
  dataSource: DataSource,
  method: 'GET' | 'POST',
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const answer = method === 'GET' ? await work(dataSource.manager) : await writeTransaction(dataSource, work);
  return answer instanceof AfterTransaction ? ((await answer.finish()) as T) : answer;
}
