import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OpensslResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr together; OpenSSL reports some verdicts (e.g. `verify OK`) on stderr. */
  readonly output: string;
}

/**
 * A temporary directory for checking the engine's output with the `openssl` command-line tool,
 * the independent judge of every certificate, CSR and CRL the tests produce.
 */
export class OpensslWorkspace {
  readonly directory = mkdtempSync(join(tmpdir(), 'x509-spec-'));
  private runs = 0;

  /** Writes a file into the workspace and returns its path. */
  write(name: string, content: string | Uint8Array): string {
    const path = this.path(name);
    writeFileSync(path, content);
    return path;
  }

  read(name: string): string {
    return readFileSync(this.path(name), 'utf8');
  }

  path(name: string): string {
    return join(this.directory, name);
  }

  /** Runs openssl with the workspace as working directory; never throws on a non-zero exit. */
  run(args: readonly string[]): OpensslResult {
    const stderrPath = this.path(`.stderr-${this.runs++}`);
    const stderrFd = openSync(stderrPath, 'w');
    let status = 0;
    let stdout: string;
    try {
      stdout = execFileSync('openssl', args, { cwd: this.directory, encoding: 'utf8', stdio: ['ignore', 'pipe', stderrFd] });
    } catch (error) {
      const failure = error as { status?: number | null; stdout?: string };
      status = failure.status ?? -1;
      stdout = failure.stdout ?? '';
    } finally {
      closeSync(stderrFd);
    }
    const stderr = readFileSync(stderrPath, 'utf8');
    return { status, stdout, stderr, output: stdout + stderr };
  }

  /** Runs openssl and returns stdout, failing the test with OpenSSL's own message on a non-zero exit. */
  ok(args: readonly string[]): string {
    const result = this.run(args);
    if (result.status !== 0) {
      throw new Error(`openssl ${args.join(' ')} exited with ${result.status}:\n${result.output}`);
    }
    return result.stdout;
  }

  /** `openssl x509 -noout -text` of a PEM certificate. */
  certificateText(pem: string): string {
    return this.ok(['x509', '-noout', '-text', '-in', this.write(`text-${this.runs}.pem`, pem)]);
  }

  dispose(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/** A serial number as OpenSSL prints it: uppercase hex padded to whole octets. */
export function opensslSerial(serialHex: string): string {
  const upper = serialHex.toUpperCase();
  return upper.length % 2 === 0 ? upper : `0${upper}`;
}

/** A key identifier as `openssl … -text` prints it: colon-separated uppercase octets. */
export function opensslKeyId(hex: string): string {
  return hex.toUpperCase().match(/../g)!.join(':');
}
