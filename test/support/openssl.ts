import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary folder to run the `openssl` command line in, for checking what the service produced. */
export class OpensslWorkspace {
  readonly dir = mkdtempSync(join(tmpdir(), 'pki-openssl-'));

  write(name: string, content: string | Uint8Array): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    return path;
  }

  /** Runs openssl; returns its exit status and stdout followed by stderr (some verdicts go to stderr). */
  run(...args: string[]): { status: number; output: string } {
    const result = spawnSync('openssl', args, { cwd: this.dir, encoding: 'utf8' });
    if (result.error) throw result.error;
    return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
