import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, createBootstrapSuperuser, Fixture } from './api-client';
import { startTestApp, TestApp } from './test-app';

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

  /** As {@link run}, without blocking the event loop: for openssl commands that talk to the in-process test app. */
  runAsync(...args: string[]): Promise<{ status: number; output: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn('openssl', args, { cwd: this.dir });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.on('error', reject);
      child.on('close', (code) =>
        resolve({ status: code ?? -1, output: `${Buffer.concat(stdout).toString()}${Buffer.concat(stderr).toString()}` }),
      );
    });
  }

  /** Runs a bash pipeline (`pipefail`) in the folder without blocking the event loop: for curl and openssl talking to the in-process app. */
  shell(script: string): Promise<{ status: number; output: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-o', 'pipefail', '-c', script], { cwd: this.dir });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ status: code ?? -1, output: Buffer.concat(chunks).toString() }));
    });
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A test app with a bootstrap superuser and an openssl workspace: the start of every suite that checks issued PKI objects with openssl. */
export interface OpensslPki {
  testApp: TestApp;
  api: ApiClient;
  root: Fixture;
  ssl: OpensslWorkspace;
  createCa(body: object): Promise<any>;
  issue(caId: number, body: object): Promise<any>;
  close(): Promise<void>;
}

export async function startOpensslPki(env: Record<string, string> = {}): Promise<OpensslPki> {
  const testApp = await startTestApp({ env: { CA_KEY_SIZE: '2048', PUBLIC_BASE_URL: 'http://pki.test', ...env } });
  const api = new ApiClient(testApp.baseUrl);
  const root = await createBootstrapSuperuser(api);
  const ssl = new OpensslWorkspace();
  const created = async (path: string, body: object): Promise<any> => {
    const response = await api.post(path, body, root.token);
    expect(response.status).toBe(201);
    return response.body;
  };
  return {
    testApp,
    api,
    root,
    ssl,
    createCa: (body) => created('/cas/', body),
    issue: (caId, body) => created(`/certificates/?ca_id=${caId}`, body),
    close: async () => {
      ssl.dispose();
      await testApp.close();
    },
  };
}
