#!/usr/bin/env node
// Measures two DCIM reads of the built server (dist/) on a fresh PostgreSQL database:
//
//   npm run build && node bench/dcim.js
//   BENCH_DEVICES=100000 BENCH_ROUNDS=5 BENCH_REQUESTS=50 node bench/dcim.js
//   PGOPTIONS='-c jit=off' node bench/dcim.js     (the session settings of both servers and the SQL side)
//
// 1. GET /api/dcim/devices/?limit=50&offset=… over BENCH_DEVICES devices (inserted with SQL, each in a
//    rack, with a site, location, role, type, manufacturer and tenant), against the same page read in
//    SQL on one pg connection (the page with the names of its nested site, rack, role, type and tenant
//    as JSON, and the count).
// 2. GET /api/dcim/interfaces/{id}/trace/ over a 6-cable path (interface → 5 patch panels, front and rear → interface,
//    made through the API so the path is stored), against the stored path and its objects' names read
//    in SQL.
// 3. Both requests against bench/bare-dcim-server.js (node:http + pg, one process, the product's
//    statements, the same answer bytes), whose answers are checked byte for byte against ours (same
//    Host header) before the rounds: the run stops if any differs.
// p50 of each side in rounds whose order rotates, p99 over all of a side's reads; our ratio to the
// bare server (the target: p50 ≤ 1.5×) and to SQL.
'use strict';
const { fork } = require('node:child_process');
const http = require('node:http');
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

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50);

const SECRET_KEY = 'bench-secret-key-bench-secret-key-123456';
/** PGOPTIONS (`-c jit=off`), when set, for both servers' PostgreSQL sessions alike. */
const SESSION_OPTIONS = process.env.PGOPTIONS ? { PGOPTIONS: process.env.PGOPTIONS } : {};
const HOST = 'inventory.bench';

const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** The answer's bytes, with the Host header both servers build their URLs from. */
function bodyOf(base, path, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers: { ...headers, host: HOST } }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

async function startBare(databaseUrl) {
  const port = await freePort();
  const bare = fork(require.resolve('./bare-dcim-server'), [], {
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, PORT: String(port), SECRET_KEY, ...SESSION_OPTIONS },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    bare.once('message', resolve);
    bare.once('exit', () => reject(new Error('bare server exited')));
  });
  return { bare, base: `http://127.0.0.1:${port}` };
}

async function main() {
  const database = await postgresDatabase();
  const server = await startServer({ databaseUrl: database.url, env: SESSION_OPTIONS });
  const db = new Client({ connectionString: database.url });
  await db.connect();
  let bare;
  try {
    const { base } = server;
    const { auth } = await platformSuperuser(base);
    const post = (path, body) => call(base, 'POST', `/api/dcim/${path}/`, body, auth);
    const site = await post('sites', { name: 'bench dc', slug: 'bench-dc' });
    const location = await post('locations', { name: 'hall 1', slug: 'hall-1', site: site.id });
    const manufacturer = await post('manufacturers', { name: 'bench maker', slug: 'bench-maker' });
    const deviceType = await post('device-types', { manufacturer: manufacturer.id, model: 'B-1', slug: 'b-1', u_height: 0 });
    const role = await post('device-roles', { name: 'bench role', slug: 'bench-role' });
    const tenant = await call(base, 'POST', '/api/tenancy/tenants/', { name: 'bench tenant', slug: 'bench-tenant' }, auth);
    const rack = await post('racks', { name: 'R1', site: site.id, location: location.id });

    const loadStarted = process.hrtime.bigint();
    await db.query(
      `INSERT INTO dcim_device (name, device_type_id, role_id, tenant_id, site_id, location_id, rack_id, serial)
       SELECT 'dev-' || lpad(n::text, 7, '0'), $2, $3, $4, $5, $6, $7, 'SN' || n FROM generate_series(1, $1) AS n`,
      [DEVICES, deviceType.id, role.id, tenant.id, site.id, location.id, rack.id],
    );
    await db.query('VACUUM (ANALYZE) dcim_device');
    await settle(db);
    console.log(`loaded ${DEVICES} devices with SQL in ${(ms(loadStarted) / 1000).toFixed(1)} s`);

    // The 6-cable path: A.eth0 → P1 front/rear → P2 rear/front → P3 front/rear → P4 rear/front → P5 front/rear → B.eth0.
    const device = (name) => post('devices', { name, device_type: deviceType.id, role: role.id, site: site.id });
    const endA = await device('end-a');
    const endB = await device('end-b');
    const ifA = await post('interfaces', { device: endA.id, name: 'eth0', type: '10gbase-x-sfpp' });
    const ifB = await post('interfaces', { device: endB.id, name: 'eth0', type: '10gbase-x-sfpp' });
    const panels = [];
    for (let i = 1; i <= 5; i++) {
      const panel = await device(`panel-${i}`);
      const rear = await post('rear-ports', { device: panel.id, name: 'R1', type: 'mpo', positions: 1 });
      const front = await post('front-ports', {
        device: panel.id,
        name: 'F1',
        type: 'lc',
        rear_ports: [{ position: 1, rear_port: rear.id, rear_port_position: 1 }],
      });
      panels.push({ rear, front });
    }
    const cable = (a, b) =>
      post('cables', {
        a_terminations: [{ object_type: a[0], object_id: a[1] }],
        b_terminations: [{ object_type: b[0], object_id: b[1] }],
      });
    await cable(['dcim.interface', ifA.id], ['dcim.frontport', panels[0].front.id]);
    await cable(['dcim.rearport', panels[0].rear.id], ['dcim.rearport', panels[1].rear.id]);
    await cable(['dcim.frontport', panels[1].front.id], ['dcim.frontport', panels[2].front.id]);
    await cable(['dcim.rearport', panels[2].rear.id], ['dcim.rearport', panels[3].rear.id]);
    await cable(['dcim.frontport', panels[3].front.id], ['dcim.frontport', panels[4].front.id]);
    await cable(['dcim.rearport', panels[4].rear.id], ['dcim.interface', ifB.id]);
    const get = jsonReader(base);
    const trace = await get(`/api/dcim/interfaces/${ifA.id}/trace/`, auth);
    if (trace.length !== 6) throw new Error(`the trace crosses ${trace.length} cables, not 6`);
    console.log(`trace of ${trace.length} cables, ending at ${trace.at(-1)[2][0].device.name} ${trace.at(-1)[2][0].name}`);

    const pages = Array.from({ length: REQUESTS }, (_, i) => ((i * 7919) % Math.floor(DEVICES / 50)) * 50);
    const started = await startBare(database.url);
    bare = started.bare;
    const bareGet = jsonReader(started.base);
    const last = Math.floor((DEVICES + 6) / 50) * 50;
    for (const path of [
      ...[0, 50, last, ...pages.slice(0, 5)].map((offset) => `/api/dcim/devices/?limit=50&offset=${offset}`),
      `/api/dcim/interfaces/${ifA.id}/trace/`,
    ]) {
      const [ours, floor] = [await bodyOf(base, path, auth), await bodyOf(started.base, path, auth)];
      if (ours.status !== 200 || floor.status !== 200 || ours.text !== floor.text) {
        throw new Error(
          `${path}: the bare server's answer differs\n ours (${ours.status}): ${ours.text}\n bare (${floor.status}): ${floor.text}`,
        );
      }
    }
    console.log('the bare server answers byte for byte as ours (device pages, trace)');
    const listReader = (read) => async (offset) => {
      const started = process.hrtime.bigint();
      const page = await read(`/api/dcim/devices/?limit=50&offset=${offset}`, auth);
      const elapsed = ms(started);
      if (page.results.length !== 50 || !page.results[0].rack) throw new Error(`device page at ${offset}: ${page.results.length}`);
      return elapsed;
    };
    const listSql = async (offset) => {
      const started = process.hrtime.bigint();
      const rows = await db.query(
        `SELECT d.*, json_build_object('id', s.id, 'name', s.name, 'slug', s.slug) AS site_json,
                json_build_object('id', r.id, 'name', r.name) AS rack_json,
                json_build_object('id', dr.id, 'name', dr.name, 'slug', dr.slug) AS role_json,
                json_build_object('id', t.id, 'model', t.model, 'manufacturer', json_build_object('id', m.id, 'name', m.name)) AS type_json,
                json_build_object('id', tn.id, 'name', tn.name, 'slug', tn.slug) AS tenant_json
           FROM (SELECT * FROM dcim_device ORDER BY name, id LIMIT 50 OFFSET $1) d JOIN dcim_site s ON s.id = d.site_id LEFT JOIN dcim_rack r ON r.id = d.rack_id
           JOIN dcim_devicerole dr ON dr.id = d.role_id JOIN dcim_devicetype t ON t.id = d.device_type_id
           JOIN dcim_manufacturer m ON m.id = t.manufacturer_id LEFT JOIN tenancy_tenant tn ON tn.id = d.tenant_id
          ORDER BY d.name, d.id`,
        [offset],
      );
      await db.query('SELECT count(*) FROM dcim_device');
      const elapsed = ms(started);
      if (rows.rows.length !== 50) throw new Error('SQL device page');
      return elapsed;
    };
    const traceReader = (read) => async () => {
      const started = process.hrtime.bigint();
      const segments = await read(`/api/dcim/interfaces/${ifA.id}/trace/`, auth);
      const elapsed = ms(started);
      if (segments.length !== trace.length) throw new Error('trace length');
      return elapsed;
    };
    const traceSql = async () => {
      const started = process.hrtime.bigint();
      const [path] = (await db.query(`SELECT path FROM dcim_cablepath WHERE origin_type = 'dcim.interface' AND origin_id = $1`, [ifA.id]))
        .rows;
      await db.query(
        `SELECT n.node, coalesce(i.name, f.name, r.name, c.label) AS name
           FROM unnest($1::text[]) AS n(node)
           LEFT JOIN dcim_interface i ON n.node = 'dcim.interface:' || i.id
           LEFT JOIN dcim_frontport f ON n.node = 'dcim.frontport:' || f.id
           LEFT JOIN dcim_rearport r ON n.node = 'dcim.rearport:' || r.id
           LEFT JOIN dcim_cable c ON n.node = 'dcim.cable:' || c.id`,
        [path.path.flat().map(([type, id]) => `${type}:${id}`)],
      );
      return ms(started);
    };

    const report = (title, figures) => {
      const bareRatios = figures.rounds.map((round) => round.api / round.third);
      const ratio = median(bareRatios);
      console.log(
        `${title}: ours p50 ${figures.api.toFixed(2)} ms, p99 ${figures.apiP99.toFixed(2)} ms; ` +
          `bare server p50 ${figures.other.p50.toFixed(2)} ms, p99 ${figures.other.p99.toFixed(2)} ms; ` +
          `ratio ${ratio.toFixed(2)} (per round ${bareRatios.map((r) => r.toFixed(2)).join(', ')}; target ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'not met'}); ` +
          `SQL p50 ${figures.sql.toFixed(2)} ms, ours to SQL ${figures.ratio.toFixed(2)}`,
      );
    };
    const list = await alternatingRounds({
      rounds: ROUNDS,
      inputs: pages,
      apiRead: listReader(get),
      sqlRead: listSql,
      apiLabel: 'device list',
      other: { label: 'bare server', read: listReader(bareGet) },
    });
    const traced = await alternatingRounds({
      rounds: ROUNDS,
      inputs: Array.from({ length: REQUESTS }, (_, i) => i),
      apiRead: traceReader(get),
      sqlRead: traceSql,
      apiLabel: 'trace',
      other: { label: 'bare server', read: traceReader(bareGet) },
    });
    console.log(`load average ${require('node:os').loadavg()[0].toFixed(1)}`);
    report(`GET /api/dcim/devices/?limit=50 (of ${DEVICES}, nested site, rack, role, type, tenant)`, list);
    report(`GET /api/dcim/interfaces/{id}/trace/ (${trace.length} cables)`, traced);
    const sessionOptions = process.env.PGOPTIONS ? `PGOPTIONS='${process.env.PGOPTIONS}' ` : '';
    console.log(`command: ${sessionOptions}BENCH_DEVICES=${DEVICES} BENCH_ROUNDS=${ROUNDS} BENCH_REQUESTS=${REQUESTS} node bench/dcim.js`);
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
