import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from '../app.module';
import { loadConfig } from '../common/config/app-config';
import { createRootLogger } from '../common/logging/root-logger';
import { buildOpenApiDocument } from '../common/openapi/openapi-document';

/** Where the committed OpenAPI document lives; SDKs are generated from it and a test diffs it. */
export const COMMITTED_OPENAPI_PATH = join(__dirname, '..', '..', '..', 'docs', 'openapi.json');

/**
 * Writes the OpenAPI document with default settings. Preview mode wires the modules without
 * instantiating providers, so no database is needed.
 */
async function main(): Promise<void> {
  const config = loadConfig({});
  const app = await NestFactory.create(
    AppModule.forRoot({ config, logger: createRootLogger('silent'), databaseUrl: 'postgres://unused@127.0.0.1:1/unused' }),
    { preview: true, logger: false },
  );
  const document = buildOpenApiDocument(app);
  writeFileSync(COMMITTED_OPENAPI_PATH, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
  process.stdout.write(`wrote ${COMMITTED_OPENAPI_PATH}\n`);
}

void main();
