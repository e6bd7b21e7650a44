import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A database of its own for one test file, copied from the migrated template. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export function databaseUrlWithName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const mode = process.env.E2E_DB_MODE;
  if (mode === 'server') return createServerDatabase();
  if (mode === 'embedded') return createEmbeddedDatabase();
  throw new Error('E2E_DB_MODE is not set: end-to-end tests must run through jest with test/support/global-setup.ts');
}

async function createServerDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `e2e_${randomBytes(6).toString('hex')}`;
  await createDatabaseFromTemplate(serverUrl, name, process.env.E2E_DB_TEMPLATE!);
  return {
    url: databaseUrlWithName(serverUrl, name),
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function createEmbeddedDatabase(): Promise<TestDatabase> {
  const broker = process.env.E2E_DB_BROKER!;
  const response = await fetch(`${broker}/databases`, { method: 'POST' });
  if (!response.ok) throw new Error(`database broker answered ${response.status}: ${await response.text()}`);
  const { id, url } = (await response.json()) as { id: string; url: string };
  return {
    url,
    drop: async () => {
      await fetch(`${broker}/databases/${id}`, { method: 'DELETE' });
    },
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Two copies started at the same moment can see each other as "users" of the template; retry then. */
async function createDatabaseFromTemplate(url: string, name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(url, `CREATE DATABASE ${name} TEMPLATE ${template}`);
      return;
    } catch (error) {
      const templateBusy = (error as { code?: string }).code === '55006';
      if (!templateBusy || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
