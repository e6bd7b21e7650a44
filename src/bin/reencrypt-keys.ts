import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { loadEnvironmentOrExit } from '../common/config/load-environment';
import { openDatabaseConnection } from '../common/database/database-connection';
import { createRootLogger, resolveLogFormat } from '../common/logging/root-logger';
import { PrivateKeyReencryption } from '../modules/pki/private-key-reencryption.service';

/**
 * `npm run keys:reencrypt`: re-encrypts every stored private key with PRIVATE_KEY_ENCRYPTION_KEY,
 * reading old ciphertexts with PRIVATE_KEY_ENCRYPTION_OLD_KEYS. Run it with the server stopped or
 * while it runs; rows are rewritten in one transaction.
 */
async function main(): Promise<void> {
  const config = loadEnvironmentOrExit();
  const logger = createRootLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, undefined, resolveLogFormat(config.logFormat));
  const database = await openDatabaseConnection(config, logger);
  try {
    const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, logger, database }), { logger: false });
    try {
      const report = await app.get(PrivateKeyReencryption).run();
      process.stdout.write(`re-encrypted ${report.cas} CA key(s) and ${report.certificates} certificate key(s)\n`);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`re-encryption failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
