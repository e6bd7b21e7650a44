import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { TEST_SECRET_KEY } from './test-app';
import { PROCESS_BOOT_TIMEOUT_MS } from './timing';

export const BUILT_MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');

/** The built server (`node dist/src/main.js`) as a child process, as an operator runs it. */
export class ServerProcess {
  private output = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /**
   * Starts the server (this checkout's build, or another `main`) with only the given variables (plus PATH/HOME and test defaults), so the
   * developer's own DATABASE_URL or .env cannot leak in.
   */
  static spawn(env: Record<string, string>, cwd: string, main = BUILT_MAIN): ServerProcess {
    if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first (npm test does)`);
    const port = Number(env.PORT ?? 0);
    const child = spawn(process.execPath, [main], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'test',
        SECRET_KEY: TEST_SECRET_KEY,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServerProcess(child, port);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  logs(): string {
    return this.output;
  }

  /** Log lines as JSON objects (non-JSON lines, such as configuration errors, are skipped). */
  logEntries(): Array<Record<string, unknown>> {
    return this.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Resolves once GET /health answers 200; rejects if the process exits or the time runs out. */
  async waitUntilHealthy(timeoutMs = PROCESS_BOOT_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (Date.now() < deadline) {
      if (exited) throw new Error(`server exited before becoming healthy:\n${this.output}`);
      try {
        const response = await fetch(`${this.baseUrl}/health`);
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`server not healthy after ${timeoutMs} ms:\n${this.output}`);
  }

  waitForExit(): Promise<number | null> {
    return this.exited;
  }

  /** Sends a signal without waiting for the exit. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    this.child.kill(signal);
    return this.exited;
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The pids of a process's children (Linux: the parent pid field of /proc/<pid>/stat). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // fields after the parenthesised command name: state ppid …
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return children.sort((a, b) => a - b);
}

/** The TCP ports a process listens on (Linux: its socket inodes matched against /proc/net/tcp{,6}). */
export function listeningTcpPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // the descriptor closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // fields: sl local_address rem_address st ... inode; st 0A is LISTEN
      if (fields[3] === '0A' && inodes.has(fields[9])) ports.add(Number.parseInt(fields[1].split(':')[1], 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}
