import type { EntityManager } from 'typeorm';
import { JsonColumnsStatement } from './json-columns-statement';

/** A manager whose pool answers every statement with `row` (the server version check aside), recording what it was sent. */
function managerAnswering(row: Record<string, unknown>) {
  const calls: Array<{ name: string; sql: string; parameters: unknown[] }> = [];
  const pool = {
    query: (config: { name: string; text: string; values: unknown[] }) => {
      if (config.text === 'SELECT version() AS version') return Promise.resolve({ rows: [{ version: 'PostgreSQL 15.20' }] });
      calls.push({ name: config.name, sql: config.text, parameters: config.values });
      return Promise.resolve({ rows: [row] });
    },
  };
  const manager = { connection: { driver: { master: pool } } } as unknown as EntityManager;
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

  it('prepares the statement under a name its text decides', async () => {
    const { manager, calls } = managerAnswering({ c0: [] });
    for (const table of ['t', 't', 'u']) {
      const statement = new JsonColumnsStatement();
      statement.add(`SELECT id FROM ${table} WHERE id = ANY(${statement.parameter([1])})`);
      await statement.run(manager);
    }
    expect(calls.map((call) => call.name)).toEqual([calls[0].name, calls[0].name, calls[2].name]);
    expect(calls[0].name).toMatch(/^p_[\w-]{32}$/);
    expect(calls[2].name).not.toBe(calls[0].name);
  });

  it('reads a list of ids through a cast subquery, so every plan of the statement costs it alike', async () => {
    const { manager, calls } = managerAnswering({ c0: [] });
    const statement = new JsonColumnsStatement();
    statement.add(`SELECT id FROM t WHERE id = ANY(${statement.ids([4, 5])})`);
    await statement.run(manager);
    expect(calls[0].sql).toContain('WHERE id = ANY((SELECT $1::int[])::int[])');
    expect(calls[0].parameters).toEqual([[4, 5]]);
  });

  it('parses a column the driver handed back as JSON text', async () => {
    const { manager } = managerAnswering({ c0: '[{"id":3,"name":"x"}]' });
    const statement = new JsonColumnsStatement();
    statement.add('SELECT 1');
    expect(await statement.run(manager)).toEqual([[{ id: 3, name: 'x' }]]);
  });
});
