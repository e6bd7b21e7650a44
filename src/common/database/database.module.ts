import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Client } from 'pg';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DatabaseNotifications } from './database-notifications';
import type { DatabaseTimeouts } from '../config/app-config';
import { dataSourceOptions, MigrationClass } from './data-source-options';
import { runPendingMigrations } from './migration-runner';

export interface DatabaseModuleOptions {
  url: string;
  poolSize: number;
  migrateOnStart: boolean;
  /** Take the advisory lock while migrating (pointless, and a second connection, on embedded PGlite). */
  migrationLock: boolean;
  timeouts: DatabaseTimeouts;
  /** Every migration of the application, the plugins' included (its entry point assembles the list). */
  migrations: readonly MigrationClass[];
  /** Channels every pool connection LISTENs on (see DatabaseNotifications). */
  notificationChannels: readonly string[];
  logger: Logger;
}

/**
 * The TypeORM connection; pending migrations are applied before any other module can query, on a
 * connection of their own that has none of the request timeouts. Also the process's
 * {@link DatabaseNotifications}, which every pool connection delivers to.
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    const notifications = new DatabaseNotifications(options.url, options.notificationChannels, options.logger);
    return {
      module: DatabaseModule,
      global: true,
      providers: [{ provide: DatabaseNotifications, useValue: notifications }],
      exports: [DatabaseNotifications],
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => {
            const base = dataSourceOptions(options.url, options.poolSize, options.migrations, options.timeouts);
            return {
              ...base,
              extra: { ...base.extra, onConnect: (client: Client) => notifications.attachPoolClient(client) },
              autoLoadEntities: true,
              retryAttempts: 3,
              retryDelay: 2000,
            };
          },
          dataSourceFactory: async (typeOrmOptions) => {
            if (options.migrateOnStart) await migrate(options);
            return new DataSource(typeOrmOptions!).initialize();
          },
        }),
      ],
    };
  }
}

async function migrate(options: DatabaseModuleOptions): Promise<void> {
  // The advisory lock holds a connection of its own while the migrations run on another.
  const dataSource = await new DataSource(dataSourceOptions(options.url, options.migrationLock ? 2 : 1, options.migrations)).initialize();
  try {
    const applied = await runPendingMigrations(dataSource, { lock: options.migrationLock });
    if (applied.length > 0) options.logger.info({ migrations: applied }, 'database migrations applied');
  } finally {
    await dataSource.destroy();
  }
}
