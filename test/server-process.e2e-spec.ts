import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection, Socket } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { ApiClient, createBootstrapSuperuser, PASSWORD } from './support/api-client';
import { Agent, request as httpRequest } from 'node:http';
import { childPids, freePort, listeningTcpPorts, ServerProcess } from './support/server-process';
import { createTestDatabase } from './support/test-database';
import { PROCESS_BOOT_TIMEOUT_MS, PROCESS_TEST_TIMEOUT_MS } from './support/timing';

// Each test boots server processes itself; a loaded machine makes each boot many times slower.
jest.setTimeout(PROCESS_TEST_TIMEOUT_MS);

/** The built server as an operator runs it: `node dist/src/main.js`, configured by environment. */
describe('server process', () => {
  let workDir: string;

  beforeEach(() => {
    workDir = mkdtempSync(join(tmpdir(), 'pki-server-'));
  });

  afterEach(() => {
    rmSync(workDir, { recursive: true, force: true });
  });

  it('exits 1 with one line naming PORT when PORT is invalid', async () => {
    const server = ServerProcess.spawn({ PORT: 'abc' }, workDir);
    expect(await server.waitForExit()).toBe(1);
    const lines = server.logs().trim().split('\n');
    expect(lines).toEqual(['Invalid configuration: PORT must be an integer from 1 to 65535 (got "abc")']);
  });

  it('refuses to start in production without SECRET_KEY', async () => {
    const server = ServerProcess.spawn({ NODE_ENV: 'production', SECRET_KEY: '' }, workDir);
    expect(await server.waitForExit()).toBe(1);
    expect(server.logs().trim()).toMatch(/^Invalid configuration: SECRET_KEY is required when NODE_ENV=production/);
  });

  it('names every bad variable, one line each, and never echoes a database URL', async () => {
    const server = ServerProcess.spawn({ PORT: '70000', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://user:hunter2@db/x' }, workDir);
    expect(await server.waitForExit()).toBe(1);
    const lines = server.logs().trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((line) => line.split(' ')[2])).toEqual(['PORT', 'DATABASE_URL', 'LOG_LEVEL']);
    expect(server.logs()).not.toContain('hunter2');
  });

  it('runs on an embedded database that survives a restart, locked to one process', async () => {
    const dataDir = join(workDir, 'data');
    const env = { PORT: String(await freePort()), DATA_DIR: dataDir, SECRET_KEY: '', NODE_ENV: 'development' };
    const first = ServerProcess.spawn(env, workDir);
    await first.waitUntilHealthy();
    expect(first.logEntries().some((entry) => entry.level === 'warn' && /SECRET_KEY is not set/.test(String(entry.msg)))).toBe(true);

    await withEmbeddedClient(first, async (client) => {
      await client.query('CREATE TABLE survival (note text)');
      await client.query("INSERT INTO survival VALUES ('written before restart')");
    });

    const intruder = ServerProcess.spawn({ ...env, PORT: String(await freePort()) }, workDir);
    expect(await intruder.waitForExit()).toBe(1);
    expect(intruder.logs()).toMatch(/data directory .* is in use by another process/);

    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.logEntries().map((entry) => entry.msg)).toContain('shutdown complete');

    const second = ServerProcess.spawn(env, workDir);
    try {
      await second.waitUntilHealthy();
      await withEmbeddedClient(second, async (client) => {
        const { rows } = await client.query('SELECT note FROM survival');
        expect(rows).toEqual([{ note: 'written before restart' }]);
      });
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
  });

  it('without SECRET_KEY, keeps the key in DATA_DIR so platform and service-account tokens survive a restart; says in one line where it is', async () => {
    const dataDir = join(workDir, 'data');
    const env = { PORT: String(await freePort()), DATA_DIR: dataDir, SECRET_KEY: '', NODE_ENV: 'development' };
    const first = ServerProcess.spawn(env, workDir);
    let platformToken: string;
    let serviceAccountToken: string;
    try {
      await first.waitUntilHealthy();
      const api = new ApiClient(first.baseUrl);
      const root = await createBootstrapSuperuser(api);
      const provisioned = await api.request('POST', '/api/users/tokens/provision/', { json: { username: 'root', password: PASSWORD } });
      expect(provisioned.status).toBe(201);
      platformToken = provisioned.body.key;
      const organization = await api.post('/organizations/', { name: 'Restart Org' }, root.token);
      expect(organization.status).toBe(201);
      const account = await api.post('/service-accounts/', { name: 'restart-robot', organization_id: organization.body.id }, root.token);
      expect(account.status).toBe(201);
      const minted = await api.post(`/service-accounts/${account.body.id}/tokens`, { name: 'restart-probe' }, root.token);
      expect(minted.status).toBe(201);
      serviceAccountToken = minted.body.token;
    } finally {
      expect(await first.stop('SIGTERM')).toBe(0);
    }
    const second = ServerProcess.spawn(env, workDir);
    try {
      await second.waitUntilHealthy();
      const api = new ApiClient(second.baseUrl);
      const sites = await api.request('GET', '/api/dcim/sites/', { headers: { authorization: `Token ${platformToken}` } });
      expect(sites.status).toBe(200);
      expect((await api.get('/cas/', serviceAccountToken)).status).toBe(200);
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
    const keyFile = join(dataDir, 'secret.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    // The start-up speaks in a few lines, the last saying where the server is and how to create the first user.
    const firstStart = first
      .logEntries()
      .slice(0, first.logEntries().findIndex((entry) => String(entry.msg).startsWith('server listening')) + 1);
    expect(firstStart.length).toBeLessThan(10);
    expect(firstStart[firstStart.length - 1]).toMatchObject({
      level: 'info',
      url: `http://localhost:${env.PORT}`,
      docs_url: `http://localhost:${env.PORT}/docs`,
      msg: expect.stringContaining(
        `no users yet: anyone who reaches the port can create the first, any role, with POST http://localhost:${env.PORT}/api/v1/users/`,
      ),
    });
    const secondReady = second.logEntries().find((entry) => String(entry.msg).startsWith('server listening'));
    expect(secondReady?.msg).toBe(`server listening on http://localhost:${env.PORT}, API docs at http://localhost:${env.PORT}/docs`);
    expect(first.logEntries().find((entry) => /SECRET_KEY is not set/.test(String(entry.msg)))).toMatchObject({
      level: 'warn',
      path: keyFile,
    });
  });

  it('refuses to start when the DATA_DIR key file is readable by group, naming the file and chmod 600', async () => {
    const dataDir = join(workDir, 'data');
    mkdirSync(dataDir);
    const keyFile = join(dataDir, 'secret.key');
    writeFileSync(keyFile, `${'k'.repeat(64)}\n`, { mode: 0o640 });
    chmodSync(keyFile, 0o640);
    const server = ServerProcess.spawn(
      { PORT: String(await freePort()), DATA_DIR: dataDir, SECRET_KEY: '', NODE_ENV: 'development' },
      workDir,
    );
    const exited = await Promise.race([
      server.waitForExit(),
      new Promise((resolve) => setTimeout(() => resolve('still running'), PROCESS_BOOT_TIMEOUT_MS)),
    ]);
    if (exited === 'still running') await server.stop('SIGKILL');
    expect(exited).toBe(1);
    expect(server.logs().trim().split('\n')).toEqual([
      `Invalid configuration: SECRET_KEY is unset and its key file ${keyFile} is open to group or others (mode 0640): run chmod 600 ${keyFile}`,
    ]);
  });

  it('serves the embedded database only on a Unix socket in a 0700 directory under DATA_DIR, its files owner-only', async () => {
    const dataDir = join(workDir, 'data');
    const port = await freePort();
    const server = ServerProcess.spawn({ PORT: String(port), DATA_DIR: dataDir }, workDir);
    try {
      await server.waitUntilHealthy();
      expect(listeningTcpPorts(server.pid)).toEqual([port]);
      const socketDir = join(dataDir, 'run');
      expect(statSync(socketDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dataDir, 'pglite')).mode & 0o777).toBe(0o700);
      expect(readdirSync(socketDir)).toEqual(['.s.PGSQL.5432']);
      expect(statSync(join(socketDir, '.s.PGSQL.5432')).isSocket()).toBe(true);
      const api = new ApiClient(server.baseUrl);
      const root = await createBootstrapSuperuser(api);
      expect((await api.get('/users/me', root.token)).body).toMatchObject({ username: 'root' });
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
  });

  it.each([
    ['one process', 1],
    ['a primary and two workers', 2],
  ])(
    'on SIGTERM (%s) refuses new connections, lets an in-flight request finish past 10 s, then exits 0',
    async (_, processes) => {
      // One process runs on the PostgreSQL server or on the embedded one (closed last at shutdown);
      // a cluster needs a database server (a PGlite clone behind a socket in embedded test runs).
      const clustered = processes > 1;
      const database = clustered || process.env.E2E_DB_MODE === 'server' ? await createTestDatabase() : undefined;
      const port = await freePort();
      const databaseEnv: Record<string, string> = database ? { DATABASE_URL: database.url } : { DATA_DIR: join(workDir, 'data') };
      const server = ServerProcess.spawn(
        { PORT: String(port), ...databaseEnv, WEB_CONCURRENCY: String(processes), SHUTDOWN_GRACE_SECONDS: '25', CA_KEY_SIZE: '2048' },
        workDir,
      );
      try {
        await server.waitUntilHealthy();
        await waitFor(() => listeningWorkers(server).length === (clustered ? processes : 1));
        const root = await createBootstrapSuperuser(new ApiClient(server.baseUrl));
        const body = JSON.stringify({ name: 'Slow Root', subject_dn: 'CN=Slow Root' });
        const inFlight = await RawRequest.open(
          port,
          'POST',
          '/api/v1/cas/',
          { authorization: `Bearer ${root.token}`, 'content-type': 'application/json' },
          body.length,
        );
        inFlight.write(body.slice(0, 10));
        await sleep(300);
        const signalled = Date.now();
        server.signal('SIGTERM');
        await sleep(1000);
        await expect(fetch(`${server.baseUrl}/health/live`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
        await sleep(11_000 - (Date.now() - signalled));
        inFlight.write(body.slice(10));
        const response = await inFlight.response();
        expect(response.status).toBe(201);
        expect(JSON.parse(response.body)).toMatchObject({ name: 'Slow Root' });
        expect(await server.waitForExit()).toBe(0);
        const completions = server.logEntries().filter((entry) => entry.msg === 'shutdown complete');
        // Every worker drained and exited 0, then the primary (worker 0).
        expect(completions.map((entry) => entry.worker).sort()).toEqual(clustered ? [...listeningWorkers(server), 0].sort() : [undefined]);
      } finally {
        await server.stop('SIGKILL');
        await database?.drop();
      }
    },
    90_000,
  );

  it('with WEB_CONCURRENCY=2 shares the port between two workers, each naming itself in its logs, and replaces one that dies', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const server = ServerProcess.spawn({ PORT: String(port), DATABASE_URL: database.url, WEB_CONCURRENCY: '2' }, workDir);
    try {
      await server.waitUntilHealthy();
      await waitFor(() => listeningWorkers(server).length === 2);
      expect(listeningWorkers(server)).toEqual([1, 2]);
      // The primary holds the listening socket and hands each connection to a worker.
      expect(listeningTcpPorts(server.pid)).toEqual([port]);
      const workers = childPids(server.pid);
      expect(workers).toHaveLength(2);
      expect(await workersAnswering(server, 8)).toEqual([1, 2]);
      // A keep-alive connection is closed after 1000 requests, so long-lived clients spread over the workers.
      expect(await requestsUntilClosed(port)).toBe(1000);
      // Only the first worker migrated: the others start with MIGRATE_ON_START=false.
      expect(server.logEntries().filter((entry) => /migrations/.test(String(entry.msg)) && entry.worker === 2)).toEqual([]);

      process.kill(workers[0], 'SIGKILL');
      await waitFor(() => listeningWorkers(server).length === 3);
      expect(server.logEntries().find((entry) => entry.msg === 'server process exited unexpectedly; replacing it')).toMatchObject({
        level: 'error',
        worker: 0,
        pid: workers[0],
        signal: 'SIGKILL',
      });
      const replaced = childPids(server.pid);
      expect(replaced).toHaveLength(2);
      expect(replaced).not.toContain(workers[0]);
      expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
      await database.drop();
    }
  });

  it('exits 1 with the worker’s reason when the first worker cannot start, and starts no other', async () => {
    const unreachable = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    const server = ServerProcess.spawn({ PORT: String(await freePort()), DATABASE_URL: unreachable, WEB_CONCURRENCY: '2' }, workDir);
    expect(await server.waitForExit()).toBe(1);
    const entries = server.logEntries();
    const failed = entries.find((entry) => entry.msg === 'server failed to start');
    expect(failed).toMatchObject({ level: 'fatal', worker: 1 });
    expect(JSON.stringify(failed)).toContain('ECONNREFUSED');
    expect(entries.find((entry) => entry.msg === 'server process failed to start')).toMatchObject({ level: 'fatal', worker: 0, code: 1 });
    expect(entries.filter((entry) => entry.worker === 2)).toEqual([]);
  });

  it('checks the configuration in the primary: a bad value exits 1 with its line before any worker starts', async () => {
    const server = ServerProcess.spawn({ PORT: 'abc', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x', WEB_CONCURRENCY: '2' }, workDir);
    expect(await server.waitForExit()).toBe(1);
    expect(server.logs().trim().split('\n')).toEqual(['Invalid configuration: PORT must be an integer from 1 to 65535 (got "abc")']);
  });

  it('runs on the PostgreSQL server named by DATABASE_URL', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const server = ServerProcess.spawn({ PORT: String(port), DATABASE_URL: database.url, KEEPALIVE_MAX_REQUESTS: '5' }, workDir);
    try {
      await server.waitUntilHealthy();
      const listening = server.logEntries().find((entry) => String(entry.msg).startsWith('server listening'));
      expect(listening?.database).toBe('server');
      // KEEPALIVE_MAX_REQUESTS: the fifth answer on a connection closes it.
      expect(await requestsUntilClosed(port, 50)).toBe(5);
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ exists: boolean }>("SELECT to_regclass('public.migrations') IS NOT NULL AS exists");
        expect(rows[0].exists).toBe(true);
      } finally {
        await client.end();
      }
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
      await database.drop();
    }
  });
});

/** Worker ids that logged "server listening" (none in a single process, which logs no worker id). */
function listeningWorkers(server: ServerProcess): number[] {
  return server
    .logEntries()
    .filter((entry) => String(entry.msg).startsWith('server listening'))
    .map((entry) => (entry.worker as number | undefined) ?? 0)
    .sort((a, b) => a - b);
}

async function waitFor(condition: () => boolean, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(100);
  }
}

/** The worker ids in the access-log lines of `count` requests, each on a connection of its own. */
async function workersAnswering(server: ServerProcess, count: number): Promise<number[]> {
  const requestIds = Array.from({ length: count }, (_, i) => `cluster-probe-${i}`);
  for (const requestId of requestIds) {
    await new Promise<void>((resolve, reject) => {
      httpRequest(
        { port: server.port, host: '127.0.0.1', path: '/health/live', agent: false, headers: { 'x-request-id': requestId } },
        (response) => {
          response.resume();
          response.on('end', resolve);
        },
      )
        .on('error', reject)
        .end();
    });
  }
  const accessLog = () =>
    server.logEntries().filter((entry) => entry.msg === 'request completed' && requestIds.includes(String(entry.request_id)));
  await waitFor(() => accessLog().length === count);
  return [...new Set(accessLog().map((entry) => entry.worker as number))].sort((a, b) => a - b);
}

/** How many requests one keep-alive connection carries before the server answers `Connection: close`. */
async function requestsUntilClosed(port: number, limit = 2000): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let count = 1; count <= limit; count++) {
      const connection = await new Promise<string | undefined>((resolve, reject) => {
        httpRequest({ port, host: '127.0.0.1', path: '/health/live', agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.headers.connection));
        })
          .on('error', reject)
          .end();
      });
      if (connection === 'close') return count;
    }
    return Infinity;
  } finally {
    agent.destroy();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** An HTTP/1.1 request written by hand, so a test can hold its body back while the server shuts down. */
class RawRequest {
  private received = '';
  private readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('utf8')));
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
  }

  static async open(
    port: number,
    method: string,
    path: string,
    headers: Record<string, string>,
    contentLength: number,
  ): Promise<RawRequest> {
    const socket = createConnection(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const head = Object.entries({ ...headers, host: `127.0.0.1:${port}`, 'content-length': String(contentLength), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
    return new RawRequest(socket);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Status and body once the server closes the connection (the request asked it to); status 0 for an empty reply. */
  async response(): Promise<{ status: number; body: string }> {
    await this.closed;
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(this.received)?.[1] ?? 0);
    const [, ...rest] = this.received.split('\r\n\r\n');
    const chunked = /transfer-encoding: chunked/i.test(this.received);
    const raw = rest.join('\r\n\r\n');
    return { status, body: chunked ? decodeChunked(raw) : raw };
  }
}

function decodeChunked(raw: string): string {
  let body = '';
  let rest = raw;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

async function withEmbeddedClient(server: ServerProcess, work: (client: Client) => Promise<void>): Promise<void> {
  const started = server.logEntries().find((entry) => entry.msg === 'embedded PostgreSQL (PGlite) started');
  expect(started).toBeDefined();
  const client = new Client({ host: String(started!.socket_dir), user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
