import { Inject, Injectable } from '@nestjs/common';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { AppConfig } from '../../common/config/app-config';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { PrivateKeyCipher } from './private-key-cipher';

const GENERATED_KEY_FILE = 'private-key-encryption.key';

/**
 * The cipher for private keys at rest, keyed by PRIVATE_KEY_ENCRYPTION_KEY. Outside production an
 * unset key is generated once into DATA_DIR (and reused), loudly: losing that file loses every key.
 */
@Injectable()
export class PrivateKeyVault extends PrivateKeyCipher {
  constructor(config: AppConfig, @Inject(ROOT_LOGGER) logger: Logger) {
    super(config.privateKeyEncryptionKey ?? developmentKey(config, logger), config.privateKeyEncryptionOldKeys);
  }
}

function developmentKey(config: AppConfig, logger: Logger): Buffer {
  const path = join(resolve(config.dataDir), GENERATED_KEY_FILE);
  if (existsSync(path)) {
    logger.warn({ path }, 'PRIVATE_KEY_ENCRYPTION_KEY is not set: using the generated key file');
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  }
  mkdirSync(resolve(config.dataDir), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  logger.warn(
    { path },
    'PRIVATE_KEY_ENCRYPTION_KEY is not set: generated a key file to encrypt private keys. Keep it with the ' +
      'database: without it no stored private key can be used. Set PRIVATE_KEY_ENCRYPTION_KEY in production.',
  );
  return key;
}
