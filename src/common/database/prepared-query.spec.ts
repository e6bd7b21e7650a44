import type { EntityManager } from 'typeorm';
import { directQuery, preparedQuery } from './prepared-query';

/** A manager whose pool answers every statement with no rows (the server version check aside), recording the names it was sent. */
function recordingManager() {
  const names: Array<string | undefined> = [];
  const pool = {
    query: (config: { name?: string; text: string }) => {
      if (config.text === 'SELECT version() AS version') return Promise.resolve({ rows: [{ version: 'PostgreSQL 15.20' }] });
      names.push(config.name);
      return Promise.resolve({ rows: [] });
    },
  };
  return { manager: { connection: { driver: { master: pool } } } as unknown as EntityManager, names };
}

describe('preparedQuery', () => {
  it('prepares at most 256 statement texts per process; later texts run unnamed, earlier ones stay prepared', async () => {
    const { manager, names } = recordingManager();
    for (let index = 0; index < 300; index++) await preparedQuery(manager, `SELECT ${index}`, []);
    expect(names.slice(0, 256).every((name) => /^p_[\w-]{32}$/.test(name ?? ''))).toBe(true);
    expect(new Set(names.slice(0, 256)).size).toBe(256);
    expect(names.slice(256)).toEqual(Array.from({ length: 44 }, () => undefined));

    names.length = 0;
    await preparedQuery(manager, 'SELECT 0', []);
    await preparedQuery(manager, 'SELECT 299', []);
    expect(names[0]).toMatch(/^p_/);
    expect(names[1]).toBeUndefined();
  });

  it('directQuery never names its statement', async () => {
    const { manager, names } = recordingManager();
    await directQuery(manager, 'SELECT 1', []);
    expect(names).toEqual([undefined]);
  });
});
