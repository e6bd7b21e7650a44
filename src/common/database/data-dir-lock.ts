import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(`data directory ${dataDir} is in use by another process (pid ${holderPid}); stop it or choose another DATA_DIR`);
    this.name = 'DataDirLockedError';
  }
}

/**
 * An exclusive lock on a data directory, held as a file naming the owning pid. PGlite itself takes
 * no lock, and two processes writing one directory corrupt it. A lock left by a process that no
 * longer exists is taken over.
 */
export class DataDirLock {
  private constructor(private readonly path: string) {}

  static acquire(dataDir: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, 'server.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return new DataDirLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = readHolder(path);
        if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
          throw new DataDirLockedError(dataDir, holder);
        }
        unlinkSync(path);
      }
    }
    throw new Error(`could not take the lock ${path}`);
  }

  release(): void {
    if (readHolder(this.path) === process.pid) unlinkSync(this.path);
  }
}

function readHolder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
