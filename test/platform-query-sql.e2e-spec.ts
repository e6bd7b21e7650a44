import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { FilterSet } from '../src/platform/framework/query/filter-fields';
import { parseFilters, QueryParameters } from '../src/platform/framework/query/filter-parser';
import { toSql } from '../src/platform/framework/query/filter-sql';
import { createTestDatabase, TestDatabase } from './support/test-database';

const filterSet: FilterSet = {
  name: { column: '"device"."name"', type: { kind: 'string' } },
  position: { column: '"device"."position"', type: { kind: 'decimal' } },
  installed: { column: '"device"."installed"', type: { kind: 'date' } },
  status: { column: '"device"."status"', type: { kind: 'choice', choices: ['active', 'offline', ''] } },
  site_id: { column: '"device"."site_id"', type: { kind: 'relation' } },
};

/** The platform query layer's SQL, run on the test database (PostgreSQL server or embedded PGlite). */
describe('toSql against PostgreSQL', () => {
  let database: TestDatabase;
  let client: Client;
  // Only its driver is used: it expands the named parameters exactly as a SelectQueryBuilder would. It never connects.
  const typeorm = new DataSource({ type: 'postgres', url: 'postgres://unused@127.0.0.1/unused' });

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query(`CREATE TEMP TABLE device (
      id integer PRIMARY KEY, name text, position numeric(4, 1), installed date, status text, site_id integer
    ) ON COMMIT DROP`);
    await client.query(`INSERT INTO device VALUES
      (1, 'edge-01',      1.5,  '2024-01-10', 'active',  10),
      (2, 'Edge-02',      2.0,  '2024-02-10', 'offline', 20),
      (3, '100% core',    NULL, NULL,         '',        NULL),
      (4, 'core_1',       10.0, '2023-12-31', NULL,      10),
      (5, 'core-1',       3.0,  '2024-03-01', 'active',  NULL),
      (6, 'path\\to',      NULL, '2024-01-01', 'active',  20),
      (7, '',             NULL, NULL,         'offline', 30),
      (8, NULL,           NULL, NULL,         NULL,      NULL)`);
  });

  afterAll(async () => {
    await client.query('ROLLBACK');
    await client.end();
    await database.drop();
  });

  async function idsMatching(query: QueryParameters): Promise<number[]> {
    const { where, params } = toSql(parseFilters(query, filterSet, { ignore: [] }).conditions);
    const [sql, values] = typeorm.driver.escapeQueryWithParameters(`SELECT id FROM device "device" WHERE ${where} ORDER BY id`, params);
    const result = await client.query<{ id: number }>(sql, values);
    return result.rows.map((row) => row.id);
  }

  it.each<[string, QueryParameters, number[]]>([
    ['no filter', {}, [1, 2, 3, 4, 5, 6, 7, 8]],
    ['exact is case-sensitive', { name: 'edge-01' }, [1]],
    ['repeated exact is OR', { name: ['edge-01', 'core-1'] }, [1, 5]],
    ['__n keeps NULLs', { name__n: ['edge-01', 'core-1'] }, [2, 3, 4, 6, 7, 8]],
    ['__ie', { name__ie: 'EDGE-02' }, [2]],
    ['__nie keeps NULLs', { name__nie: 'EDGE-02' }, [1, 3, 4, 5, 6, 7, 8]],
    ['__ic', { name__ic: 'EDGE' }, [1, 2]],
    ['__ic with % matches it literally', { name__ic: '0%' }, [3]],
    ['__ic with _ matches it literally', { name__ic: 'e_1' }, [4]],
    ['__ic with \\ matches it literally', { name__ic: 'h\\t' }, [6]],
    ['__nic keeps NULLs', { name__nic: '_' }, [1, 2, 3, 5, 6, 7, 8]],
    ['__isw', { name__isw: 'core' }, [4, 5]],
    ['__nisw', { name__nisw: ['core', 'edge'] }, [3, 6, 7, 8]],
    ['__iew', { name__iew: '_1' }, [4]],
    ['__empty=true on text is NULL or blank', { name__empty: 'true' }, [7, 8]],
    ['__empty=false on text', { name__empty: 'false' }, [1, 2, 3, 4, 5, 6]],
    ['__isnull on text', { name__isnull: 'true' }, [8]],
    ['decimal range', { position__gte: '2', position__lt: '10.0' }, [2, 5]],
    ['decimal __empty', { position__empty: 'true' }, [3, 6, 7, 8]],
    ['date __lte', { installed__lte: '2024-01-10' }, [1, 4, 6]],
    ['date __n', { installed__n: '2024-01-10' }, [2, 3, 4, 5, 6, 7, 8]],
    ['choice exact, repeated', { status: ['offline', 'active'] }, [1, 2, 5, 6, 7]],
    ['choice __empty counts blank', { status__empty: 'true' }, [3, 4, 8]],
    ['relation ids', { site_id: ['10', '30'] }, [1, 4, 7]],
    ['relation null or id', { site_id: ['null', '20'] }, [2, 3, 5, 6, 8]],
    ['relation __n=null', { site_id__n: 'null' }, [1, 2, 4, 6, 7]],
    ['relation __n keeps NULLs', { site_id__n: '10' }, [2, 3, 5, 6, 7, 8]],
    ['parameters AND', { site_id: '10', name__ic: 'core' }, [4]],
  ])('%s', async (_description, query, ids) => {
    await expect(idsMatching(query)).resolves.toEqual(ids);
  });
});
