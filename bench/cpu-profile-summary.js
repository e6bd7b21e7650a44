#!/usr/bin/env node
// Summarises V8 CPU profiles (`node --cpu-prof`, e.g. the server run with
// BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"): the share of samples by where the
// code lives (an npm package, a directory of dist/, Node's internals, garbage collection, idle) and
// the functions with the most self time.
//
//   node bench/cpu-profile-summary.js /tmp/prof/*.cpuprofile [--top 25]
'use strict';
const { readFileSync } = require('node:fs');

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const TOP = topIndex === -1 ? 25 : Number(args.splice(topIndex, 2)[1]);

/** Where a frame's code lives: `pkg:<name>`, `dist:<dir>/<dir>`, `node:<module>`, or the V8 pseudo-frame. */
function placeOf({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? functionName : `(${functionName || 'native'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg:${pkg[1]}`;
  const dist = /\/dist\/((?:src|libs)\/[^/]+(?:\/[^/]+)?)\//.exec(url);
  if (dist) return `dist:${dist[1]}`;
  if (url.startsWith('node:')) return url;
  return url;
}

const byPlace = new Map();
const byFunction = new Map();
let total = 0;
for (const file of args) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const { callFrame } = nodes.get(profile.samples[i]);
    const micros = deltas[i + 1] ?? 0;
    total += micros;
    const place = placeOf(callFrame);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
    const name = `${callFrame.functionName || '(anonymous)'} ${place}:${callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
}

const busy = total - (byPlace.get('(idle)') ?? 0);
const print = (title, map) => {
  console.log(`\n${title} (share of busy samples, ${(busy / 1e6).toFixed(2)} s busy of ${(total / 1e6).toFixed(2)} s)`);
  for (const [name, micros] of [...map]
    .filter(([name]) => name !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)) {
    console.log(`${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${name}`);
  }
};
print('By place', byPlace);
print('By function (self time)', byFunction);
