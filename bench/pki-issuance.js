#!/usr/bin/env node
// The PKI targets of docs/performance.md (all but sign-csr against cfssl) against the built server
// (dist/), each printed as ours, the peer or limit, the ratio and the target, then as one markdown
// table.
//
//   npm run bench:pki                                                 # builds first
//   node bench/pki-issuance.js                                        # dist/ as it is
//   BENCH_SOAK_SECONDS=600 node bench/pki-issuance.js                 # the 10-minute soak
//   BENCH_ONLY=crl,embedded node bench/pki-issuance.js                # some scenarios only
//
// Scenarios (BENCH_ONLY, comma-separated; all by default):
//   cold      cold start of the built server to /health 200 (median of BENCH_COLD_STARTS, default 3),
//             idle RSS of the server's processes (the started pid and its descendants)
//   issue     server-generated ECDSA P-256 issuance; RSA-2048 issuance against the raw RSA-2048
//             key-generation rate of all cores (generateKeyPairSync in one worker thread per core),
//             alternating over BENCH_ROUNDS rounds of BENCH_RSA_SECONDS (default 2 × BENCH_SECONDS)
//   me        GET /api/v1/users/me with a bearer token
//   crl       a CA with BENCH_CRL_SIZE (default 100 000) revoked certificates seeded with SQL: cached
//             GET /crl/<slug> latency, revoke + first GET that lists it, 50 revocations in parallel
//             and how many times the CRL number moved
//   embedded  sign-csr on embedded PGlite against the PostgreSQL server, alternating rounds
//   soak      RSS of the server's processes under a mixed load of BENCH_SOAK_SECONDS (default 60),
//             sampled every 10 s (0 skips it)
//
// The server runs on PostgreSQL: DATABASE_URL as is, or a fresh database created on
// BENCH_PG_ADMIN_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres) and dropped at the end.
// bench/prerequisites.sh installs openssl and psql from Debian and starts a local PostgreSQL when missing.
// BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 16) set each autocannon run.
// sign-csr uses an RSA-2048 CA and an openssl RSA-2048 CSR, as bench/sign-csr-vs-cfssl.sh does.
'use strict';
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const { Worker } = require('node:worker_threads');
const { Client } = require('pg');
const { readCrl } = require('./crl-der');
const {
  CONNECTIONS,
  SECONDS,
  api,
  bootstrapUser,
  formatLoad,
  heyGet,
  load,
  loadWithCpu,
  postgresDatabase,
  processTree,
  sleep,
  startServer,
  staticBodyServer,
  waitIdle,
} = require('./bench-server');

const ALL_SCENARIOS = ['cold', 'issue', 'me', 'crl', 'embedded', 'soak'];
const SCENARIOS = new Set((process.env.BENCH_ONLY ?? ALL_SCENARIOS.join(',')).split(',').map((name) => name.trim()));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RSA_SECONDS = Number(process.env.BENCH_RSA_SECONDS ?? 2 * SECONDS);
const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 3);
const CRL_SIZE = Number(process.env.BENCH_CRL_SIZE ?? 100_000);
const CRL_WAIT_SECONDS = Number(process.env.BENCH_CRL_WAIT_SECONDS ?? 30);
const PARALLEL_REVOCATIONS = 50;
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const SOAK_SAMPLE_SECONDS = 10;
const IDLE_RSS_LIMIT_MB = 200;

for (const name of SCENARIOS) {
  if (!ALL_SCENARIOS.includes(name)) throw new Error(`BENCH_ONLY: unknown scenario ${name} (known: ${ALL_SCENARIOS.join(', ')})`);
}

const summary = [];

/** One target line: printed now, and kept for the table at the end. */
function report({ scenario, ours, peer, ratio, target, met }) {
  summary.push({ scenario, ours, peer, ratio, target, met });
  console.log(`  => ${scenario}: ours ${ours} | ${peer} | ratio ${ratio} | target ${target} | ${met ? 'met' : 'NOT met'}`);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fixed = (value, digits = 1) => value.toFixed(digits);
const failedGets = (crl) => (crl.failedGets ? ` (${crl.failedGets} CRL GETs answered non-2xx meanwhile)` : '');
const listedAfter = (ms) => (Number.isFinite(ms) ? `after ${fixed(ms, 0)} ms` : `NOT within ${CRL_WAIT_SECONDS} s`);

function describeProcesses(tree) {
  const total = tree.reduce((sum, process) => sum + process.rssMb, 0);
  return {
    total,
    max: Math.max(...tree.map((process) => process.rssMb)),
    list: tree.map((p) => `${p.pid}: ${fixed(p.rssMb)} MB`).join(', '),
  };
}

function makeCsr(workDir) {
  const keyPath = join(workDir, 'bench-leaf.key');
  const csrPath = join(workDir, 'bench-leaf.csr');
  execFileSync(
    'openssl',
    [
      'req',
      '-new',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      csrPath,
      '-subj',
      '/CN=bench.example.com',
      '-addext',
      'subjectAltName=DNS:bench.example.com',
    ],
    { stdio: 'ignore' },
  );
  return readFileSync(csrPath, 'utf8');
}

/** Sets up a started server: a superuser token, an RSA-2048 and an ECDSA P-256 root CA. */
async function prepare(server, label) {
  const token = await bootstrapUser(server.base);
  const rsaCa = await api(server.base, 'POST', '/cas/', {
    token,
    body: { name: `Bench RSA ${label}`, subject_dn: 'CN=Bench RSA Root', key_type: 'rsa', key_size: 2048 },
  });
  const ecCa = await api(server.base, 'POST', '/cas/', {
    token,
    body: { name: `Bench EC ${label}`, subject_dn: 'CN=Bench EC Root', key_type: 'ecdsa-p256' },
  });
  return { ...server, token, rsaCa, ecCa, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
}

function signCsrLoad(target, csr, options = {}) {
  return {
    url: `${target.base}/api/v1/certificates/sign-csr`,
    method: 'POST',
    headers: target.headers,
    body: JSON.stringify({ csr, ca_id: target.rsaCa.id, certificate_type: 'server' }),
    ...options,
  };
}

function issueLoad(target, ca, keyType, options = {}) {
  return {
    url: `${target.base}/api/v1/certificates/?ca_id=${ca.id}`,
    method: 'POST',
    headers: target.headers,
    body: JSON.stringify({
      common_name: 'issued.example.com',
      subject_dn: 'O=Bench',
      certificate_type: 'server',
      key_type: keyType,
      ...(keyType === 'rsa' ? { key_size: 2048 } : {}),
    }),
    ...options,
  };
}

/** A load against the server whose process is `pid`, printed; returns once that server is idle again. */
async function printedLoadWithCpu(title, options, pid) {
  const figures = await loadWithCpu(options, pid);
  console.log(formatLoad(title, figures));
  await waitIdle(pid);
  return figures;
}

async function printedHeyGet(title, url, pid) {
  const figures = await heyGet(url, pid);
  console.log(formatLoad(title, figures));
  await waitIdle(pid);
  return figures;
}

async function printedLoad(title, options, pid) {
  const figures = await load(options);
  console.log(formatLoad(title, figures));
  await waitIdle(pid);
  return figures;
}

/** RSA-2048 keys per second from one worker thread per core, each generating keys back to back. */
async function rawRsaKeygenRate(seconds) {
  const source = `
    const { generateKeyPairSync } = require('node:crypto');
    const { parentPort, workerData } = require('node:worker_threads');
    const start = performance.now();
    let keys = 0;
    while (performance.now() - start < workerData * 1000) {
      generateKeyPairSync('rsa', { modulusLength: 2048 });
      keys++;
    }
    parentPort.postMessage(keys / ((performance.now() - start) / 1000));`;
  const threads = availableParallelism();
  const rates = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise((resolve, reject) => {
          const worker = new Worker(source, { eval: true, workerData: seconds });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  return { rate: rates.reduce((sum, rate) => sum + rate, 0), threads };
}

async function coldStart(databaseUrl) {
  console.log('\n# Target 5: cold start and idle memory (PostgreSQL server)');
  const first = await startServer({ databaseUrl, pollMs: 10 });
  console.log(`first start, migrating an empty database: ${fixed(first.startMs, 0)} ms to /health 200`);
  if (!SCENARIOS.has('cold')) return first;
  await first.stop();
  const times = [];
  let server;
  for (let i = 0; i < COLD_STARTS; i++) {
    server = await startServer({ databaseUrl, pollMs: 10 });
    times.push(server.startMs);
    if (i < COLD_STARTS - 1) await server.stop();
  }
  const startMs = median(times);
  console.log(`starts to /health 200: ${times.map((ms) => `${fixed(ms, 0)} ms`).join(', ')}`);
  report({
    scenario: 'Cold start of `node dist/src/main.js` to /health 200 (migrated database, median)',
    ours: `${fixed(startMs / 1000, 2)} s`,
    peer: 'limit 3 s',
    ratio: fixed(startMs / 3000, 2),
    target: '< 3 s',
    met: startMs < 3000,
  });
  await sleep(3000);
  const tree = processTree(server.pid);
  const idle = describeProcesses(tree);
  console.log(`idle RSS after start: ${fixed(idle.total)} MB in ${tree.length} process(es) (${idle.list})`);
  reportIdleRss('Idle RSS after start, PostgreSQL server mode', tree);
  return server;
}

function reportIdleRss(scenario, tree) {
  const idle = describeProcesses(tree);
  report({
    scenario,
    ours: `largest ${fixed(idle.max)} MB (${tree.length} process${tree.length > 1 ? 'es' : ''}, sum ${fixed(idle.total)} MB)`,
    peer: `limit ${IDLE_RSS_LIMIT_MB} MB`,
    ratio: fixed(idle.max / IDLE_RSS_LIMIT_MB, 2),
    target: `< ${IDLE_RSS_LIMIT_MB} MB per process`,
    met: idle.max < IDLE_RSS_LIMIT_MB,
  });
}

async function issuance(target) {
  console.log('\n# Target 2: server-generated keys');
  const ec = await printedLoad('POST /certificates/, server P-256 key, CA P-256', issueLoad(target, target.ecCa, 'ecdsa-p256'), target.pid);
  report({
    scenario: 'Issuance with a server-generated ECDSA P-256 key (CA P-256)',
    ours: `${fixed(ec.rps)}/s`,
    peer: 'limit 1500/s',
    ratio: fixed(ec.rps / 1500, 2),
    target: '>= 1500/s',
    met: ec.rps >= 1500 && ec.failed === 0,
  });

  const ratios = [];
  const ours = [];
  const raw = [];
  let failed = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const keygen = await rawRsaKeygenRate(RSA_SECONDS);
    const rsa = await printedLoad(
      `round ${round}: POST /certificates/, server RSA-2048 key, CA RSA`,
      issueLoad(target, target.rsaCa, 'rsa', { duration: RSA_SECONDS, warmupSeconds: 2, timeout: 60 }),
      target.pid,
    );
    console.log(
      `round ${round}: raw RSA-2048 generateKeyPairSync in ${keygen.threads} worker threads: ${fixed(keygen.rate)} keys/s; ratio ${fixed(rsa.rps / keygen.rate, 2)}`,
    );
    ratios.push(rsa.rps / keygen.rate);
    failed += rsa.failed;
    ours.push(rsa.rps);
    raw.push(keygen.rate);
  }
  const ratio = median(ratios);
  report({
    scenario: `Issuance with a server-generated RSA-2048 key vs raw RSA-2048 key generation on ${availableParallelism()} cores (median of ${ROUNDS} rounds)`,
    ours: `${fixed(median(ours))}/s`,
    peer: `${fixed(median(raw))} keys/s`,
    ratio: fixed(ratio, 2),
    target: '>= 0.9x',
    met: ratio >= 0.9 && failed === 0,
  });
}

async function usersMe(target) {
  console.log('\n# Target 3: authenticated trivial GET');
  const me = await printedLoad(
    'GET /api/v1/users/me (bearer token)',
    { url: `${target.base}/api/v1/users/me`, headers: target.headers },
    target.pid,
  );
  report({
    scenario: '`GET /api/v1/users/me` with a bearer token',
    ours: `${fixed(me.rps)} req/s`,
    peer: 'limit 3000 req/s',
    ratio: fixed(me.rps / 3000, 2),
    target: '>= 3000 req/s',
    met: me.rps >= 3000 && me.failed === 0,
  });
}

/**
 * Copies one real certificate row `count` times as revoked certificates with unique random serials.
 * Columns are read from the schema, so columns added later are copied too; a per-CA revocation
 * counter, where the schema has one, is raised as revocations through the API would.
 */
async function seedRevoked(databaseUrl, templateId, count) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'certificates' ORDER BY ordinal_position`,
    );
    // 40 hex digits, the first 1–7: 20 octets with the sign bit clear and no leading zero, like the server's own.
    const overrides = {
      serial_number: `(1 + floor(random() * 7))::int::text || substr(md5(random()::text || g::text) || md5(g::text || random()::text), 1, 39)`,
      status: `'revoked'`,
      revoked_at: `now() - g * interval '1 second'`,
      revocation_reason: `CASE WHEN g % 4 = 0 THEN 'superseded' END`,
      private_key: 'NULL',
      created_at: 'now()',
      updated_at: 'now()',
    };
    const columns = rows.map((row) => row.column_name).filter((column) => column !== 'id');
    const values = columns.map((column) => overrides[column] ?? `t."${column}"`);
    await client.query(
      `INSERT INTO certificates (${columns.map((column) => `"${column}"`).join(', ')})
       SELECT ${values.join(', ')} FROM certificates t CROSS JOIN generate_series(1, $2::int) g WHERE t.id = $1`,
      [templateId, count],
    );
    const counter = await client.query(
      `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'certificate_authorities' AND column_name = 'revocation_count'`,
    );
    if (counter.rowCount) {
      await client.query(
        'UPDATE certificate_authorities SET revocation_count = revocation_count + $2 WHERE id = (SELECT issuer_id FROM certificates WHERE id = $1)',
        [templateId, count],
      );
    }
    await client.query('ANALYZE certificates');
  } finally {
    await client.end();
  }
}

async function revokedCount(databaseUrl, caId) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM certificates WHERE issuer_id = $1 AND status = 'revoked'`, [caId]);
    return rows[0].n;
  } finally {
    await client.end();
  }
}

async function fetchCrl(base, slug, timeoutMs = CRL_WAIT_SECONDS * 1000) {
  const response = await fetch(`${base}/crl/${slug}`, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))) });
  if (!response.ok) throw new Error(`GET /crl/${slug} → ${response.status}`);
  const der = Buffer.from(await response.arrayBuffer());
  return { ...readCrl(der), bytes: der.length };
}

/**
 * Polls the public CRL until it lists `entries`, for at most BENCH_CRL_WAIT_SECONDS from `since`;
 * resolves to the last CRL seen, with the time it took (Infinity when it never listed them).
 */
async function waitListed(base, slug, entries, since) {
  const deadline = since + CRL_WAIT_SECONDS * 1000;
  let crl = { entries: 0, crlNumber: null, bytes: 0 };
  let failedGets = 0;
  while (performance.now() < deadline) {
    try {
      crl = await fetchCrl(base, slug, deadline - performance.now());
      if (crl.entries >= entries) return { ...crl, ms: performance.now() - since, failedGets };
    } catch (error) {
      if (error.name === 'TimeoutError') break;
      failedGets++; // e.g. 503 while a rebuild holds the CA row: the CRL is not there yet
    }
    await sleep(50);
  }
  return { ...crl, ms: Infinity, failedGets };
}

/**
 * Runs on a server of its own (same database): a CRL rebuild that never ends must not hold up the
 * other scenarios, and its process is killed afterwards.
 */
async function crl(main, csr, databaseUrl) {
  console.log(`\n# Target 4: CRL of a CA with ${CRL_SIZE} revoked certificates (PostgreSQL server)`);
  const server = await startServer({ databaseUrl });
  try {
    await crlScenario(server, main.token, csr, databaseUrl);
  } finally {
    await server.stop();
  }
}

async function crlScenario(server, token, csr, databaseUrl) {
  const { base } = server;
  const ca = await api(base, 'POST', '/cas/', {
    token,
    body: { name: `Bench CRL ${Date.now()}`, subject_dn: 'CN=Bench CRL Root', key_type: 'rsa', key_size: 2048 },
  });
  // Real certificates: one to copy for the seeded rows, two single revocations, 50 parallel ones.
  const issued = [];
  for (let i = 0; i < 3 + PARALLEL_REVOCATIONS; i++) {
    issued.push(await api(base, 'POST', '/certificates/sign-csr', { token, body: { csr, ca_id: ca.id, certificate_type: 'server' } }));
  }
  const seedStart = performance.now();
  await seedRevoked(databaseUrl, issued[0].id, CRL_SIZE);
  console.log(`seeded ${CRL_SIZE} revoked certificates with SQL in ${fixed((performance.now() - seedStart) / 1000)} s`);

  const notMeasured = (why) => {
    for (const scenario of [
      'CRL GET, cached: p50',
      'CRL rebuild after one revocation',
      `${PARALLEL_REVOCATIONS} revocations in parallel: CRL rebuilds`,
    ]) {
      report({ scenario, ours: why, peer: '', ratio: '', target: '', met: false });
    }
  };
  /** Revokes and waits until the CRL lists `expected` entries; the revoke request counts in the time. */
  const revokeAndWait = async (certificate, expected) => {
    const since = performance.now();
    try {
      await api(base, 'POST', `/certificates/${certificate.id}/revoke`, {
        token,
        body: { reason: 'keyCompromise' },
        timeoutMs: CRL_WAIT_SECONDS * 1000,
      });
    } catch (error) {
      console.log(`revoke failed: ${error.message}`);
      return { revokeMs: Infinity, entries: 0, bytes: 0, ms: Infinity };
    }
    const revokeMs = performance.now() - since;
    return { revokeMs, ...(await waitListed(base, ca.slug, expected, since)) };
  };

  const first = await revokeAndWait(issued[1], CRL_SIZE + 1);
  console.log(
    `first revocation (cold): revoke answered ${listedAfter(first.revokeMs)}, CRL listing it (${first.entries} entries, ${fixed(first.bytes / 1e6, 2)} MB) ${listedAfter(first.ms)}${failedGets(first)}`,
  );
  if (!Number.isFinite(first.ms)) return notMeasured(`no CRL listing the seeded certificates within ${CRL_WAIT_SECONDS} s of a revocation`);

  const rebuilt = await revokeAndWait(issued[2], CRL_SIZE + 2);
  console.log(
    `second revocation: revoke answered ${listedAfter(rebuilt.revokeMs)}, CRL listing it (number ${rebuilt.crlNumber}) ${listedAfter(rebuilt.ms)}${failedGets(rebuilt)}`,
  );
  if (!Number.isFinite(rebuilt.ms)) return notMeasured(`the CRL did not list a second revocation within ${CRL_WAIT_SECONDS} s`);

  const numberBefore = (await fetchCrl(base, ca.slug)).crlNumber;
  const single = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    const response = await fetch(`${base}/crl/${ca.slug}`);
    await response.arrayBuffer();
    single.push(performance.now() - started);
    if (!response.ok) throw new Error(`GET /crl/${ca.slug} → ${response.status}`);
  }
  const url = `${base}/crl/${ca.slug}`;
  const size = `${rebuilt.entries} entries (${fixed(rebuilt.bytes / 1e6, 1)} MB)`;
  // Each figure with the CPU of the client and the server: autocannon (in this process) appends every
  // body to a string, hey (Go) discards them. The same DER from a bare Node http server is the limit.
  const cached = await printedLoadWithCpu(`GET /crl/<slug>, autocannon`, { url }, server.pid);
  const cachedHey = await printedHeyGet(`GET /crl/<slug>, hey`, url, server.pid);
  const numberAfter = (await fetchCrl(base, ca.slug)).crlNumber;
  console.log(
    `one connection: p50 ${fixed(median(single))} ms over 30 GETs; CRL number ${numberBefore === numberAfter ? 'unchanged' : `moved ${numberBefore} → ${numberAfter}`} during the GETs`,
  );
  const limit = await staticBodyServer(Buffer.from(await (await fetch(url)).arrayBuffer()), 'application/pkix-crl');
  let staticCannon;
  let staticHey;
  try {
    staticCannon = await printedLoadWithCpu('same DER from a bare Node http server, autocannon', { url: limit.base }, limit.pid);
    staticHey = await printedHeyGet('same DER from a bare Node http server, hey', limit.base, limit.pid);
  } finally {
    await limit.stop();
  }
  for (const [generator, ours, bare] of [
    ['autocannon', cached, staticCannon],
    ['hey', cachedHey, staticHey],
  ]) {
    report({
      scenario: `CRL GET, ${size}, cached: p50 at ${CONNECTIONS} connections, ${generator} (1 connection: ${fixed(median(single))} ms)`,
      ours: `${fixed(ours.p50)} ms (${fixed(ours.rps)} req/s; CPU: client ${fixed(ours.clientCores, 2)}, server ${fixed(ours.serverCores, 2)} cores)`,
      peer: `limit 20 ms; bare Node http server ${fixed(bare.p50)} ms (${fixed(bare.rps)} req/s)`,
      ratio: fixed(ours.p50 / 20, 2),
      target: '< 20 ms',
      met: ours.p50 < 20 && ours.failed === 0,
    });
  }
  report({
    scenario: 'CRL rebuild after one revocation: revoke + first GET that lists it',
    ours: `${fixed(rebuilt.ms / 1000, 2)} s`,
    peer: 'limit 2 s',
    ratio: fixed(rebuilt.ms / 2000, 2),
    target: '< 2 s',
    met: rebuilt.ms < 2000,
  });

  const since = performance.now();
  const outcomes = await Promise.allSettled(
    issued.slice(3).map((certificate) =>
      api(base, 'POST', `/certificates/${certificate.id}/revoke`, {
        token,
        body: { reason: 'superseded' },
        timeoutMs: CRL_WAIT_SECONDS * 1000,
      }),
    ),
  );
  const answeredMs = performance.now() - since;
  const failures = outcomes.filter((outcome) => outcome.status === 'rejected');
  // What the CRL must list is what the database holds as revoked, whatever failed requests left.
  const expected = await revokedCount(databaseUrl, ca.id);
  const listed = await waitListed(base, ca.slug, expected, since);
  await sleep(2000); // a rebuild still queued would move the number after the CRL first lists them all
  const settled = await fetchCrl(base, ca.slug).catch(() => listed);
  const rebuilds = Number(settled.crlNumber - rebuilt.crlNumber);
  console.log(
    `${PARALLEL_REVOCATIONS} parallel revocations: answered in ${fixed(answeredMs, 0)} ms (${failures.length} failed${failures.length ? `, e.g. ${failures[0].reason.message}` : ''}); ` +
      `CRL listing all ${expected} revoked ${listedAfter(listed.ms)} (last seen ${settled.entries})${failedGets(listed)}; CRL number ${rebuilt.crlNumber} → ${settled.crlNumber}`,
  );
  report({
    scenario: `${PARALLEL_REVOCATIONS} revocations in parallel: CRL rebuilds (CRL-number increments until all are listed)`,
    ours: `${rebuilds}`,
    peer: `${PARALLEL_REVOCATIONS} revocations`,
    ratio: fixed(rebuilds / PARALLEL_REVOCATIONS, 2),
    target: `far fewer than ${PARALLEL_REVOCATIONS} (<= 10), all listed`,
    met: rebuilds <= 10 && Number.isFinite(listed.ms) && failures.length === 0,
  });
}

async function embedded(target, csr) {
  console.log('\n# Target 6: embedded PGlite against the PostgreSQL server, sign-csr');
  const pglite = await prepare(await startServer({}), `embedded ${Date.now()}`);
  try {
    await sleep(3000);
    const tree = processTree(pglite.pid);
    console.log(`embedded server idle RSS: ${describeProcesses(tree).list}`);
    reportIdleRss('Idle RSS after start, embedded PGlite mode (the database runs in the process)', tree);
    const ratios = [];
    const pg = [];
    const lite = [];
    let failed = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? [target, pglite] : [pglite, target];
      const figures = new Map();
      for (const side of order) {
        figures.set(
          side,
          await printedLoad(
            `round ${round}: sign-csr, ${side === pglite ? 'embedded PGlite' : 'PostgreSQL server'}`,
            signCsrLoad(side, csr),
            side.pid,
          ),
        );
      }
      failed += figures.get(target).failed + figures.get(pglite).failed;
      pg.push(figures.get(target).rps);
      lite.push(figures.get(pglite).rps);
      ratios.push(figures.get(pglite).rps / figures.get(target).rps);
    }
    const ratio = median(ratios);
    report({
      scenario: `sign-csr on embedded PGlite vs the PostgreSQL server (median of ${ROUNDS} rounds)`,
      ours: `${fixed(median(lite))} req/s`,
      peer: `${fixed(median(pg))} req/s`,
      ratio: fixed(ratio, 2),
      target: '>= 0.5x',
      met: ratio >= 0.5 && failed === 0,
    });
  } finally {
    await pglite.stop();
  }
}

async function soak(target, csr) {
  console.log(`\n# Target 5: RSS under a mixed load for ${SOAK_SECONDS} s (sampled every ${SOAK_SAMPLE_SECONDS} s)`);
  const share = (weight) => Math.max(1, Math.round((CONNECTIONS * weight) / 16));
  const mixed = [
    ['sign-csr', signCsrLoad(target, csr, { connections: share(4) })],
    ['issue P-256', issueLoad(target, target.ecCa, 'ecdsa-p256', { connections: share(4) })],
    ['users/me', { url: `${target.base}/api/v1/users/me`, headers: target.headers, connections: share(4) }],
    ['list certificates', { url: `${target.base}/api/v1/certificates/?limit=50`, headers: target.headers, connections: share(2) }],
    ['GET CRL', { url: `${target.base}/crl/${target.ecCa.slug}`, connections: share(2) }],
  ];
  const samples = [];
  const started = performance.now();
  const sample = () => {
    const tree = processTree(target.pid);
    samples.push({ at: Math.round((performance.now() - started) / 1000), ...describeProcesses(tree), count: tree.length });
  };
  sample();
  const timer = setInterval(sample, SOAK_SAMPLE_SECONDS * 1000);
  const results = await Promise.all(mixed.map(([, options]) => load({ duration: SOAK_SECONDS, ...options })));
  clearInterval(timer);
  if (performance.now() - started > samples[samples.length - 1].at * 1000 + 2000) sample();
  mixed.forEach(([title], i) => console.log(formatLoad(`soak: ${title}`, results[i])));
  console.log(`RSS (all processes, MB) at ${samples.map((s) => `${s.at}s ${fixed(s.total)}`).join(', ')}`);
  // The heap grows to its working size in the first minute and then swings with each GC: flat means
  // the last third of the run sits no higher than the middle third (medians), the first third being warm-up.
  const underLoad = samples.slice(1).map((s) => s.total);
  const third = Math.floor(underLoad.length / 3);
  const middle = median(underLoad.slice(third, 2 * third));
  const last = median(underLoad.slice(2 * third));
  const growth = last / middle;
  report({
    scenario: `RSS over ${SOAK_SECONDS} s of mixed load, all processes: first sample / median of the middle third / median of the last third / max`,
    ours: `${fixed(underLoad[0])} / ${fixed(middle)} / ${fixed(last)} / ${fixed(Math.max(...underLoad))} MB`,
    peer: `middle third ${fixed(middle)} MB`,
    ratio: fixed(growth, 2),
    target: 'flat over 10 min (last third <= 1.1x middle third)',
    met: growth <= 1.1 && results.every((r) => r.failed === 0),
  });
}

function printTable() {
  console.log('\n| Scenario | Ours | Peer or limit | Ratio | Target | Met |\n|---|---|---|---|---|---|');
  for (const row of summary)
    console.log(`| ${row.scenario} | ${row.ours} | ${row.peer} | ${row.ratio} | ${row.target} | ${row.met ? 'yes' : 'no'} |`);
}

async function main() {
  execFileSync('bash', [join(__dirname, 'prerequisites.sh'), ...(SCENARIOS.has('crl') ? ['hey:hey'] : [])], { stdio: 'inherit' });
  console.log(
    `bench/pki-issuance.js: ${[...SCENARIOS].join(', ')}; ${CONNECTIONS} connections, ${SECONDS} s runs, ${ROUNDS} rounds; ${availableParallelism()} cores; node ${process.version}; ${new Date().toISOString()}`,
  );
  const database = await postgresDatabase();
  let server;
  try {
    server = await coldStart(database.url);
    const target = await prepare(server, `pg ${Date.now()}`);
    const csr = makeCsr(target.workDir);
    if (SCENARIOS.has('issue')) await issuance(target);
    if (SCENARIOS.has('me')) await usersMe(target);
    if (SCENARIOS.has('crl')) await crl(target, csr, database.url);
    if (SCENARIOS.has('embedded')) await embedded(target, csr);
    if (SCENARIOS.has('cold')) {
      await sleep(5000);
      const idle = describeProcesses(processTree(server.pid));
      console.log(`\nidle RSS after the loads: ${fixed(idle.total)} MB (${idle.list})`);
    }
    if (SCENARIOS.has('soak') && SOAK_SECONDS > 0) await soak(target, csr);
  } finally {
    await server?.stop();
    await database.drop();
  }
  printTable();
  if (summary.some((row) => !row.met)) console.log('\nSome targets are not met (see the table).');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
