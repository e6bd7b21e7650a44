'use strict';
// What every bench script needs: the built server on a free port in a temp data dir, and an
// autocannon run printed as one line.
const autocannon = require('autocannon');
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitHealthy(base, child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not become healthy');
}

/**
 * Runs `work({ base, workDir })` against `node dist/src/main.js` (embedded PGlite in a temp dir, or
 * DATABASE_URL), then stops the server and removes the temp dir.
 */
async function withServer(extraEnv, work) {
  const workDir = mkdtempSync(join(tmpdir(), 'bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: join(workDir, 'data'),
    SECRET_KEY: 'bench-secret-key-bench-secret-key-123456',
    PRIVATE_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    AUTH_RATE_LIMIT: '1000/second',
    AUTH_ADDRESS_RATE_LIMIT: '1000/second',
    LOG_LEVEL: 'warn',
    ...extraEnv,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  };
  const child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitHealthy(base, child);
    await work({ base, workDir });
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(workDir, { recursive: true, force: true });
  }
}

function run(title, options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) => {
      if (error) return reject(error);
      const bad = result.non2xx + result.errors + result.timeouts;
      console.log(
        `${title.padEnd(52)} ${result.requests.average.toFixed(1).padStart(7)} req/s  ` +
          `p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ` +
          `(${result.requests.total} requests, ${bad} failed)`,
      );
      resolve(result);
    });
  });
}

function describeRun() {
  return `database: ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite'}; ${CONNECTIONS} connections, ${SECONDS} s each; node ${process.version}`;
}

module.exports = { withServer, run, describeRun };
