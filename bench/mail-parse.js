#!/usr/bin/env node
// Measures the carrier parsers of libs/mail (built: dist/) over the fixture set, beside the raw MIME
// parse of the same emails, in one run:
//
//   npm run build && npm run bench:mail        # node bench/mail-parse.js
//   BENCH_ROUNDS=20 node bench/mail-parse.js
//
// Every test/fixtures/mail/<parser>/<case>.eml with its expected .json is read into memory. Each round
// takes every email twice, in alternating order: the MIME parse alone (mailparser: parseRawEmail) and
// the parsers alone on the decoded email (readMaintenanceEmail: the registry lookup, the carrier's
// reading, its notes). Reported: emails per second of the whole parse (MIME + parsers), the per-email
// p50 and p99 of the whole parse, and the parsers' time as a ratio of the MIME parse's (summed over
// the rounds). Targets (docs/mail-integration.md): parsers ≤ 2× the MIME parse; p99 < 50 ms.
'use strict';
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const FIXTURES = join(__dirname, '..', 'test', 'fixtures', 'mail');
const LIBRARY = join(__dirname, '..', 'dist', 'libs', 'mail', 'index.js');

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  if (!existsSync(LIBRARY)) throw new Error(`${LIBRARY} is missing: run npm run build first`);
  const { parseRawEmail, readMaintenanceEmail } = require(LIBRARY);
  const emails = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((directory) =>
      readdirSync(join(FIXTURES, directory.name))
        .filter((file) => file.endsWith('.eml') && existsSync(join(FIXTURES, directory.name, file.replace(/\.eml$/, '.json'))))
        .map((file) => ({ name: `${directory.name}/${file}`, raw: readFileSync(join(FIXTURES, directory.name, file)) })),
    );
  if (!emails.length) throw new Error('no fixtures with expected records');
  // Warm-up: every code path once (lazy requires, JIT), each email checked to give records.
  for (const { name, raw } of emails) {
    const result = await readMaintenanceEmail(await parseRawEmail(raw));
    if (!result.maintenances.length) throw new Error(`${name}: no records`);
  }
  const mimeTimes = [];
  const parserTimes = [];
  const totals = new Map(emails.map(({ name }) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { name, raw }] of emails.entries()) {
      let mime = 0;
      let parsers = 0;
      const runMime = async () => {
        const started = performance.now();
        const email = await parseRawEmail(raw);
        mime = performance.now() - started;
        return email;
      };
      const runParsers = async (email) => {
        const started = performance.now();
        await readMaintenanceEmail(email);
        parsers = performance.now() - started;
      };
      // Alternate which side runs first, so neither always meets a warm or a cold cache.
      if ((round + index) % 2 === 0) await runParsers(await runMime());
      else {
        const decoded = await parseRawEmail(raw);
        await runParsers(decoded);
        await runMime();
      }
      mimeTimes.push(mime);
      parserTimes.push(parsers);
      totals.get(name).push(mime + parsers);
    }
  }
  const all = [...totals.values()].flat().sort((a, b) => a - b);
  const sum = (values) => values.reduce((total, value) => total + value, 0);
  const mimeSum = sum(mimeTimes);
  const parserSum = sum(parserTimes);
  const ratio = parserSum / mimeSum;
  const p50 = percentile(all, 50);
  const p99 = percentile(all, 99);
  const slowest = [...totals.entries()].map(([name, times]) => [name, Math.max(...times)]).sort((a, b) => b[1] - a[1])[0];
  const lines = [
    `${emails.length} emails × ${ROUNDS} rounds (test/fixtures/mail/*/*.eml)`,
    `whole parse (MIME + parsers): ${((emails.length * ROUNDS) / ((mimeSum + parserSum) / 1000)).toFixed(0)} emails/s, per email p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`,
    `MIME parse (mailparser) alone: ${(mimeSum / mimeTimes.length).toFixed(2)} ms/email; parsers alone: ${(parserSum / parserTimes.length).toFixed(2)} ms/email`,
    `parsers / MIME parse: ${ratio.toFixed(2)}× (target ≤ 2×)   p99 ${p99.toFixed(2)} ms (target < 50 ms)   slowest email: ${slowest[0]} ${slowest[1].toFixed(2)} ms`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (ratio > 2 || p99 >= 50) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
