import type { DynamicModule, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AddressInfo } from 'node:net';
import { closeApp, createApp } from '../../src/app.factory';
import type { AppModuleOptions } from '../../src/app.module';
import { AppConfig, loadConfig } from '../../src/common/config/app-config';
import { createRootLogger } from '../../src/common/logging/root-logger';
import { LogCapture } from './log-capture';
import { forgetBoot, trackBoot } from './running-apps';
import { createTestDatabase, TestDatabase } from './test-database';

export const TEST_SECRET_KEY = 'e2e-test-secret-key-0123456789abcdef';
export const TEST_PRIVATE_KEY_ENCRYPTION_KEY = Buffer.alloc(32, 0x5a).toString('base64');

export interface TestAppOptions {
  /** Environment variables on top of the test defaults. */
  env?: Record<string, string>;
  /** Override the database URL the app connects to (e.g. through a proxy); a fresh database is still made. */
  databaseUrl?: (freshUrl: string) => string | Promise<string>;
  extraModules?: Array<Type | DynamicModule>;
  /** The available plugins, when a test adds its own (see AppModuleOptions.plugins). */
  plugins?: AppModuleOptions['plugins'];
}

/** The real application on a fresh database, listening on a random loopback port. */
export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  database: TestDatabase;
  logs: LogCapture;
  close(): Promise<void>;
}

/**
 * Boots the app on a fresh database. A boot that fails cleans up what it made; one still under way
 * when its test file ends is awaited and closed then (see ./running-apps). `close` may be called
 * more than once.
 */
export function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const boot: Promise<TestApp> = bootTestApp(options, () => forgetBoot(boot));
  return trackBoot(boot);
}

async function bootTestApp(options: TestAppOptions, closing: () => void): Promise<TestApp> {
  const database = await createTestDatabase();
  let app: NestExpressApplication | undefined;
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      SECRET_KEY: TEST_SECRET_KEY,
      PRIVATE_KEY_ENCRYPTION_KEY: TEST_PRIVATE_KEY_ENCRYPTION_KEY,
      LOG_LEVEL: 'info',
      ...options.env,
    });
    const logs = new LogCapture();
    const logger = createRootLogger(config.logLevel, logs);
    const databaseUrl = options.databaseUrl ? await options.databaseUrl(database.url) : database.url;
    const embedded = process.env.E2E_DB_MODE === 'embedded';
    app = await createApp({
      config,
      logger,
      database: { url: databaseUrl, embedded },
      extraModules: options.extraModules,
      plugins: options.plugins,
    });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const listening = app;
    let closed: Promise<void> | undefined;
    return {
      app,
      config,
      baseUrl: `http://127.0.0.1:${port}`,
      database,
      logs,
      close: () => {
        closing();
        closed ??= closeApp(listening).finally(() => database.drop());
        return closed;
      },
    };
  } catch (error) {
    if (app) await closeApp(app).catch(() => undefined);
    await database.drop().catch(() => undefined);
    throw error;
  }
}
