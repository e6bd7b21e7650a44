import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock, DataDirLockedError } from './data-dir-lock';

describe('DataDirLock', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lock-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the directory and a lock file naming this process, removed on release', () => {
    const dataDir = join(dir, 'nested', 'data');
    const lock = DataDirLock.acquire(dataDir);
    const file = join(dataDir, 'server.lock');
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a directory locked by another live process', () => {
    writeFileSync(join(dir, 'server.lock'), `${process.ppid}\n`);
    expect(() => DataDirLock.acquire(dir)).toThrow(DataDirLockedError);
    expect(readFileSync(join(dir, 'server.lock'), 'utf8').trim()).toBe(String(process.ppid));
  });

  it('takes over a lock left by a process that no longer exists', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(dir, 'server.lock'), `${gone}\n`);
    const lock = DataDirLock.acquire(dir);
    expect(readFileSync(join(dir, 'server.lock'), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('takes over an unreadable lock file', () => {
    writeFileSync(join(dir, 'server.lock'), 'garbage');
    DataDirLock.acquire(dir).release();
  });
});
