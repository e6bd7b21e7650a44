'use strict';
// Cached OCSP answers of the built server (dist/) against `cfssl ocspserve` serving the same
// pre-signed responses, GET and POST, in one run.
//
//   npm run build && node bench/ocsp.js
//   BENCH_ROUNDS=3 BENCH_SECONDS=10 BENCH_CONNECTIONS=16 BENCH_CERTIFICATES=20 node bench/ocsp.js
//
// Ours runs on PostgreSQL (DATABASE_URL, or a fresh database on BENCH_PG_ADMIN_URL). It gets an
// RSA-2048 CA and BENCH_CERTIFICATES certificates, a quarter of them revoked; `openssl ocsp -reqout`
// writes one nonce-free request per certificate (what RFC 5019 clients send), and the responses our
// server signs for them are what cfssl serves (`-responses`, base64 DER a line), so both sides answer
// the same requests with the same bytes. Rounds alternate which side goes first; autocannon cycles
// through the requests. bench/prerequisites.sh installs golang-cfssl when it is missing.
// Debian's cfssl (1.2.0+git20160825) answers every GET with 400: it base64-decodes the path with its
// leading `/`. So cfssl is measured on POST only, and our GET figure is set against cfssl's POST
// figure of the same round (the same lookup of a pre-signed answer, without the URL decoding).
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { loadavg, nproc = () => require('node:os').cpus().length, tmpdir } = require('node:os');
const { join } = require('node:path');
const {
  api,
  bootstrapUser,
  CONNECTIONS,
  freePort,
  loadWithCpu,
  median,
  postgresDatabase,
  SECONDS,
  sleep,
  startServer,
} = require('./bench-server');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CERTIFICATES = Number(process.env.BENCH_CERTIFICATES ?? 20);

async function startCfssl(responsesFile) {
  const port = await freePort();
  const child = spawn(
    'cfssl',
    ['ocspserve', '-address', '127.0.0.1', '-port', String(port), '-responses', responsesFile, '-loglevel', '5'],
    {
      stdio: 'ignore',
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('cfssl ocspserve exited');
    try {
      await fetch(`${base}/`);
      return { base, pid: child.pid, stop: () => child.kill('SIGTERM') };
    } catch {
      await sleep(100);
    }
  }
  throw new Error('cfssl ocspserve did not answer');
}

/** The autocannon request list of one side: a GET or POST per certificate. */
function requestsFor(method, prefix, ocspRequests) {
  return ocspRequests.map((der) =>
    method === 'GET'
      ? { method: 'GET', path: `${prefix}/${encodeURIComponent(der.toString('base64'))}` }
      : { method: 'POST', path: prefix || '/', headers: { 'content-type': 'application/ocsp-request' }, body: der },
  );
}

async function main() {
  execFileSync('bash', [join(__dirname, 'prerequisites.sh'), 'cfssl:golang-cfssl'], { stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'bench-ocsp-'));
  const database = await postgresDatabase();
  const server = await startServer({ databaseUrl: database.url });
  let cfssl;
  try {
    const token = await bootstrapUser(server.base);
    const ca = await api(server.base, 'POST', '/cas/', {
      token,
      body: { name: `Bench OCSP ${Date.now()}`, subject_dn: 'CN=Bench OCSP CA', key_type: 'rsa', key_size: 2048 },
    });
    writeFileSync(join(work, 'ca.pem'), ca.certificate);
    const ocspRequests = [];
    const ocspResponses = [];
    const ourPath = `/ocsp/${ca.slug}`;
    for (let i = 0; i < CERTIFICATES; i++) {
      const certificate = await api(server.base, 'POST', `/certificates/?ca_id=${ca.id}`, {
        token,
        body: { common_name: `host${i}.bench.example`, subject_dn: 'O=Bench', certificate_type: 'server', include_private_key: false },
      });
      if (i % 4 === 3) await api(server.base, 'POST', `/certificates/${certificate.id}/revoke`, { token, body: { reason: 'superseded' } });
      const certFile = join(work, `cert${i}.pem`);
      const requestFile = join(work, `req${i}.der`);
      writeFileSync(certFile, certificate.certificate);
      execFileSync('openssl', ['ocsp', '-issuer', join(work, 'ca.pem'), '-cert', certFile, '-no_nonce', '-reqout', requestFile], {
        stdio: 'ignore',
      });
      const der = readFileSync(requestFile);
      ocspRequests.push(der);
      const response = await fetch(`${server.base}${ourPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request' },
        body: der,
      });
      if (!response.ok) throw new Error(`OCSP POST answered ${response.status}`);
      ocspResponses.push(Buffer.from(await response.arrayBuffer()));
    }
    const responsesFile = join(work, 'responses.b64');
    writeFileSync(responsesFile, `${ocspResponses.map((der) => der.toString('base64')).join('\n')}\n`);
    cfssl = await startCfssl(responsesFile);

    // Both sides must answer the first request with the very bytes ours signed.
    const check = await fetch(`${cfssl.base}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/ocsp-request' },
      body: ocspRequests[0],
    });
    if (!Buffer.from(await check.arrayBuffer()).equals(ocspResponses[0])) throw new Error('cfssl does not serve the pre-signed response');

    const cfsslVersion = execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'golang-cfssl']).toString();
    console.log(
      `cached OCSP answers: ours (node dist/src/main.js, PostgreSQL) vs cfssl ocspserve (${cfsslVersion}), ${CERTIFICATES} certificates`,
    );
    console.log(
      `${ROUNDS} rounds x ${SECONDS} s per side and method, ${CONNECTIONS} connections, autocannon; ${nproc()} cores; node ${process.version}`,
    );
    console.log(
      `load average before: ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
    const ratios = { GET: [], POST: [] };
    const figures = { GET: { ours: [], cfssl: [] }, POST: { ours: [], cfssl: [] } };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const method of ['GET', 'POST']) {
        const sides = [
          ['ours', server.base, ourPath, method, server.pid],
          ['cfssl', cfssl.base, '', 'POST', cfssl.pid],
        ];
        if (round % 2 === 0) sides.reverse();
        const rps = {};
        const cpuMs = {};
        for (const [name, base, prefix, sideMethod, pid] of sides) {
          const result = await loadWithCpu({ url: base, requests: requestsFor(sideMethod, prefix, ocspRequests) }, pid);
          if (result.failed > 0) throw new Error(`${name} ${method}: ${result.failed} requests failed`);
          rps[name] = result.rps;
          cpuMs[name] = (result.serverCores * 1000) / result.rps;
          figures[method][name].push(result.rps);
        }
        const ratio = rps.ours / rps.cfssl;
        ratios[method].push(ratio);
        console.log(
          `round ${round} ${method.padEnd(4)} ours ${rps.ours.toFixed(0).padStart(6)} req/s  cfssl POST ${rps.cfssl.toFixed(0).padStart(6)} req/s  ratio ${ratio.toFixed(2)}` +
            `  (server CPU per answer: ours ${cpuMs.ours.toFixed(3)} ms, cfssl ${cpuMs.cfssl.toFixed(3)} ms)`,
        );
      }
    }
    for (const method of ['GET', 'POST']) {
      console.log(
        `median ${method.padEnd(4)} ours ${median(figures[method].ours).toFixed(0)} req/s, cfssl POST ${median(figures[method].cfssl).toFixed(0)} req/s, ` +
          `ratio ${median(ratios[method]).toFixed(2)} (target >= 1.0)`,
      );
    }
    console.log(
      `load average after: ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    cfssl?.stop();
    await server.stop();
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
