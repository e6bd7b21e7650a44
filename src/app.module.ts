import { DynamicModule, Module, Type } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { Logger } from 'pino';
import { APPLICATION_MIGRATIONS } from './application-migrations';
import { AccessControlModule } from './common/auth/access-control.module';
import { CREDENTIALS_CHANNEL } from './common/auth/credential-cache';
import { AppConfig } from './common/config/app-config';
import { AppConfigModule } from './common/config/config.module';
import type { DatabaseConnection } from './common/database/database-connection';
import { DatabaseModule } from './common/database/database.module';
import { RouteIndexModule } from './common/http/route-index';
import { MetricsModule } from './common/metrics/metrics.module';
import { JobsModule } from './common/jobs/jobs.module';
import { LoggingModule } from './common/logging/logging.module';
import { DeviceEnrollmentModule } from './device-enrollment/device-enrollment.module';
import { HealthModule } from './health/health.module';
import { AcmeApiModule, AcmeModule } from './modules/acme/acme.module';
import { AuditModule } from './modules/audit/audit.module';
import { AuthModule } from './modules/auth/auth.module';
import { EstModule } from './modules/est/est.module';
import { OrgsModule } from './modules/orgs/orgs.module';
import { PkiModule } from './modules/pki/pki.module';
import { PublicPkiModule } from './modules/pki/public-pki.module';
import { ServiceAccountsModule } from './modules/service-accounts/service-accounts.module';
import { UsersModule } from './modules/users/users.module';
import { PlatformGraphqlModule } from './platform/graphql/platform-graphql.module';
import { PlatformModule } from './platform/platform.module';
import type { PluginDefinition } from './platform/plugins/plugin-declaration';
import { PluginSet } from './platform/plugins/plugin-set';
import { AVAILABLE_PLUGINS } from './plugins';
import './plugin-configuration-check';

/** Modules whose controllers are served under API_V1_STR. */
const API_V1_MODULES = [AuthModule, UsersModule, OrgsModule, AuditModule, PkiModule, ServiceAccountsModule, AcmeApiModule];

export interface AppModuleOptions {
  config: AppConfig;
  logger: Logger;
  /** The PostgreSQL to use: DATABASE_URL, or the embedded server (see DatabaseConnection). */
  database: Pick<DatabaseConnection, 'url' | 'embedded'>;
  /** Extra modules mounted beside the application's (used by tests to probe the global pipeline). */
  extraModules?: Array<Type | DynamicModule>;
  /** The available plugins (default: the repository's list); tests add probe plugins here. Their tables must already exist. */
  plugins?: readonly PluginDefinition[];
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
          url: options.database.url,
          // PGlite's socket server interleaves the protocol messages of concurrent connections: one connection.
          poolSize: options.database.embedded ? 1 : config.databasePoolSize,
          migrationLock: !options.database.embedded,
          migrateOnStart: config.migrateOnStart,
          timeouts: config.databaseTimeouts,
          migrations: APPLICATION_MIGRATIONS,
          notificationChannels: [CREDENTIALS_CHANNEL],
          logger,
        }),
        AccessControlModule,
        JobsModule,
        HealthModule,
        MetricsModule,
        RouteIndexModule,
        ...API_V1_MODULES,
        PublicPkiModule,
        EstModule,
        AcmeModule,
        PlatformModule.forRoot(PluginSet.select(options.plugins ?? AVAILABLE_PLUGINS, config)),
        PlatformGraphqlModule.forRoot(),
        DeviceEnrollmentModule,
        RouterModule.register([{ path: config.apiV1Str, children: API_V1_MODULES }]),
        ...(options.extraModules ?? []),
      ],
    };
  }
}
