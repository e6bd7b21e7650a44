#!/usr/bin/env node
// Measures the fms plugin of the built server (dist/) on a PostgreSQL server:
//
//   npm run bench:fms                       # npm run build && node bench/fms.js
//   BENCH_CABLES=20 BENCH_ROUNDS=5 BENCH_REQUESTS=200 BENCH_STRAND_CABLES=1160 node bench/fms.js
//
// 1. Creation of an 864-strand fiber cable: a ribbon-in-tube type of 6 tubes × 12 ribbons × 12 fibres
//    (templates through the API), then POST /api/plugins/fms/fiber-cables/ timed end to end, one cable
//    after the other, each on a new platform cable of type smf (target < 300 ms).
// 2. A page of strands with 1 000 000 strands in the table: GET fiber-strands/?fiber_cable_id=<id>&limit=50
//    against the same page read with SQL (the page query and count(*) on one pg connection), p50 of
//    each in alternating rounds, the side that goes first alternating (target ≤ 2×). The fiber
//    cables and strands of this scenario are inserted with SQL (INSERT … SELECT generate_series).
//
// The server gets a fresh database on BENCH_PG_ADMIN_URL (default
// postgres://postgres:postgres@127.0.0.1:5432/postgres), dropped at the end; DATABASE_URL uses a given one.
'use strict';
const { Client } = require('pg');
const {
  alternatingRounds,
  call,
  jsonReader,
  median,
  percentile,
  platformSuperuser,
  postgresDatabase,
  settle,
  startServer,
} = require('./bench-server');

const CABLES = Number(process.env.BENCH_CABLES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const STRAND_CABLES = Number(process.env.BENCH_STRAND_CABLES ?? 1160);
const TUBES = 6;
const RIBBONS_PER_TUBE = 12;
const FIBRES_PER_RIBBON = 12;
const STRANDS_PER_CABLE = TUBES * RIBBONS_PER_TUBE * FIBRES_PER_RIBBON;
const F = '/api/plugins/fms';

const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** `count` copies of a platform cable (its columns but the id), as smf cables without terminations; their ids. */
async function copyCables(db, templateId, count) {
  const columns = (
    await db.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'dcim_cable' AND column_name <> 'id'`,
    )
  ).rows.map((row) => `"${row.column_name}"`);
  const list = columns.join(', ');
  const { rows } = await db.query(
    `INSERT INTO dcim_cable (${list}) SELECT ${list} FROM dcim_cable CROSS JOIN generate_series(1, $2) WHERE id = $1 RETURNING id`,
    [templateId, count],
  );
  return rows.map((row) => row.id);
}

async function main() {
  const database = await postgresDatabase();
  const server = await startServer({ databaseUrl: database.url });
  const db = new Client({ connectionString: database.url });
  await db.connect();
  try {
    const { base } = server;
    const { auth } = await platformSuperuser(base);

    // A platform cable of type smf between two rear ports: the template the other platform cables copy.
    const site = await call(base, 'POST', '/api/dcim/sites/', { name: 'bench pop', slug: 'bench-pop' }, auth);
    const maker = await call(base, 'POST', '/api/dcim/manufacturers/', { name: 'bench maker', slug: 'bench-maker' }, auth);
    const role = await call(base, 'POST', '/api/dcim/device-roles/', { name: 'bench odf', slug: 'bench-odf' }, auth);
    const deviceType = await call(
      base,
      'POST',
      '/api/dcim/device-types/',
      { manufacturer: maker.id, model: 'bench odf', slug: 'bench-odf' },
      auth,
    );
    const odf = await call(
      base,
      'POST',
      '/api/dcim/devices/',
      { name: 'odf-1', device_type: deviceType.id, role: role.id, site: site.id },
      auth,
    );
    const rears = await call(
      base,
      'POST',
      '/api/dcim/rear-ports/',
      [1, 2].map((n) => ({ device: odf.id, name: `R${n}`, type: 'splice' })),
      auth,
    );
    const templateCable = await call(
      base,
      'POST',
      '/api/dcim/cables/',
      {
        type: 'smf',
        a_terminations: [{ object_type: 'dcim.rearport', object_id: rears[0].id }],
        b_terminations: [{ object_type: 'dcim.rearport', object_id: rears[1].id }],
      },
      auth,
    );

    const type = await call(
      base,
      'POST',
      `${F}/cable-types/`,
      {
        manufacturer: maker.id,
        model: `Ribbon ${STRANDS_PER_CABLE}`,
        construction: 'ribbon_in_tube',
        strand_count: STRANDS_PER_CABLE,
        strand_marker_interval: 12,
        strand_marker_color: '000000',
        strand_marker_type: 'ring',
      },
      auth,
    );
    const tubes = await call(
      base,
      'POST',
      `${F}/buffer-tube-templates/`,
      Array.from({ length: TUBES }, (_, i) => ({ fiber_cable_type: type.id, name: `T${i + 1}`, position: i + 1, fiber_count: null })),
      auth,
    );
    await call(
      base,
      'POST',
      `${F}/ribbon-templates/`,
      tubes.flatMap((tube, t) =>
        Array.from({ length: RIBBONS_PER_TUBE }, (_, r) => ({
          fiber_cable_type: type.id,
          buffer_tube_template: tube.id,
          name: `T${t + 1}R${r + 1}`,
          position: r + 1,
          fiber_count: FIBRES_PER_RIBBON,
        })),
      ),
      auth,
    );
    await call(
      base,
      'POST',
      `${F}/cable-element-templates/`,
      { fiber_cable_type: type.id, name: 'CSM', element_type: 'central_member' },
      auth,
    );

    const { server_version: version } = (await db.query('SHOW server_version')).rows[0];
    console.log(`database: PostgreSQL ${version.split(' ')[0]} server, fresh database; node ${process.version}`);

    // ---------------------------------------------------------------- 1. 864-strand cable creation
    const WARMUP = 2;
    const platformCables = await copyCables(db, templateCable.id, WARMUP + CABLES);
    const createTimes = [];
    const created = [];
    for (const [i, cableId] of platformCables.entries()) {
      const started = process.hrtime.bigint();
      const fiberCable = await call(base, 'POST', `${F}/fiber-cables/`, { fiber_cable_type: type.id, cable: cableId }, auth);
      const elapsed = ms(started);
      if (i >= WARMUP) createTimes.push(elapsed);
      created.push(fiberCable.id);
    }
    const built = (
      await db.query(
        `SELECT (SELECT count(*) FROM fms_fiberstrand WHERE fiber_cable_id = ANY($1))::int AS strands,
                (SELECT count(*) FROM fms_ribbon WHERE fiber_cable_id = ANY($1))::int AS ribbons,
                (SELECT count(*) FROM fms_buffertube WHERE fiber_cable_id = ANY($1))::int AS tubes`,
        [created],
      )
    ).rows[0];
    const expected = {
      strands: created.length * STRANDS_PER_CABLE,
      ribbons: created.length * TUBES * RIBBONS_PER_TUBE,
      tubes: created.length * TUBES,
    };
    if (JSON.stringify(built) !== JSON.stringify(expected))
      throw new Error(`generated components ${JSON.stringify(built)}, expected ${JSON.stringify(expected)}`);
    console.log(
      `${`POST ${F}/fiber-cables/ (${TUBES}×${RIBBONS_PER_TUBE}×${FIBRES_PER_RIBBON} = ${STRANDS_PER_CABLE} strands)`.padEnd(72)} ` +
        `p50 ${median(createTimes).toFixed(1)} ms  p90 ${percentile(createTimes, 90).toFixed(1)} ms  min ${Math.min(...createTimes).toFixed(1)} ms  max ${Math.max(...createTimes).toFixed(1)} ms ` +
        `(${CABLES} cables one after the other after ${WARMUP} warm-up; ${TUBES} tubes, ${TUBES * RIBBONS_PER_TUBE} ribbons, ${STRANDS_PER_CABLE} strands, 1 element each, all checked)`,
    );

    // ---------------------------------------------------------------- 2. a strand page among 1 000 000 strands
    const loadStarted = process.hrtime.bigint();
    const moreCables = await copyCables(db, templateCable.id, STRAND_CABLES);
    const fiberCables = (
      await db.query('INSERT INTO fms_fibercable (cable_id, fiber_cable_type_id) SELECT unnest($1::int[]), $2 RETURNING id', [
        moreCables,
        type.id,
      ])
    ).rows.map((row) => row.id);
    await db.query(
      `INSERT INTO fms_fiberstrand (fiber_cable_id, name, position, color, marker_count, marker_color, marker_type)
       SELECT f.id, 'F' || p, p, (ARRAY['0000ff','ff8000','00ff00','8b4513','708090','ffffff','ff0000','000000','ffff00','ee82ee','ff69b4','00ffff'])[1 + (p - 1) % 12],
              (p - 1) / 12 % 2, CASE WHEN (p - 1) / 12 % 2 = 1 THEN '000000' ELSE '' END, CASE WHEN (p - 1) / 12 % 2 = 1 THEN 'ring' ELSE '' END
         FROM unnest($1::int[]) AS f(id) CROSS JOIN generate_series(1, $2::int) AS p`,
      [fiberCables, STRANDS_PER_CABLE],
    );
    // Vacuumed as autovacuum would leave a table a million rows were just loaded into (visibility map
    // set, statistics read) and with the load's pages written out, now rather than at some moment during the rounds.
    await db.query('VACUUM (ANALYZE) fms_fibercable');
    await db.query('VACUUM (ANALYZE) fms_fiberstrand');
    await settle(db);
    const strandTotal = Number((await db.query('SELECT count(*) FROM fms_fiberstrand')).rows[0].count);
    console.log(
      `loaded ${fiberCables.length} fiber cables × ${STRANDS_PER_CABLE} strands with SQL in ${(ms(loadStarted) / 1000).toFixed(1)} s: ${strandTotal} strands in fms_fiberstrand`,
    );

    // Each request of a round reads another cable's first page; both sides read the same cables in the same order.
    const targets = Array.from({ length: REQUESTS }, (_, i) => fiberCables[(i * 7919) % fiberCables.length]);
    const get = jsonReader(base);
    const restPage = async (id) => {
      const started = process.hrtime.bigint();
      const page = await get(`${F}/fiber-strands/?fiber_cable_id=${id}&limit=50`, auth);
      const elapsed = ms(started);
      if (page.count !== STRANDS_PER_CABLE || page.results.length !== 50 || page.results[49].position !== 50)
        throw new Error(`REST page of fiber cable ${id}: count ${page.count}, ${page.results.length} results`);
      return elapsed;
    };
    const sqlPage = async (id) => {
      const started = process.hrtime.bigint();
      const page = await db.query(
        'SELECT * FROM fms_fiberstrand WHERE fiber_cable_id = $1 ORDER BY fiber_cable_id, position, id LIMIT 50',
        [id],
      );
      const total = await db.query('SELECT count(*)::int AS n FROM fms_fiberstrand WHERE fiber_cable_id = $1', [id]);
      const elapsed = ms(started);
      if (total.rows[0].n !== STRANDS_PER_CABLE || page.rows.length !== 50)
        throw new Error(`SQL page of fiber cable ${id}: count ${total.rows[0].n}, ${page.rows.length} rows`);
      return elapsed;
    };
    const { api, sql, ratio, ratios } = await alternatingRounds({
      rounds: ROUNDS,
      inputs: targets,
      apiRead: restPage,
      sqlRead: sqlPage,
      apiLabel: 'REST',
    });
    console.log(
      `${`GET ${F}/fiber-strands/?fiber_cable_id=…&limit=50 vs SQL`.padEnd(72)} ` +
        `REST p50 ${api.toFixed(2)} ms  SQL p50 ${sql.toFixed(2)} ms  ratio ${ratio.toFixed(2)} ` +
        `(median of ${ROUNDS} alternating rounds of ${REQUESTS} sequential reads; per round ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    // The floor under any page: an authenticated answer whose only statement is the token lookup
    // (the plugin's API root, a fixed list of links), same client.
    const floor = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = process.hrtime.bigint();
      await get(`${F}/`, auth);
      floor.push(ms(started));
    }
    console.log(
      `${`GET ${F}/ (API root: the token lookup only), same client`.padEnd(72)} p50 ${median(floor).toFixed(2)} ms ` +
        `(${(median(floor) / sql).toFixed(2)} × the SQL page's p50; ${REQUESTS} sequential reads)`,
    );
    console.log(
      `command: BENCH_CABLES=${CABLES} BENCH_ROUNDS=${ROUNDS} BENCH_REQUESTS=${REQUESTS} BENCH_STRAND_CABLES=${STRAND_CABLES} npm run bench:fms`,
    );
  } finally {
    await db.end();
    await server.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
