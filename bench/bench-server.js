'use strict';
// What every bench script needs: the built server on a free port in a temp data dir, a fresh
// PostgreSQL database, the API as a client sees it, the server's processes and their memory, and an
// autocannon run printed as one line.
const autocannon = require('autocannon');
const { execFile, spawn } = require('node:child_process');
const http = require('node:http');
const { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
// BENCH_DIST: another build's dist/ (e.g. a copy kept from before a change) to measure instead.
const MAIN = join(process.env.BENCH_DIST ?? join(__dirname, '..', 'dist'), 'src', 'main.js');
const PASSWORD = 'bench-password-123';

/** What an interrupted run must still undo: servers to stop, databases to drop. */
const pendingCleanups = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    for (const cleanup of [...pendingCleanups].reverse()) await cleanup().catch(() => undefined);
    process.exit(130);
  });
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitHealthy(base, child, pollMs = 200) {
  const deadline = Date.now() + Number(process.env.BENCH_START_TIMEOUT_SECONDS ?? 60) * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(pollMs);
  }
  throw new Error('server did not become healthy');
}

/**
 * Starts `node dist/src/main.js` on a free port: embedded PGlite in a temp dir unless `databaseUrl`
 * is given. Resolves once /health answers 200 (polled every `pollMs`), with the time that took.
 */
async function startServer({ databaseUrl, env = {}, pollMs = 200 } = {}) {
  const workDir = mkdtempSync(join(tmpdir(), 'bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = process.hrtime.bigint();
  // BENCH_SERVER_NODE_ARGS passes flags to the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(workDir, 'data'),
      SECRET_KEY: 'bench-secret-key-bench-secret-key-123456',
      PRIVATE_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      AUTH_RATE_LIMIT: '1000/second',
      AUTH_ADDRESS_RATE_LIMIT: '1000/second',
      ACCESS_TOKEN_EXPIRE_MINUTES: '600',
      LOG_LEVEL: 'warn',
      // autocannon keeps writing on a connection the server closes (Connection: close), which Node
      // answers 503: no per-connection request limit while benchmarking.
      KEEPALIVE_MAX_REQUESTS: '0',
      ...env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // A server stuck in a long computation may not get to its SIGTERM handler: SIGKILL after 10 s.
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(workDir, { recursive: true, force: true });
    pendingCleanups.delete(stop);
  };
  pendingCleanups.add(stop);
  try {
    await waitHealthy(base, child, pollMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, pid: child.pid, workDir, startMs: Number(process.hrtime.bigint() - started) / 1e6, stop };
}

/** Runs `work({ base, workDir })` against a started server, then stops it (DATABASE_URL if set). */
async function withServer(extraEnv, work) {
  const server = await startServer({ databaseUrl: process.env.DATABASE_URL, env: extraEnv });
  try {
    await work(server);
  } finally {
    await server.stop();
  }
}

/**
 * A PostgreSQL database for one run: DATABASE_URL as is when set, otherwise a fresh one created on
 * BENCH_PG_ADMIN_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres) and dropped by `drop()`.
 */
async function postgresDatabase() {
  const { Client } = require('pg');
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, drop: async () => undefined };
  const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  const name = `pki_bench_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    pendingCleanups.delete(drop);
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  };
  pendingCleanups.add(drop);
  return { url: url.toString(), drop };
}

/** One API call; throws on a non-2xx answer or after `timeoutMs`. `form` sends urlencoded, `body` JSON. */
async function api(base, method, path, { body, token, form, timeoutMs } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload;
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const signal = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
  const response = await fetch(`${base}/api/v1${path}`, { method, headers, body: payload, signal });
  const json = await response.json().catch(() => undefined);
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Creates a superuser (the first user of an empty database) and returns a bearer token for it. */
async function bootstrapUser(base) {
  const username = `bench${Date.now()}`;
  await api(base, 'POST', '/users/', { body: { username, email: `${username}@example.com`, password: PASSWORD, role: 'superuser' } });
  const { access_token: token } = await api(base, 'POST', '/auth/token', { form: { username, password: PASSWORD } });
  return token;
}

// /proc/<pid>/stat after the command name: state is field 0, the parent pid 1, utime 11, stime 12.
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const CLOCK_TICKS_PER_SECOND = 100;

/** The process and all its descendants (a cluster's workers), each with its resident set size and CPU time. */
function processTree(rootPid) {
  const parentOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parentOf.set(Number(entry), Number(statFields(entry)[1]));
    } catch {
      // exited meanwhile
    }
  }
  const pids = [rootPid];
  for (let i = 0; i < pids.length; i++) {
    for (const [pid, parent] of parentOf) if (parent === pids[i]) pids.push(pid);
  }
  return pids
    .map((pid) => {
      try {
        const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        const fields = statFields(pid);
        return { pid, rssMb: Number(rss[1]) / 1024, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND };
      } catch {
        return undefined;
      }
    })
    .filter(Boolean);
}

/**
 * Waits until the server's processes use less than a tenth of a core over half a second (at most
 * `maxMs`): work for requests the load generator gave up on (RSA keys, CRLs) must not spill into the
 * next measurement.
 */
async function waitIdle(rootPid, maxMs = 60_000) {
  const cpu = () => processTree(rootPid).reduce((sum, process) => sum + process.cpuSeconds, 0);
  const deadline = Date.now() + maxMs;
  let before = cpu();
  while (Date.now() < deadline) {
    await sleep(500);
    const now = cpu();
    if (now - before < 0.05) return;
    before = now;
  }
}

/**
 * autocannon with the run's defaults; resolves to the figures the scripts print. Requests/s count
 * 2xx answers only. With `warmupSeconds`, answers in the first seconds are left out of the rate:
 * slow requests (RSA key generation) would otherwise count the ramp-up, when none has finished yet.
 */
function load({ warmupSeconds = 0, ...options }) {
  return new Promise((resolve, reject) => {
    let started;
    let served = 0;
    const instance = autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) => {
      if (error) return reject(error);
      const window = result.duration - warmupSeconds;
      resolve({
        rps: (warmupSeconds > 0 ? served : result['2xx']) / window,
        p50: result.latency.p50,
        p99: result.latency.p99,
        total: result.requests.total,
        failed: result.non2xx + result.errors + result.timeouts,
        raw: result,
      });
    });
    if (warmupSeconds > 0) {
      started = performance.now();
      instance.on('response', (_client, statusCode) => {
        if (statusCode >= 200 && statusCode < 300 && performance.now() - started >= warmupSeconds * 1000) served++;
      });
    }
  });
}

/** CPU seconds of the server's processes (all of the tree under `pid`) so far. */
const treeCpuSeconds = (pid) => processTree(pid).reduce((sum, process) => sum + process.cpuSeconds, 0);
/** CPU seconds of this process so far: autocannon runs in it. */
function ownCpuSeconds() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/**
 * `load` (autocannon, in this process), with the cores the client and the server's processes used
 * meanwhile: which side saturates. autocannon appends every response body to a string, so large
 * bodies cost the client more than the server.
 */
async function loadWithCpu(options, serverPid) {
  const [client, server, started] = [ownCpuSeconds(), treeCpuSeconds(serverPid), performance.now()];
  const figures = await load(options);
  const seconds = (performance.now() - started) / 1000;
  return { ...figures, clientCores: (ownCpuSeconds() - client) / seconds, serverCores: (treeCpuSeconds(serverPid) - server) / seconds };
}

/**
 * GETs `url` with `hey` (Go; it reads each body into a discarding writer) for SECONDS at CONNECTIONS
 * connections. Resolves to the figures `load` gives (2xx per second, p50/p99 in ms) with the cores hey
 * and the server's processes used; the server's pid is optional.
 */
function heyGet(url, serverPid) {
  const server = serverPid ? treeCpuSeconds(serverPid) : 0;
  const started = performance.now();
  // `times` prints the CPU time of the shell's children (hey) on its second line.
  const script = 'hey -z "$1" -c "$2" "$3" && times';
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script, 'hey', `${SECONDS}s`, String(CONNECTIONS), url], { maxBuffer: 1 << 24 }, (error, stdout) => {
      if (error) return reject(error);
      const seconds = (performance.now() - started) / 1000;
      const latency = (label) =>
        Math.round(Number(new RegExp(`^\\s*${label}% in ([\\d.]+) secs`, 'm').exec(stdout)?.[1] ?? NaN) * 10_000) / 10;
      const total = Number(/^\s*Total:\s+([\d.]+) secs/m.exec(stdout)[1]);
      let ok = 0;
      let bad = 0;
      for (const [, code, count] of stdout.matchAll(/^\s*\[(\d+)\]\s+(\d+) responses/gm)) {
        if (code.startsWith('2')) ok += Number(count);
        else bad += Number(count);
      }
      for (const [, count] of stdout.matchAll(/^\s*\[(\d+)\]\s+Get /gm)) bad += Number(count);
      const [user, system] = [
        ...stdout
          .trim()
          .split('\n')
          .at(-1)
          .matchAll(/(\d+)m([\d.]+)s/g),
      ].map(([, m, s]) => Number(m) * 60 + Number(s));
      resolve({
        rps: ok / total,
        p50: latency(50),
        p99: latency(99),
        total: ok + bad,
        failed: bad,
        clientCores: (user + system) / seconds,
        serverCores: serverPid ? (treeCpuSeconds(serverPid) - server) / seconds : undefined,
        raw: {},
      });
    });
  });
}

/**
 * A bare Node http server (one process, no framework) answering every request with `body`: the
 * limit for serving that many bytes on this machine. Resolves to its base URL, pid and `stop()`.
 */
async function staticBodyServer(body, contentType) {
  const workDir = mkdtempSync(join(tmpdir(), 'bench-static-'));
  const file = join(workDir, 'body');
  writeFileSync(file, body);
  const source = `
    const body = require('node:fs').readFileSync(process.argv[1]);
    const server = require('node:http').createServer((request, response) => {
      response.writeHead(200, { 'content-type': process.argv[2], 'content-length': body.length, etag: '"static"' });
      response.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', source, file, contentType], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (data) => resolve(Number(String(data).trim())));
    child.once('exit', () => reject(new Error('static server exited')));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(workDir, { recursive: true, force: true });
    pendingCleanups.delete(stop);
  };
  pendingCleanups.add(stop);
  return { base: `http://127.0.0.1:${port}`, pid: child.pid, stop };
}

function formatLoad(title, figures) {
  return (
    `${title.padEnd(52)} ${figures.rps.toFixed(1).padStart(7)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms  ` +
    `(${figures.total} requests, ${figures.failed} failed${failureBreakdown(figures.raw)})` +
    (figures.clientCores === undefined ? '' : `; CPU: client ${figures.clientCores.toFixed(2)} cores`) +
    (figures.serverCores === undefined ? '' : `, server ${figures.serverCores.toFixed(2)} cores`)
  );
}

/** What the failures were: status codes other than 2xx with their counts, errors, timeouts. */
function failureBreakdown(result) {
  const parts = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${code} × ${count}`);
  if (result.errors) parts.push(`errors × ${result.errors}`);
  if (result.timeouts) parts.push(`timeouts × ${result.timeouts}`);
  return parts.length ? `: ${parts.join(', ')}` : '';
}

async function run(title, options) {
  const figures = await load(options);
  console.log(formatLoad(title, figures));
  return figures.raw;
}

/** A JSON request to any path of the server (the platform API with `Authorization: Token …` in `headers`); throws unless 2xx. */
async function call(base, method, path, body, headers = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const json = await response.json().catch(() => undefined);
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * A timed reader's GET: the answer's JSON parsed, over one kept-alive connection of Node's own HTTP
 * client, as the SQL side reads over one open pg connection. (`fetch` costs the client about a
 * millisecond more per half-megabyte answer than the server spends writing it.) Throws unless 200.
 * With `timings`, each read pushes `{ lastByte, parse }`: milliseconds from the request to the
 * answer's last byte, and then to its JSON parsed.
 */
function jsonReader(base, { timings } = {}) {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (path, headers = {}) =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      http
        .get({ host: hostname, port, path, agent, headers }, (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => {
            const lastByte = process.hrtime.bigint();
            const text = Buffer.concat(chunks).toString('utf8');
            if (response.statusCode !== 200) return reject(new Error(`GET ${path} → ${response.statusCode} ${text.slice(0, 200)}`));
            const value = JSON.parse(text);
            timings?.push({ lastByte: Number(lastByte - started) / 1e6, parse: Number(process.hrtime.bigint() - lastByte) / 1e6 });
            resolve(value);
          });
          response.on('error', reject);
        })
        .on('error', reject);
    });
}

/**
 * Writes out the pages a bulk load left dirty (CHECKPOINT), so that the checkpointer's writes of
 * hundreds of megabytes do not fall into the timed rounds; needs a superuser or pg_checkpoint, and
 * says so when the connection has neither.
 */
async function settle(db) {
  try {
    await db.query('CHECKPOINT');
  } catch (error) {
    console.log(`CHECKPOINT refused (${error.message}): the load's pages may be written during the rounds`);
  }
}

/** Creates a superuser (the first user of an empty database) and answers its name and a platform API token header. */
async function platformSuperuser(base) {
  const username = `bench${Date.now()}`;
  await call(base, 'POST', '/api/v1/users/', { username, email: `${username}@example.com`, password: PASSWORD, role: 'superuser' });
  const { key } = await call(base, 'POST', '/api/users/tokens/provision/', { username, password: PASSWORD });
  return { username, auth: { authorization: `Token ${key}` } };
}

function describeRun() {
  return `database: ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite'}; ${CONNECTIONS} connections, ${SECONDS} s each; node ${process.version}`;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const median = (values) => percentile(values, 50);

/**
 * Times `apiRead` and `sqlRead` (each resolves with one read's milliseconds) over the same `inputs`:
 * a warm-up pass of each, then `rounds` rounds whose first side alternates, each round printed.
 * Resolves with the median of the rounds' p50s on each side and of their ratios, every ratio, each
 * side's p99 over all its timed reads (`apiP99`, `sqlP99`) and each round's p50s (`rounds`: { api,
 * sql, third }). With `other` ({ label, read }), a third side is timed in the same rounds, the order
 * of the three rotating, and its figures against SQL resolve as `other` ({ p50, p99, ratio, ratios }).
 */
async function alternatingRounds({ rounds, inputs, apiRead, sqlRead, apiLabel, other }) {
  const sides = [apiRead, sqlRead, ...(other ? [other.read] : [])];
  const samples = sides.map(() => []);
  const measure = async (read, side) => {
    const times = [];
    for (const input of inputs) times.push(await read(input));
    samples[side]?.push(...times);
    return median(times);
  };
  for (const read of sides) await measure(read);
  const results = [];
  for (let round = 0; round < rounds; round++) {
    const p50s = [];
    for (let step = 0; step < sides.length; step++) {
      const side = (round + step) % sides.length;
      p50s[side] = await measure(sides[side], side);
    }
    const [api, sql, third] = p50s;
    results.push({ api, sql, third });
    console.log(
      `  round ${round + 1}: ${apiLabel} p50 ${api.toFixed(2)} ms, SQL p50 ${sql.toFixed(2)} ms, ratio ${(api / sql).toFixed(2)}` +
        (other ? `; ${other.label} p50 ${third.toFixed(2)} ms, ratio ${(third / sql).toFixed(2)}` : ''),
    );
  }
  const figures = (side, index) => {
    const ratios = results.map((result) => result[side] / result.sql);
    return { p50: median(results.map((result) => result[side])), p99: percentile(samples[index], 99), ratio: median(ratios), ratios };
  };
  const { p50: api, p99: apiP99, ratio, ratios } = figures('api', 0);
  return {
    api,
    apiP99,
    sql: median(results.map((result) => result.sql)),
    sqlP99: percentile(samples[1], 99),
    ratio,
    ratios,
    rounds: results,
    ...(other ? { other: figures('third', 2) } : {}),
  };
}

module.exports = {
  freePort,
  platformSuperuser,
  alternatingRounds,
  median,
  percentile,
  SECONDS,
  CONNECTIONS,
  api,
  bootstrapUser,
  call,
  describeRun,
  formatLoad,
  heyGet,
  jsonReader,
  load,
  loadWithCpu,
  postgresDatabase,
  processTree,
  settle,
  run,
  sleep,
  startServer,
  staticBodyServer,
  waitIdle,
  withServer,
};
