#!/usr/bin/env node
// Measures the pathways plugin's structures layer of the built server (dist/) on a PostgreSQL server:
//
//   npm run bench:pathways                  # npm run build && node bench/pathways.js
//   BENCH_STRUCTURES=1000000 BENCH_ROUNDS=5 BENCH_REQUESTS=50 node bench/pathways.js
//
// 1 000 000 structures on a 1000 × 1000 grid (0.01° apart, longitudes 0–9.99, latitudes 40–49.99) are
// inserted with SQL (INSERT … SELECT generate_series, bounding boxes included), then
// GET /api/plugins/pathways/geo/structures/?bbox=… over a box holding exactly 2000 of them (40 × 50 grid
// points; each request another box) is timed against the same read in raw SQL on one pg connection
// (the rows with their site names, ordered as the layer, and the count of matches): p50 of each in
// rounds, the order of the sides rotating. Targets (docs/performance.md): p50 within 2× of SQL and
// under 100 ms. EXPLAIN of the bbox query must show the GiST index (pathways_structure_bbox_gist).
// In the same rounds, not part of the ratio, the floor under this layer: bench/bare-layer-server.js, a
// bare node:http server running the layer's own statement and body code without the framework (its
// answer checked to carry the layer's ETag). Then the layer's time from the client split at the
// answer's last byte, and the floor under any answer (the plugin's API root, the token lookup its
// only statement).
//
// The server gets a fresh database on BENCH_PG_ADMIN_URL (default
// postgres://postgres:postgres@127.0.0.1:5432/postgres), dropped at the end; DATABASE_URL uses a given one.
'use strict';
const { fork } = require('node:child_process');
const { Client } = require('pg');
const {
  alternatingRounds,
  call,
  freePort,
  jsonReader,
  median,
  platformSuperuser,
  postgresDatabase,
  settle,
  startServer,
} = require('./bench-server');

const STRUCTURES = Number(process.env.BENCH_STRUCTURES ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50);
const SIDE = Math.round(Math.sqrt(STRUCTURES));
const STEP = 0.01;
const G = '/api/plugins/pathways/geo';

const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** A box of 40 × 50 grid points starting at grid column `col`, row `row` (half a step of margin on each side). */
function boxAt(col, row) {
  const west = col * STEP - STEP / 2;
  const south = 40 + row * STEP - STEP / 2;
  return [west, south, west + 40 * STEP, south + 50 * STEP].map((value) => Number(value.toFixed(4)));
}

async function main() {
  const database = await postgresDatabase();
  const server = await startServer({ databaseUrl: database.url });
  const db = new Client({ connectionString: database.url });
  await db.connect();
  let bare;
  try {
    const { base } = server;
    const { auth } = await platformSuperuser(base);
    const site = await call(base, 'POST', '/api/dcim/sites/', { name: 'bench area', slug: 'bench-area' }, auth);
    const version = (await db.query('SHOW server_version')).rows[0].server_version;
    console.log(`database: PostgreSQL ${version.split(' ')[0]} server, fresh database; node ${process.version}`);

    const loadStarted = process.hrtime.bigint();
    await db.query(
      `INSERT INTO pathways_structure (name, status, structure_type, site_id, elevation, geometry, bbox)
       SELECT 'S-' || lpad(n::text, 7, '0'), 'active', 'manhole', $2, 1.5,
              jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(round((n % $3) * 0.01, 2), round(40 + (n / $3) * 0.01, 2))),
              box(point(round((n % $3) * 0.01, 2), round(40 + (n / $3) * 0.01, 2)), point(round((n % $3) * 0.01, 2), round(40 + (n / $3) * 0.01, 2)))
         FROM generate_series(0, $1 - 1) AS n`,
      [STRUCTURES, site.id, SIDE],
    );
    // Vacuumed as autovacuum would leave it, and the load's pages written out, now rather than at some
    // moment during the rounds.
    await db.query('VACUUM (ANALYZE) pathways_structure');
    await settle(db);
    const total = Number((await db.query('SELECT count(*) FROM pathways_structure')).rows[0].count);
    console.log(`loaded ${total} structures with SQL in ${(ms(loadStarted) / 1000).toFixed(1)} s`);

    const boxes = Array.from({ length: REQUESTS }, (_, i) => boxAt((i * 37) % (SIDE - 40), (i * 53) % (SIDE - 50)));
    const sqlBox = ([west, south, east, north]) => `(${east},${north}),(${west},${south})`;
    const plan = (
      await db.query(`EXPLAIN SELECT id FROM pathways_structure WHERE bbox && $1::box ORDER BY name, id`, [sqlBox(boxes[0])])
    ).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    console.log(`EXPLAIN of the bbox query:\n${plan}`);
    console.log(`GiST index used: ${plan.includes('pathways_structure_bbox_gist') ? 'yes' : 'NO'}`);

    const get = jsonReader(base);
    const restRead = async (box) => {
      const started = process.hrtime.bigint();
      const collection = await get(`${G}/structures/?bbox=${box.join(',')}`, auth);
      const elapsed = ms(started);
      if (collection.features.length !== 2000 || collection.truncated || collection.total_count !== 2000)
        throw new Error(`layer for ${box}: ${collection.features.length} features, total ${collection.total_count}`);
      return elapsed;
    };
    const sqlRead = async (box) => {
      const started = process.hrtime.bigint();
      const rows = await db.query(
        `SELECT s.id, s.name, s.structure_type, s.status, s.elevation, s.installation_date, s.geometry, site.name AS site
           FROM pathways_structure s LEFT JOIN dcim_site site ON site.id = s.site_id
          WHERE s.bbox && $1::box ORDER BY s.name, s.id LIMIT 2000`,
        [sqlBox(box)],
      );
      const count = await db.query('SELECT count(*)::int AS n FROM pathways_structure WHERE bbox && $1::box', [sqlBox(box)]);
      const elapsed = ms(started);
      if (rows.rows.length !== 2000 || count.rows[0].n !== 2000) throw new Error(`SQL for ${box}: ${rows.rows.length} rows`);
      return elapsed;
    };

    // The floor under the layer: the same answer from a bare server without the framework.
    const digest = (await db.query('SELECT key_digest FROM users_token ORDER BY id DESC LIMIT 1')).rows[0].key_digest;
    const barePort = await freePort();
    bare = fork(`${__dirname}/bare-layer-server.js`, {
      env: { ...process.env, DATABASE_URL: database.url, PORT: String(barePort), TOKEN_DIGEST: digest },
    });
    await new Promise((resolve, reject) => {
      bare.once('message', resolve);
      bare.once('exit', (code) => reject(new Error(`bare layer server exited with ${code}`)));
    });
    // The same answer as the layer's, byte for byte: the same ETag.
    const etagOf = async (url, headers) => (await fetch(url, { headers })).headers.get('etag');
    const query = `?bbox=${boxes[0].join(',')}`;
    const [layerTag, bareTag] = [
      await etagOf(`${base}${G}/structures/${query}`, auth),
      await etagOf(`http://127.0.0.1:${barePort}/${query}`),
    ];
    if (layerTag !== bareTag) throw new Error(`the bare server's answer differs from the layer's: ETag ${bareTag}, layer ${layerTag}`);
    const bareGet = jsonReader(`http://127.0.0.1:${barePort}`);
    const bareRead = async (box) => {
      const started = process.hrtime.bigint();
      const collection = await bareGet(`/?bbox=${box.join(',')}`);
      const elapsed = ms(started);
      if (collection.features.length !== 2000 || collection.total_count !== 2000)
        throw new Error(`bare layer for ${box}: ${collection.features.length} features`);
      return elapsed;
    };

    const { api, sql, ratio, ratios, other } = await alternatingRounds({
      rounds: ROUNDS,
      inputs: boxes,
      apiRead: restRead,
      sqlRead,
      apiLabel: 'layer',
      other: { label: 'bare server', read: bareRead },
    });
    console.log(
      `GET ${G}/structures/?bbox=… (2000 of ${total}) vs SQL: layer p50 ${api.toFixed(2)} ms  ` +
        `SQL p50 ${sql.toFixed(2)} ms  ratio ${ratio.toFixed(2)} ` +
        `(median of ${ROUNDS} rounds of ${REQUESTS} sequential reads, the order of the sides rotating; per round ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    console.log(
      `the same answer from a bare node:http server (bench/bare-layer-server.js: the token lookup, the layer's statement and body, no framework), same rounds: ` +
        `p50 ${other.p50.toFixed(2)} ms  ratio ${other.ratio.toFixed(2)} (per round ${other.ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    // Where the layer's time goes, from the client: to the answer's last byte, then decoding and
    // parsing its JSON (which the SQL side's rows, parsed by pg as they arrive, do not pay apart); and
    // the floor under any answer, the plugin's API root, whose only statement is the token lookup.
    const timings = [];
    const timed = jsonReader(base, { timings });
    for (const box of boxes) await timed(`${G}/structures/?bbox=${box.join(',')}`, auth);
    const floor = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = process.hrtime.bigint();
      await get('/api/plugins/pathways/', auth);
      floor.push(ms(started));
    }
    console.log(
      `the layer from the client (${REQUESTS} more reads): last byte p50 ${median(timings.map((t) => t.lastByte)).toFixed(2)} ms, ` +
        `then decoding and JSON.parse p50 ${median(timings.map((t) => t.parse)).toFixed(2)} ms; ` +
        `GET /api/plugins/pathways/ (token lookup only) p50 ${median(floor).toFixed(2)} ms`,
    );

    console.log(`command: BENCH_STRUCTURES=${STRUCTURES} BENCH_ROUNDS=${ROUNDS} BENCH_REQUESTS=${REQUESTS} npm run bench:pathways`);
  } finally {
    bare?.kill();
    await db.end();
    await server.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
