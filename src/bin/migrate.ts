import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AVAILABLE_PLUGINS } from '../plugins';
import { AppModule } from '../app.module';
import { APPLICATION_MIGRATIONS } from '../application-migrations';
import { AppConfig } from '../common/config/app-config';
import { loadEnvironmentOrExit } from '../common/config/load-environment';
import { DatabaseConnection, openDatabaseConnection } from '../common/database/database-connection';
import { dataSourceOptions } from '../common/database/data-source-options';
import { runPendingMigrations } from '../common/database/migration-runner';
import { createRootLogger, resolveLogFormat } from '../common/logging/root-logger';

const USAGE = 'usage: migrate run | revert | show | generate <PascalCaseName> [--plugin <name>]';
/** Source folder of the platform's migrations (this file runs from dist/src/bin). */
const MIGRATIONS_DIR = join(__dirname, '..', '..', '..', 'migrations');
/** Source folder of a plugin's migrations. */
const pluginMigrationsDir = (plugin: string) => join(__dirname, '..', '..', '..', 'src', 'plugins', plugin, 'migrations');

/**
 * `npm run migration:<command>`: applies, reverts, lists or generates migrations on the database
 * the server would use (DATABASE_URL, or the embedded one under DATA_DIR).
 */
async function main(): Promise<void> {
  const [command, name, option, plugin] = process.argv.slice(2);
  const config = loadEnvironmentOrExit();
  const logger = createRootLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, undefined, resolveLogFormat(config.logFormat));
  const database = await openDatabaseConnection(config, logger);
  try {
    switch (command) {
      case 'run':
        await withDataSource(database, config, async (dataSource) => {
          const applied = await runPendingMigrations(dataSource, { lock: !database.embedded });
          print(applied.length ? applied.map((migration) => `applied ${migration}`) : ['no pending migrations']);
        });
        break;
      case 'revert':
        await withDataSource(database, config, (dataSource) => dataSource.undoLastMigration({ transaction: 'each' }));
        break;
      case 'show':
        await withDataSource(database, config, async (dataSource) => print(await migrationStatus(dataSource)));
        break;
      case 'generate': {
        if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new UsageError(USAGE);
        if (option !== undefined && (option !== '--plugin' || !AVAILABLE_PLUGINS.some((available) => available.name === plugin))) {
          throw new UsageError(
            `${USAGE}\n--plugin takes an available plugin: ${AVAILABLE_PLUGINS.map((available) => available.name).join(', ')}`,
          );
        }
        print([await generateMigration(database, config, name, plugin === undefined ? MIGRATIONS_DIR : pluginMigrationsDir(plugin))]);
        break;
      }
      default:
        throw new UsageError(USAGE);
    }
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

async function withDataSource(
  database: DatabaseConnection,
  config: AppConfig,
  work: (dataSource: DataSource) => Promise<unknown>,
): Promise<void> {
  const poolSize = database.embedded ? 1 : config.databasePoolSize;
  const dataSource = await new DataSource(dataSourceOptions(database.url, poolSize, APPLICATION_MIGRATIONS)).initialize();
  try {
    await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

async function migrationStatus(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query('SELECT name FROM migrations ORDER BY id').catch(() => [])) as Array<{ name: string }>;
  const applied = new Set(rows.map((row) => row.name));
  const lines = APPLICATION_MIGRATIONS.map((migration) => `${applied.has(migration.name) ? '[X]' : '[ ]'} ${migration.name}`);
  return lines.length ? lines : ['no migrations defined'];
}

/**
 * Diffs the entities of the whole application against the migrated database and writes the
 * difference as a new migration into `directory` (migrations/, or a plugin's migrations folder),
 * registered in that folder's index.ts.
 */
async function generateMigration(database: DatabaseConnection, config: AppConfig, name: string, directory: string): Promise<string> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, logger: createRootLogger('warn'), database }), {
    logger: false,
    abortOnError: false,
  });
  try {
    const sql = await app.get(DataSource).driver.createSchemaBuilder().log();
    if (sql.upQueries.length === 0) return 'entities match the schema: no migration written';
    const timestamp = Date.now();
    const className = `${name}${timestamp}`;
    const statements = (queries: typeof sql.upQueries) =>
      queries
        .map((query) => `    await queryRunner.query(\`${query.query.replace(/[`\\]/g, '\\$&').replace(/\$\{/g, '\\${')}\`);`)
        .join('\n');
    const file = `${timestamp}-${name}.ts`;
    writeFileSync(
      join(directory, file),
      `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${statements(sql.upQueries)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${statements([...sql.downQueries].reverse())}
  }
}
`,
    );
    registerInIndex(directory, className, file);
    return `wrote ${join(directory, file)}; review it, then run npm run migration:run`;
  } finally {
    await app.close();
  }
}

function registerInIndex(directory: string, className: string, file: string): void {
  const indexPath = join(directory, 'index.ts');
  const source = readFileSync(indexPath, 'utf8');
  const withImport = `import { ${className} } from './${file.slice(0, -3)}';\n${source}`;
  const withEntry = withImport.replace(/= \[([\s\S]*?)\];/, (_match, entries: string) => {
    const list = entries.trim() ? `${entries.trim().replace(/,$/, '')}, ${className}` : className;
    return `= [${list}];`;
  });
  writeFileSync(indexPath, withEntry);
}

function print(lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof UsageError ? error.message : `migration failed: ${String(error)}`}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
