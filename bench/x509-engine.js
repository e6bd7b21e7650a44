#!/usr/bin/env node
// The X.509 engine alone, in one process: the @peculiar/x509 reference engine ("old":
// libs/x509/testing/reference-engine.ts, also the differential test's reference) against the native
// one in libs/x509 ("new"), with Node's raw crypto.sign as the limit.
//
//   npm run build && node bench/x509-engine.js
//   BENCH_ROUNDS=5 BENCH_SECONDS=2 BENCH_CONCURRENCY=8 node bench/x509-engine.js
//
// Scenarios: sign-csr (parse + verify a CSR, build + sign + self-check its certificate) under an
// RSA-2048 and a P-256 CA; a certificate for a key generated here (build + sign + PKCS#8 export,
// key generation excluded); CRLs: old against new at 10 000 entries (the reference engine needs
// minutes for 100 000), then the new one alone at 100 000. Each round runs old then new for the same
// time with BENCH_CONCURRENCY operations in flight (signing runs on libuv's pool in both). Prints
// per scenario and round: operations per second of wall time, per CPU-second of this process (user +
// system, all threads: "per core"), the main thread's CPU per operation (Linux), and the new/old
// ratio per CPU-second; the median ratio last. The machine's other load moves the absolute figures,
// not the ratio much: compare within one run.
'use strict';
const { execFileSync } = require('node:child_process');
const { generateKeyPairSync, sign } = require('node:crypto');
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist', 'libs', 'x509');
const engine = require(dist);
const reference = require(join(dist, 'testing', 'reference-engine'));

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const CRL_COMPARED_ENTRIES = Number(process.env.BENCH_CRL_COMPARED_ENTRIES ?? 10_000);
const CRL_ENTRIES = Number(process.env.BENCH_CRL_ENTRIES ?? 100_000);
const URLS = { crlDistributionPointUrl: 'http://pki.example.test/crl/bench', caIssuersUrl: 'http://pki.example.test/ca/bench.crt' };

const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/stat`;
const TICKS_PER_SECOND = 100;

/** CPU seconds the main (event loop) thread has used, or NaN where /proc is not there. */
function mainThreadCpuSeconds() {
  if (!existsSync(MAIN_THREAD_STAT)) return NaN;
  const fields = readFileSync(MAIN_THREAD_STAT, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Runs `operation` with CONCURRENCY in flight for SECONDS; returns { perSecond, perCpuSecond, mainMicros }. */
async function measure(operation) {
  const deadline = Date.now() + SECONDS * 1000;
  const mainBefore = mainThreadCpuSeconds();
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
  const mainMicros = ((mainThreadCpuSeconds() - mainBefore) * 1e6) / done;
  return { perSecond: done / wall, perCpuSecond: done / ((used.user + used.system) / 1e6), mainMicros };
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
      `${name.padEnd(34)} round ${round}: old ${fmt(before.perSecond)}/s ${fmt(before.perCpuSecond)}/cpu-s ${fmt(before.mainMicros)} µs main | ` +
        `new ${fmt(after.perSecond)}/s ${fmt(after.perCpuSecond)}/cpu-s ${fmt(after.mainMicros)} µs main | ratio ${ratio.toFixed(1)}×`,
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
  execFileSync(
    'openssl',
    [
      'req',
      '-new',
      ...keyArgs,
      '-nodes',
      '-keyout',
      join(dir, `${name}.key`),
      '-out',
      join(dir, `${name}.csr`),
      '-subj',
      '/C=US/O=Bench/CN=bench.example.com',
      '-addext',
      'subjectAltName=DNS:bench.example.com,DNS:www.bench.example.com',
    ],
    { stdio: 'ignore' },
  );
  return readFileSync(join(dir, `${name}.csr`), 'utf8');
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'x509-bench-'));
  try {
    console.log(
      `node bench/x509-engine.js (rounds ${ROUNDS}, ${SECONDS} s per side, ${CONCURRENCY} in flight, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? 4})`,
    );
    const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const data = Buffer.alloc(700, 7);
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    let signatures = 0;
    while (process.hrtime.bigint() - started < BigInt(SECONDS) * 1_000_000_000n) {
      sign('sha256', data, rsaKey);
      signatures++;
    }
    const used = process.cpuUsage(cpu);
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(
      `limit: node crypto.sign RSA-2048 alone ${fmt(signatures / wall)}/s ${fmt(signatures / ((used.user + used.system) / 1e6))}/cpu-s`,
    );

    for (const [label, caSpec, keyArgs] of [
      ['sign-csr RSA-2048 CA, RSA-2048 CSR', { type: 'rsa', size: 2048 }, ['-newkey', 'rsa:2048']],
      ['sign-csr P-256 CA, P-256 CSR', { type: 'ec', curve: 'P-256' }, ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']],
    ]) {
      const ca = await hierarchy(caSpec);
      const csr = opensslCsr(dir, label.replace(/\W+/g, '-'), keyArgs);
      const leaf = (build, parsed) =>
        build({
          subject: parsed.subjectName,
          publicKey: parsed.publicKey,
          issuerCertificate: ca.pem,
          issuerPrivateKey: ca.keys.privateKey,
          validDays: 90,
          profile: 'server',
          sans: parsed.sans,
          ...URLS,
        });
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
      return build({
        subject: 'CN=device.example.com,O=Bench',
        publicKey: keys.publicKey,
        issuerCertificate: p256Ca.pem,
        issuerPrivateKey: p256Ca.keys.privateKey,
        validDays: 90,
        profile: 'server',
        ...URLS,
      });
    };
    await compare(
      'server key P-256 (keygen excluded)',
      serverKey(reference.referenceBuildLeafCertificate),
      serverKey(engine.buildLeafCertificate),
    );

    const rsaCa = await hierarchy({ type: 'rsa', size: 2048 });
    const crlRequest = (count) => {
      const revokedAt = new Date();
      const entries = Array.from({ length: count }, (_, index) => ({
        serialHex: ((BigInt(index + 1) * 0x9e3779b97f4a7c15n) << 64n).toString(16),
        revokedAt,
        reason: index % 3 === 0 ? null : index % 3 === 1 ? 'key_compromise' : 'superseded',
      }));
      return {
        issuerCertificate: rsaCa.pem,
        issuerPrivateKey: rsaCa.keys.privateKey,
        entries,
        thisUpdate: new Date(),
        nextUpdate: new Date(Date.now() + 86_400_000),
        crlNumber: 1,
      };
    };
    const timed = async (build, request) => {
      const cpu = process.cpuUsage();
      const started = process.hrtime.bigint();
      await build(request);
      const used = process.cpuUsage(cpu);
      return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: (used.user + used.system) / 1000 };
    };
    const compared = crlRequest(CRL_COMPARED_ENTRIES);
    const ratios = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const before = await timed(reference.referenceBuildCrl, compared);
      const after = await timed(engine.buildCrl, compared);
      ratios.push(before.cpuMs / after.cpuMs);
      console.log(
        `${`CRL of ${CRL_COMPARED_ENTRIES} entries`.padEnd(34)} round ${round}: old ${before.wallMs.toFixed(0)} ms (${before.cpuMs.toFixed(0)} ms cpu) | ` +
          `new ${after.wallMs.toFixed(0)} ms (${after.cpuMs.toFixed(0)} ms cpu) | ratio ${(before.cpuMs / after.cpuMs).toFixed(0)}×`,
      );
    }
    console.log(`${`CRL of ${CRL_COMPARED_ENTRIES} entries`.padEnd(34)} median ratio (per cpu-s) ${median(ratios).toFixed(0)}×`);
    const large = crlRequest(CRL_ENTRIES);
    for (let round = 1; round <= ROUNDS; round++) {
      const { wallMs, cpuMs } = await timed(engine.buildCrl, large);
      console.log(
        `${`CRL of ${CRL_ENTRIES} entries, new`.padEnd(34)} round ${round}: ${wallMs.toFixed(0)} ms (${cpuMs.toFixed(0)} ms cpu)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
