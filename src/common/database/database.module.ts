import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { runPendingMigrations } from './migration-runner';

export interface DatabaseModuleOptions {
  url: string;
  poolSize: number;
  migrateOnStart: boolean;
  /** Take the advisory lock while migrating (pointless, and a second connection, on embedded PGlite). */
  migrationLock: boolean;
  logger: Logger;
}

/** The TypeORM connection; pending migrations are applied before any other module can query. */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(options.url, options.poolSize),
            autoLoadEntities: true,
            retryAttempts: 3,
            retryDelay: 2000,
          }),
          dataSourceFactory: async (typeOrmOptions) => {
            const dataSource = await new DataSource(typeOrmOptions!).initialize();
            if (options.migrateOnStart) {
              const applied = await runPendingMigrations(dataSource, { lock: options.migrationLock });
              if (applied.length > 0) options.logger.info({ migrations: applied }, 'database migrations applied');
            }
            return dataSource;
          },
        }),
      ],
    };
  }
}
