import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeApp, createApp } from '../app.factory';
import { loadConfig } from '../common/config/app-config';
import { EmbeddedPostgres } from '../common/database/embedded-postgres';
import { createRootLogger } from '../common/logging/root-logger';
import { buildOpenApiDocument } from '../common/openapi/openapi-document';
import { PlatformStatus } from '../platform/platform-status';

/** Where the committed OpenAPI document lives; SDKs are generated from it and a test diffs it. */
const COMMITTED_OPENAPI_PATH = join(__dirname, '..', '..', '..', 'docs', 'openapi.json');
/** The platform API's document (`GET /api/schema/`), generated from the resource declarations. */
const COMMITTED_PLATFORM_OPENAPI_PATH = join(__dirname, '..', '..', '..', 'docs', 'platform-openapi.json');

/**
 * Writes the OpenAPI document of the app with default settings. The app is built for real (route
 * prefixes come from providers, which a preview-mode app does not run) on a throw-away in-memory
 * database.
 */
async function main(): Promise<void> {
  const database = await EmbeddedPostgres.startInMemory();
  try {
    const app = await createApp({
      config: loadConfig({}),
      logger: createRootLogger('silent'),
      database: { url: database.url, embedded: true },
    });
    await app.init();
    writeFileSync(COMMITTED_OPENAPI_PATH, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
    writeFileSync(COMMITTED_PLATFORM_OPENAPI_PATH, `${JSON.stringify(app.get(PlatformStatus).openApiDocument(), null, 2)}\n`);
    await closeApp(app);
  } finally {
    await database.stop();
  }
  process.stdout.write(`wrote ${COMMITTED_OPENAPI_PATH}\n`);
}

void main();
