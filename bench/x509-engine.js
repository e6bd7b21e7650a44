#!/usr/bin/env node
// The X.509 engine alone, old against new, in one process: the @peculiar/x509 pipeline the engine
// used to be (libs/x509/testing/reference-engine.ts, kept as the differential test's reference)
// against the native one in libs/x509, with Node's raw crypto.sign as the limit.
//
//   npm run build && node bench/x509-engine.js
//   BENCH_ROUNDS=5 BENCH_SECONDS=2 BENCH_CONCURRENCY=8 node bench/x509-engine.js
//
// Scenarios: sign-csr (parse + verify a CSR, build + sign + self-check its certificate) under an
// RSA-2048 and a P-256 CA; a certificate for a key generated here (build + sign + PKCS#8 export,
// key generation excluded); a CRL of 100 000 entries. Each round runs old then new for the same
// time with BENCH_CONCURRENCY operations in flight (signing runs on libuv's pool in both). Prints
// per scenario and round: operations per second of wall time and per CPU-second of this process
// (user + system, all threads: "per core"), and the new/old ratio; the median ratio last.
'use strict';
const { execFileSync } = require('node:child_process');
const { generateKeyPairSync, sign } = require('node:crypto');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist', 'libs', 'x509');
const engine = require(dist);
const reference = require(join(dist, 'testing', 'reference-engine'));

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const CRL_ENTRIES = Number(process.env.BENCH_CRL_ENTRIES ?? 100_000);
const URLS = { crlDistributionPointUrl: 'http://pki.example.test/crl/bench', caIssuersUrl: 'http://pki.example.test/ca/bench.crt' };

/** Runs `operation` with CONCURRENCY in flight for SECONDS; returns { perSecond, perCpuSecond }. */
async function measure(operation) {
  const deadline = Date.now() + SECONDS * 1000;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline) {
        await operation();
        done++;
      }
    }),
  );
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  return { perSecond: done / wall, perCpuSecond: done / ((used.user + used.system) / 1e6) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const fmt = (value) => value.toFixed(0).padStart(7);

async function compare(name, oldOperation, newOperation) {
  const ratios = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const before = await measure(oldOperation);
    const after = await measure(newOperation);
    const ratio = after.perCpuSecond / before.perCpuSecond;
    ratios.push(ratio);
    console.log(
      `${name.padEnd(34)} round ${round}: old ${fmt(before.perSecond)}/s ${fmt(before.perCpuSecond)}/cpu-s | ` +
        `new ${fmt(after.perSecond)}/s ${fmt(after.perCpuSecond)}/cpu-s | ratio ${ratio.toFixed(1)}×`,
    );
  }
  console.log(`${name.padEnd(34)} median ratio (per cpu-s) ${median(ratios).toFixed(1)}×`);
}

async function hierarchy(spec) {
  const keys = await engine.generateKeyPair(spec);
  const certificate = await engine.buildCaCertificate({
    subject: `CN=Bench ${spec.type} CA,O=Bench,C=US`,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    issuer: null,
    validDays: 3650,
    pathLength: null,
  });
  return { keys, pem: certificate.pem };
}

function opensslCsr(dir, name, keyArgs) {
  execFileSync('openssl', ['req', '-new', ...keyArgs, '-nodes', '-keyout', join(dir, `${name}.key`), '-out', join(dir, `${name}.csr`),
    '-subj', '/C=US/O=Bench/CN=bench.example.com', '-addext', 'subjectAltName=DNS:bench.example.com,DNS:www.bench.example.com'], { stdio: 'ignore' });
  return readFileSync(join(dir, `${name}.csr`), 'utf8');
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'x509-bench-'));
  try {
    console.log(`node bench/x509-engine.js (rounds ${ROUNDS}, ${SECONDS} s per side, ${CONCURRENCY} in flight, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? 4})`);
    const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const data = Buffer.alloc(700, 7);
    const started = process.hrtime.bigint();
    let signatures = 0;
    while (process.hrtime.bigint() - started < BigInt(SECONDS) * 1_000_000_000n) {
      sign('sha256', data, rsaKey);
      signatures++;
    }
    console.log(`limit: node crypto.sign RSA-2048 on the main thread ${fmt(signatures / SECONDS)}/s`);

    for (const [label, caSpec, keyArgs] of [
      ['sign-csr RSA-2048 CA, RSA-2048 CSR', { type: 'rsa', size: 2048 }, ['-newkey', 'rsa:2048']],
      ['sign-csr P-256 CA, P-256 CSR', { type: 'ec', curve: 'P-256' }, ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']],
    ]) {
      const ca = await hierarchy(caSpec);
      const csr = opensslCsr(dir, label.replace(/\W+/g, '-'), keyArgs);
      const leaf = (build, parsed) =>
        build({ subject: parsed.subjectName, publicKey: parsed.publicKey, issuerCertificate: ca.pem, issuerPrivateKey: ca.keys.privateKey,
          validDays: 90, profile: 'server', sans: parsed.sans, ...URLS });
      await compare(
        label,
        async () => leaf(reference.referenceBuildLeafCertificate, await reference.referenceParseCsr(csr)),
        async () => leaf(engine.buildLeafCertificate, await engine.parseCsr(csr)),
      );
    }

    const p256Ca = await hierarchy({ type: 'ec', curve: 'P-256' });
    const keyPool = await Promise.all(Array.from({ length: 16 }, () => engine.generateKeyPair({ type: 'ec', curve: 'P-256' })));
    let next = 0;
    const serverKey = (build) => async () => {
      const keys = keyPool[next++ % keyPool.length];
      await engine.exportPrivateKeyPem(keys.privateKey);
      return build({ subject: 'CN=device.example.com,O=Bench', publicKey: keys.publicKey, issuerCertificate: p256Ca.pem,
        issuerPrivateKey: p256Ca.keys.privateKey, validDays: 90, profile: 'server', ...URLS });
    };
    await compare('server key P-256 (keygen excluded)', serverKey(reference.referenceBuildLeafCertificate), serverKey(engine.buildLeafCertificate));

    const rsaCa = await hierarchy({ type: 'rsa', size: 2048 });
    const revokedAt = new Date();
    const entries = Array.from({ length: CRL_ENTRIES }, (_, index) => ({
      serialHex: (BigInt(index + 1) * 0x9e3779b97f4a7c15n).toString(16),
      revokedAt,
      reason: index % 3 === 0 ? null : index % 3 === 1 ? 'key_compromise' : 'superseded',
    }));
    const crlRequest = { issuerCertificate: rsaCa.pem, issuerPrivateKey: rsaCa.keys.privateKey, entries, thisUpdate: new Date(),
      nextUpdate: new Date(Date.now() + 86_400_000), crlNumber: 1 };
    for (let round = 1; round <= ROUNDS; round++) {
      let t = process.hrtime.bigint();
      await reference.referenceBuildCrl(crlRequest);
      const oldMs = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      await engine.buildCrl(crlRequest);
      const newMs = Number(process.hrtime.bigint() - t) / 1e6;
      console.log(`${`CRL of ${CRL_ENTRIES} entries`.padEnd(34)} round ${round}: old ${oldMs.toFixed(0)} ms | new ${newMs.toFixed(0)} ms | ratio ${(oldMs / newMs).toFixed(1)}×`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
