#!/usr/bin/env node
// Measures sign-csr throughput and server-key issuance rate of the built server (dist/).
//
//   npm run build && node bench/pki-issuance.js                       # embedded PGlite in a temp dir
//   DATABASE_URL=postgres://... node bench/pki-issuance.js            # a PostgreSQL server (database is used as is)
//   BENCH_SECONDS=20 BENCH_CONNECTIONS=16 node bench/pki-issuance.js
//
// Starts `node dist/src/main.js` on a free port, bootstraps a superuser, creates an ECDSA P-256 and
// an RSA-2048 root CA, then runs autocannon (16 connections) against POST /certificates/sign-csr
// with an openssl-made CSR, and against POST /certificates/ (server-generated keys). Prints one
// line per scenario with requests/s, latency percentiles and the error count.
'use strict';
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { describeRun, run, withServer } = require('./bench-server');

const PASSWORD = 'bench-password-123';

async function api(base, method, path, body, token, form) {
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
  const response = await fetch(`${base}/api/v1${path}`, { method, headers, body: payload });
  const json = await response.json().catch(() => undefined);
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function main() {
  await withServer({ CA_KEY_SIZE: '2048' }, async ({ base, workDir: work }) => {
    const username = `bench${Date.now()}`;
    await api(base, 'POST', '/users/', { username, email: `${username}@example.com`, password: PASSWORD, role: 'superuser' }).catch(
      () => undefined,
    );
    const { access_token: token } = await api(base, 'POST', '/auth/token', undefined, undefined, { username, password: PASSWORD });
    const ecCa = await api(base, 'POST', '/cas/', { name: `Bench EC ${username}`, subject_dn: 'CN=Bench EC Root', key_type: 'ecdsa-p256' }, token);
    const rsaCa = await api(base, 'POST', '/cas/', { name: `Bench RSA ${username}`, subject_dn: 'CN=Bench RSA Root', key_type: 'rsa', key_size: 2048 }, token);
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(work, 'k.pem'), '-out', join(work, 'r.csr'), '-subj', '/CN=bench.example.com'], { stdio: 'ignore' });
    const csr = readFileSync(join(work, 'r.csr'), 'utf8');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    console.log(describeRun());
    for (const ca of [ecCa, rsaCa]) {
      await run(`sign-csr (CA ${ca.key_type})`, {
        url: `${base}/api/v1/certificates/sign-csr`,
        method: 'POST',
        headers,
        body: JSON.stringify({ csr, ca_id: ca.id, certificate_type: 'server' }),
      });
    }
    for (const keyType of ['ecdsa-p256', 'rsa']) {
      await run(`issue, server-generated ${keyType} key (CA ecdsa-p256)`, {
        url: `${base}/api/v1/certificates/?ca_id=${ecCa.id}`,
        method: 'POST',
        headers,
        body: JSON.stringify({ common_name: 'issued.example.com', subject_dn: 'O=Bench', certificate_type: 'server', key_type: keyType }),
      });
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
