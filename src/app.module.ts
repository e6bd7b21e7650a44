import { DynamicModule, Module, Type } from '@nestjs/common';
import { Logger } from 'pino';
import { AppConfig } from './common/config/app-config';
import { AppConfigModule } from './common/config/config.module';
import { DatabaseModule } from './common/database/database.module';
import { LoggingModule } from './common/logging/logging.module';
import { HealthModule } from './health/health.module';

export interface AppModuleOptions {
  config: AppConfig;
  logger: Logger;
  /** The PostgreSQL server to use: DATABASE_URL, or the embedded server's address. */
  databaseUrl: string;
  /** Extra modules mounted beside the application's (used by tests to probe the global pipeline). */
  extraModules?: Array<Type | DynamicModule>;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const { config, logger } = options;
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule.forRoot(logger),
        DatabaseModule.forRoot({
          url: options.databaseUrl,
          poolSize: config.databasePoolSize,
          migrateOnStart: config.migrateOnStart,
          logger,
        }),
        HealthModule,
        ...(options.extraModules ?? []),
      ],
    };
  }
}
