import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/common/database/data-source-options';
import { findEntityById } from '../src/common/database/entity-statements';
import { preparedQuery } from '../src/common/database/prepared-query';
import { OrganizationEntity } from '../src/modules/orgs/organization.entity';
import { CertificateAuthorityEntity } from '../src/modules/pki/certificate-authority.entity';
import { UserEntity } from '../src/modules/users/user.entity';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * The hot paths' prepared statements, on both databases: several pools on one database (replicas,
 * or two processes on one embedded PGlite, whose connections all share one session) and a
 * transaction's own connection.
 */
describe('prepared statements', () => {
  let database: TestDatabase;
  const sources: DataSource[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      sources.push(
        await new DataSource({
          ...dataSourceOptions(database.url, 3, []),
          entities: [CertificateAuthorityEntity, OrganizationEntity, UserEntity],
        }).initialize(),
      );
    }
  });

  afterAll(async () => {
    for (const source of sources) await source.destroy();
    await database.drop();
  });

  const STATEMENT = 'SELECT $1::int + 1 AS next';

  it('runs one statement text from several pools and from parallel callers of each', async () => {
    const answers = await Promise.all(
      sources.flatMap((source) => Array.from({ length: 10 }, (_, i) => preparedQuery<{ next: number }>(source.manager, STATEMENT, [i]))),
    );
    expect(answers.map(([row]) => row.next)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => i + 1),
      ...Array.from({ length: 10 }, (_, i) => i + 1),
    ]);
  });

  it("runs inside a transaction on the transaction's connection", async () => {
    const [source] = sources;
    const seen = await source.transaction(async (manager) => {
      await manager.query(`CREATE TEMPORARY TABLE prepared_probe (n int) ON COMMIT DROP`);
      await manager.query(`INSERT INTO prepared_probe VALUES (41)`);
      return preparedQuery<{ next: number }>(manager, 'SELECT n + 1 AS next FROM prepared_probe', []);
    });
    expect(seen).toEqual([{ next: 42 }]);
  });

  it('loads an entity by id as findOne does, and null for none', async () => {
    const [source] = sources;
    const [{ id }] = (await source.query(
      `INSERT INTO certificate_authorities (name, subject_dn, key_type, key_size, valid_days, certificate, private_key, serial_number, not_before, not_after)
       VALUES ('probe', 'CN=probe', 'rsa', 2048, 10, 'pem', 'key', '01', now(), now() + interval '10 days') RETURNING id`,
    )) as Array<{ id: number }>;
    const expected = await source.getRepository(CertificateAuthorityEntity).findOne({ where: { id } });
    const loaded = await findEntityById(source.manager, CertificateAuthorityEntity, id);
    expect(loaded).toBeInstanceOf(CertificateAuthorityEntity);
    expect(loaded).toEqual(expected);
    expect(await findEntityById(source.manager, CertificateAuthorityEntity, id + 1000)).toBeNull();
  });
});
