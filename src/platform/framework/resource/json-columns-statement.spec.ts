import type { EntityManager } from 'typeorm';
import { JsonColumnsStatement } from './json-columns-statement';

function managerAnswering(row: Record<string, unknown>) {
  const calls: Array<{ sql: string; parameters: unknown[] }> = [];
  const manager = {
    query: (sql: string, parameters: unknown[]) => {
      calls.push({ sql, parameters });
      return Promise.resolve([row]);
    },
  } as unknown as EntityManager;
  return { manager, calls };
}

describe('JsonColumnsStatement', () => {
  it('sends no statement when nothing was added', async () => {
    const { manager, calls } = managerAnswering({});
    const statement = new JsonColumnsStatement();
    expect(statement.empty).toBe(true);
    expect(await statement.run(manager)).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it('reads every subquery in one statement, a placeholder shared between subqueries', async () => {
    const { manager, calls } = managerAnswering({ c0: [{ id: 1 }], c1: ['a', 'b'] });
    const statement = new JsonColumnsStatement();
    const ids = statement.parameter([1, 2]);
    const first = statement.add(`SELECT id FROM t WHERE id = ANY(${ids})`);
    const second = statement.add(
      `SELECT name FROM u WHERE t_id = ANY(${ids}) AND kind = ${statement.parameter('x')}`,
      'json_agg(x.name ORDER BY x.name)',
    );
    const results = await statement.run(manager);
    expect(calls).toHaveLength(1);
    expect(calls[0].parameters).toEqual([[1, 2], 'x']);
    expect(calls[0].sql).toBe(
      "SELECT (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT id FROM t WHERE id = ANY($1)) x) AS c0, " +
        "(SELECT coalesce(json_agg(x.name ORDER BY x.name), '[]'::json) FROM (SELECT name FROM u WHERE t_id = ANY($1) AND kind = $2) x) AS c1",
    );
    expect(results[first]).toEqual([{ id: 1 }]);
    expect(results[second]).toEqual(['a', 'b']);
  });

  it('parses a column the driver handed back as JSON text', async () => {
    const { manager } = managerAnswering({ c0: '[{"id":3,"name":"x"}]' });
    const statement = new JsonColumnsStatement();
    statement.add('SELECT 1');
    expect(await statement.run(manager)).toEqual([[{ id: 3, name: 'x' }]]);
  });
});
