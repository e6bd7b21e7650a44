import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from './support/test-app';

describe('database schema', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('is exactly what the entities declare once the migrations have run (nothing for migration:generate to add)', async () => {
    const sql = await testApp.app.get(DataSource).driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('reverts every migration and applies them again cleanly', async () => {
    const dataSource = testApp.app.get(DataSource);
    const count = dataSource.migrations.length;
    for (let i = 0; i < count; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    const tables = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
    );
    expect(tables).toEqual([]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    expect(applied).toHaveLength(count);
  });
});
