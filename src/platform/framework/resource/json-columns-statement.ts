import { EntityManager } from 'typeorm';
import { preparedQuery } from '../../../common/database/prepared-query';

/**
 * One SELECT whose columns are JSON arrays, each aggregating the rows of its own subquery: several
 * independent reads in one round trip to the database. Values travel as PostgreSQL's JSON text of
 * what the subqueries select; callers select numbers, booleans, text, text arrays and json, whose
 * JSON form is what the driver would return for the column itself.
 */
export class JsonColumnsStatement {
  private readonly parameters: unknown[] = [];
  private readonly columns: string[] = [];

  /** A placeholder for `value`; the same placeholder may be used in several subqueries. */
  parameter(value: unknown): string {
    this.parameters.push(value);
    return `$${this.parameters.length}`;
  }

  /**
   * A placeholder for a list of ids, to compare with `= ANY(…)`. The list is read through a
   * subquery, so PostgreSQL plans for a list of any length: the plan it would make for these ids
   * costs what its generic plan costs, and it keeps the generic one instead of planning the whole
   * statement again on every call (most of the statement's time on a large database).
   */
  ids(values: readonly number[]): string {
    // The cast after the subquery makes it an expression: `ANY((SELECT …))` alone would read as `ANY (subquery)`.
    return `(SELECT ${this.parameter(values)}::int[])::int[]`;
  }

  /**
   * A column `aggregate` over the rows of `subquery` (named `x` in the aggregate), an empty array
   * when there are none; answers the column's index in {@link run}'s result.
   */
  add(subquery: string, aggregate = 'json_agg(x)'): number {
    this.columns.push(`(SELECT coalesce(${aggregate}, '[]'::json) FROM (${subquery}) x)`);
    return this.columns.length - 1;
  }

  get empty(): boolean {
    return this.columns.length === 0;
  }

  /** The columns' arrays by index; no statement at all when nothing was added. */
  async run(manager: EntityManager): Promise<unknown[][]> {
    if (this.empty) return [];
    // Prepared: its text depends only on the declarations and on which kinds of reference a page holds.
    const [row] = await preparedQuery<Record<string, unknown>>(
      manager,
      `SELECT ${this.columns.map((column, index) => `${column} AS c${index}`).join(', ')}`,
      this.parameters,
    );
    return this.columns.map((_, index) => {
      const value = row[`c${index}`];
      // Drivers parse json columns; one that hands back the text is read here the same way.
      return (typeof value === 'string' ? JSON.parse(value) : value) as unknown[];
    });
  }
}
