#!/usr/bin/env node
// Measures the platform API of the built server (dist/): list, filter, brief and GraphQL reads of
// sites, site creation, and device instantiation (a 48-port patch panel type).
//
//   npm run build && node bench/platform-rest.js                     # embedded PGlite in a temp dir
//   DATABASE_URL=postgres://... node bench/platform-rest.js          # a PostgreSQL server (fresh database advised)
//   BENCH_SECONDS=20 BENCH_CONNECTIONS=16 node bench/platform-rest.js
//
// Seeds 1000 sites (5 tenants, tags on a third), then runs autocannon against each read scenario and
// against POST /api/dcim/sites/ with a unique name per request; finally creates devices one after the
// other and reports the time per device (48 front ports, 4 rear ports, 48 mappings each).
'use strict';
const { call, describeRun, platformSuperuser, run, withServer } = require('./bench-server');

const DEVICES = Number(process.env.BENCH_DEVICES ?? 10);

async function main() {
  await withServer({}, async ({ base }) => {
    const { username: runId, auth } = await platformSuperuser(base);

    const tenants = await call(
      base,
      'POST',
      '/api/tenancy/tenants/',
      Array.from({ length: 5 }, (_, i) => ({ name: `${runId} T${i}`, slug: `${runId}-t${i}` })),
      auth,
    );
    const [tag] = await call(base, 'POST', '/api/extras/tags/', [{ name: `${runId} gold`, slug: `${runId}-gold` }], auth);
    for (let batch = 0; batch < 10; batch++) {
      await call(
        base,
        'POST',
        '/api/dcim/sites/',
        Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i;
          return {
            name: `${runId} site-${n}`,
            slug: `${runId}-site-${n}`,
            status: n % 2 ? 'planned' : 'active',
            tenant: tenants[n % 5].id,
            tags: n % 3 === 0 ? [tag.id] : [],
          };
        }),
        auth,
      );
    }
    console.log(`${describeRun()}; 1000 sites`);
    await run('GET /api/dcim/sites/ (50, full)', { url: `${base}/api/dcim/sites/?limit=50`, headers: auth });
    await run('GET /api/dcim/sites/?brief=true&limit=1000', { url: `${base}/api/dcim/sites/?brief=true&limit=1000`, headers: auth });
    await run('GET sites filtered (status, tenant, tag, q)', {
      url: `${base}/api/dcim/sites/?status=active&tenant_id=${tenants[0].id}&tag=${runId}-gold&q=site-1`,
      headers: auth,
    });
    await run('POST /graphql/ site_list(100) with tenant and tags', {
      url: `${base}/graphql/`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ site_list(pagination: {limit: 100}) { id name status tenant { name } tags { slug } } }' }),
    });
    let created = 0;
    await run('POST /api/dcim/sites/ (one site, change log)', {
      url: `${base}/api/dcim/sites/`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => {
            const n = created++;
            return { ...request, body: JSON.stringify({ name: `${runId} new-${n}`, slug: `${runId}-new-${n}` }) };
          },
        },
      ],
    });

    const manufacturer = await call(base, 'POST', '/api/dcim/manufacturers/', { name: `${runId} maker`, slug: `${runId}-maker` }, auth);
    const role = await call(base, 'POST', '/api/dcim/device-roles/', { name: `${runId} role`, slug: `${runId}-role` }, auth);
    const type = await call(
      base,
      'POST',
      '/api/dcim/device-types/',
      { manufacturer: manufacturer.id, model: `${runId} panel`, slug: `${runId}-panel` },
      auth,
    );
    const rears = await call(
      base,
      'POST',
      '/api/dcim/rear-port-templates/',
      Array.from({ length: 4 }, (_, i) => ({ device_type: type.id, name: `R${i + 1}`, type: 'mpo', positions: 12 })),
      auth,
    );
    await call(
      base,
      'POST',
      '/api/dcim/front-port-templates/',
      Array.from({ length: 48 }, (_, i) => ({
        device_type: type.id,
        name: `F${i + 1}`,
        type: 'lc',
        rear_ports: [{ position: 1, rear_port: rears[Math.floor(i / 12)].id, rear_port_position: (i % 12) + 1 }],
      })),
      auth,
    );
    const site = (await call(base, 'GET', `/api/dcim/sites/?slug=${runId}-site-0`, undefined, auth)).results[0];
    const started = process.hrtime.bigint();
    for (let i = 0; i < DEVICES; i++) {
      await call(
        base,
        'POST',
        '/api/dcim/devices/',
        { name: `${runId} panel-${i}`, device_type: type.id, role: role.id, site: site.id },
        auth,
      );
    }
    const perDevice = Number(process.hrtime.bigint() - started) / 1e6 / DEVICES;
    console.log(
      `${'POST /api/dcim/devices/ (48+4 ports, 48 mappings)'.padEnd(52)} ${perDevice.toFixed(0).padStart(7)} ms per device (${DEVICES} devices, one after the other)`,
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
