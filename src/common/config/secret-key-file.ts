import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SECRET_KEY_FILE_NAME = 'secret.key';
const MIN_KEY_LENGTH = 32;

/** The key kept in DATA_DIR for a process started without SECRET_KEY. */
export interface StoredSecretKey {
  key: string;
  path: string;
  /** True when this call wrote the file. */
  created: boolean;
}

/** Why the key file cannot be used; the message completes the configuration line "SECRET_KEY …". */
export class SecretKeyFileError extends Error {}

/**
 * Reads `<DATA_DIR>/secret.key`, or creates it (mode 0600) on first start, so that tokens signed or
 * digested under SECRET_KEY survive a restart and every process of one DATA_DIR agrees. A file that
 * group or others may read is refused: it signs every session and keys every API token digest.
 */
export function readOrCreateSecretKeyFile(dataDir: string): StoredSecretKey {
  const path = join(resolve(dataDir), SECRET_KEY_FILE_NAME);
  const existing = readKeyFile(path);
  if (existing !== undefined) return { key: existing, path, created: false };
  const key = randomBytes(48).toString('base64url');
  const draft = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(resolve(dataDir), { recursive: true });
    writeFileSync(draft, `${key}\n`, { mode: 0o600 });
  } catch (error) {
    throw new SecretKeyFileError(
      `is unset and its key file ${path} cannot be written (${(error as Error).message}); set SECRET_KEY or fix DATA_DIR`,
    );
  }
  try {
    // Publishing by hard link is atomic and fails if another process published first: then its key wins.
    linkSync(draft, path);
    return { key, path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: readKeyFile(path)!, path, created: false };
  } finally {
    unlinkSync(draft);
  }
}

function readKeyFile(path: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SecretKeyFileError(`is unset and its key file ${path} cannot be read (${(error as Error).message})`);
  }
  if ((mode & 0o077) !== 0) {
    throw new SecretKeyFileError(
      `is unset and its key file ${path} is open to group or others (mode ${(mode & 0o777).toString(8).padStart(4, '0')}): run chmod 600 ${path}`,
    );
  }
  const key = readFileSync(path, 'utf8').trim();
  if (key.length < MIN_KEY_LENGTH) {
    throw new SecretKeyFileError(
      `is unset and its key file ${path} holds fewer than ${MIN_KEY_LENGTH} characters: restore it, or set SECRET_KEY`,
    );
  }
  return key;
}
