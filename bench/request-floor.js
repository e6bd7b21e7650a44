#!/usr/bin/env node
// The fixed cost of an authenticated request: the built server (dist/, one process,
// WEB_CONCURRENCY=1) against bench/bare-auth-server.js (node:http + pg, one process, the same
// statements, the same answer bytes), side by side in the same rounds.
//
//   npm run bench:floor                      # npm run build && node bench/request-floor.js
//   BENCH_ROUNDS=5 BENCH_SECONDS=5 node bench/request-floor.js
//   BENCH_ONLY=tenant node bench/request-floor.js   # one request: me or tenant
//
// Two requests: GET /api/v1/users/me with a user's JWT (one statement), and GET
// /api/tenancy/tenants/<id>/ with a platform API token (a tenant with a tag; the token, the row, its
// custom fields and tags: three statements). Both answers are checked byte for byte against the bare
// server's before the rounds (the same Host header on both sides, so the URLs in the tenant agree).
// Each round runs autocannon at BENCH_CONNECTIONS against each side, the side that goes first
// alternating, and reads from /proc the CPU the side's process used: the figure is server CPU per
// request (ours against the bare server's, their ratio; the target is ≤ 2×), with req/s beside it.
// CPU per request moves far less with the machine's load than req/s does.
//
// A fresh database on BENCH_PG_ADMIN_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres),
// dropped at the end; DATABASE_URL uses a given one.
'use strict';
const { fork } = require('node:child_process');
const http = require('node:http');
const { api, freePort, load, median, postgresDatabase, processTree, startServer } = require('./bench-server');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECRET_KEY = 'bench-secret-key-bench-secret-key-123456';
const PASSWORD = 'bench-password-123';
const HOST = 'inventory.bench';

const cpuSeconds = (pid) => processTree(pid).reduce((sum, process) => sum + process.cpuSeconds, 0);

/** The answer's text; node:http rather than fetch, which does not let a Host header be set. */
function body(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { ...headers, host: HOST } }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== 200) reject(new Error(`GET ${url} → ${response.statusCode} ${text.slice(0, 200)}`));
          else resolve(text);
        });
      })
      .on('error', reject);
  });
}

/** One side's autocannon run: req/s and milliseconds of its process's CPU per answered request. */
async function measure(pid, url, headers) {
  const before = cpuSeconds(pid);
  const figures = await load({ url, headers: { ...headers, host: HOST } });
  if (figures.failed > 0) throw new Error(`${url}: ${figures.failed} failed requests`);
  const answered = figures.rps * figures.raw.duration;
  return { rps: figures.rps, cpuMs: ((cpuSeconds(pid) - before) * 1000) / answered };
}

async function main() {
  const database = await postgresDatabase();
  let server;
  let bare;
  try {
    server = await startServer({ databaseUrl: database.url, env: { WEB_CONCURRENCY: '1' } });
    const { base } = server;
    const username = `bench${Date.now()}`;
    await api(base, 'POST', '/users/', { body: { username, email: `${username}@example.com`, password: PASSWORD, role: 'superuser' } });
    const { access_token: jwt } = await api(base, 'POST', '/auth/token', { form: { username, password: PASSWORD } });
    const provision = await fetch(`${base}/api/users/tokens/provision/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    const { key } = await provision.json();
    const tokenAuth = { authorization: `Token ${key}` };
    const post = async (path, payload) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...tokenAuth, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      if (!response.ok) throw new Error(`POST ${path} → ${response.status} ${await response.text()}`);
      return response.json();
    };
    const tag = await post('/api/extras/tags/', { name: 'gold', slug: 'gold', color: 'ffd700' });
    const tenant = await post('/api/tenancy/tenants/', { name: 'Tenant one', slug: 'tenant-one', tags: [tag.id] });

    const port = await freePort();
    bare = fork(require.resolve('./bare-auth-server'), [], {
      env: { PATH: process.env.PATH, DATABASE_URL: database.url, PORT: String(port), SECRET_KEY },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    await new Promise((resolve, reject) => {
      bare.once('message', resolve);
      bare.once('exit', () => reject(new Error('bare server exited')));
    });
    const bareBase = `http://127.0.0.1:${port}`;

    const scenarios = [
      {
        name: 'me',
        title: 'GET /api/v1/users/me (JWT)',
        ours: `${base}/api/v1/users/me`,
        bare: `${bareBase}/users/me`,
        headers: { authorization: `Bearer ${jwt}` },
      },
      {
        name: 'tenant',
        title: `GET /api/tenancy/tenants/${tenant.id}/ (token)`,
        ours: `${base}/api/tenancy/tenants/${tenant.id}/`,
        bare: `${bareBase}/tenants/${tenant.id}/`,
        headers: tokenAuth,
      },
    ].filter((scenario) => !process.env.BENCH_ONLY || scenario.name === process.env.BENCH_ONLY);
    for (const scenario of scenarios) {
      const [ours, floor] = [await body(scenario.ours, scenario.headers), await body(scenario.bare, scenario.headers)];
      if (ours !== floor) throw new Error(`${scenario.title}: the bare server's answer differs\n ours: ${ours}\n bare: ${floor}`);
    }

    const load1 = require('node:os').loadavg()[0];
    console.log(
      `database: PostgreSQL, fresh; node ${process.version}; ${process.env.BENCH_CONNECTIONS ?? 16} connections, ` +
        `${process.env.BENCH_SECONDS ?? 10} s per side per round, ${ROUNDS} rounds; load average ${load1.toFixed(1)}`,
    );
    const summary = [];
    for (const scenario of scenarios) {
      console.log(scenario.title);
      // Warm-up of both sides (JIT, prepared statements, pools).
      await measure(server.pid, scenario.ours, scenario.headers);
      await measure(bare.pid, scenario.bare, scenario.headers);
      const rounds = [];
      for (let round = 0; round < ROUNDS; round++) {
        const run = {};
        for (const side of round % 2 ? ['bare', 'ours'] : ['ours', 'bare']) {
          run[side] = await measure(side === 'ours' ? server.pid : bare.pid, scenario[side], scenario.headers);
        }
        rounds.push(run);
        console.log(
          `  round ${round + 1}: ours ${run.ours.rps.toFixed(0)} req/s, ${run.ours.cpuMs.toFixed(3)} ms CPU/request; ` +
            `bare ${run.bare.rps.toFixed(0)} req/s, ${run.bare.cpuMs.toFixed(3)} ms CPU/request; ` +
            `CPU ratio ${(run.ours.cpuMs / run.bare.cpuMs).toFixed(2)}, req/s ratio ${(run.ours.rps / run.bare.rps).toFixed(2)}`,
        );
      }
      const cpuRatios = rounds.map((run) => run.ours.cpuMs / run.bare.cpuMs);
      summary.push({
        title: scenario.title,
        ours: median(rounds.map((run) => run.ours.cpuMs)),
        bare: median(rounds.map((run) => run.bare.cpuMs)),
        ratio: median(cpuRatios),
        cpuRatios,
        rpsRatio: median(rounds.map((run) => run.ours.rps / run.bare.rps)),
      });
    }
    console.log('\n| Request | ours, CPU per request | bare server | ratio (rounds) | req/s ratio | target ≤ 2× |');
    console.log('|---|---|---|---|---|---|');
    for (const row of summary) {
      console.log(
        `| ${row.title} | ${row.ours.toFixed(3)} ms | ${row.bare.toFixed(3)} ms | ${row.ratio.toFixed(2)} (${row.cpuRatios
          .map((ratio) => ratio.toFixed(2))
          .join(', ')}) | ${row.rpsRatio.toFixed(2)} | ${row.ratio <= 2 ? 'met' : 'not met'} |`,
      );
    }
  } finally {
    bare?.kill();
    await server?.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
