import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';
import { InvalidConfigurationError } from './env-reader';

describe('SECRET_KEY kept in DATA_DIR when unset', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'pki-secret-key-')), 'data');
  });

  afterEach(() => {
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  function problemsOf(env: Record<string, string>): string[] {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof InvalidConfigurationError) return error.lines();
      throw error;
    }
    return [];
  }

  it('generates the key once into DATA_DIR/secret.key, mode 0600, and reads the same key afterwards', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    const path = join(dataDir, 'secret.key');
    expect(first.secretKeyFile).toEqual({ path, created: true });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8').trim()).toBe(first.secretKey);
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(first.serviceAccountTokenPepper).toBe(first.secretKey);

    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.secretKeyFile).toEqual({ path, created: false });
    expect(second.secretKey).toBe(first.secretKey);
  });

  it('refuses a key file that group or others may read, naming the file and chmod 600', () => {
    loadConfig({ DATA_DIR: dataDir });
    const path = join(dataDir, 'secret.key');
    chmodSync(path, 0o640);
    expect(problemsOf({ DATA_DIR: dataDir })).toEqual([
      `Invalid configuration: SECRET_KEY is unset and its key file ${path} is open to group or others (mode 0640): run chmod 600 ${path}`,
    ]);
  });

  it('refuses a truncated key file instead of signing with it', () => {
    loadConfig({ DATA_DIR: dataDir });
    const path = join(dataDir, 'secret.key');
    writeFileSync(path, 'short\n');
    expect(problemsOf({ DATA_DIR: dataDir })).toEqual([
      `Invalid configuration: SECRET_KEY is unset and its key file ${path} holds fewer than 32 characters: restore it, or set SECRET_KEY`,
    ]);
  });

  it('touches no file when SECRET_KEY is set, and keeps production without SECRET_KEY an error', () => {
    const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(32) });
    expect(config.secretKeyFile).toBeUndefined();
    expect(
      problemsOf({ DATA_DIR: dataDir, NODE_ENV: 'production', PRIVATE_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }),
    ).toEqual(['Invalid configuration: SECRET_KEY is required when NODE_ENV=production (use at least 32 random characters)']);
    expect(() => statSync(join(dataDir, 'secret.key'))).toThrow();
  });
});
