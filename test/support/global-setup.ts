import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { APPLICATION_MIGRATIONS } from '../../src/application-migrations';
import { dataSourceOptions } from '../../src/common/database/data-source-options';
import { runPendingMigrations } from '../../src/common/database/migration-runner';
import { PgliteBroker } from './pglite-broker';
import { databaseUrlWithName } from './test-database';

declare global {
  var __E2E_TEARDOWN__: (() => Promise<void>) | undefined;
}

/**
 * Prepares one migrated template database; each test file then gets a fresh copy of it.
 * With TEST_DATABASE_URL: a template database on that server (copies via CREATE DATABASE … TEMPLATE).
 * Without: an in-memory PGlite template served through {@link PgliteBroker}.
 */
export default async function globalSetup(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `e2e_template_${process.pid}`;
    await withAdminClient(serverUrl, async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS ${template}`);
      await admin.query(`CREATE DATABASE ${template}`);
    });
    await migrate(databaseUrlWithName(serverUrl, template), true);
    process.env.E2E_DB_MODE = 'server';
    process.env.E2E_DB_TEMPLATE = template;
    globalThis.__E2E_TEARDOWN__ = async () => {
      await withAdminClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    };
    return;
  }
  const template = await PGlite.create();
  const socket = new PGLiteSocketServer({ db: template, host: '127.0.0.1', port: 0, maxConnections: 5 });
  await socket.start();
  await migrate(`postgres://postgres@${socket.getServerConn()}/postgres`, false);
  await socket.stop();
  const broker = new PgliteBroker(template);
  process.env.E2E_DB_MODE = 'embedded';
  process.env.E2E_DB_BROKER = await broker.start();
  globalThis.__E2E_TEARDOWN__ = () => broker.stop();
}

async function migrate(url: string, server: boolean): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptions(url, server ? 2 : 1, APPLICATION_MIGRATIONS)).initialize();
  try {
    await runPendingMigrations(dataSource, { lock: server });
  } finally {
    await dataSource.destroy();
  }
}

async function withAdminClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
