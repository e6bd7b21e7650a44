#!/usr/bin/env node
// `npm run demo:seed`: a small, coherent inventory around Amsterdam, created through the REST API of a
// running server, so every explorer (REST, GraphQL, the pathways map) and the plugins' documented
// examples have something to show. Core (sites, devices, ports, a cable, a circuit), fms (a fibre
// cable with a splice plan), pathways (structures and pathways with geometry, the cable routed through a
// conduit, the circuit's route), wdm (a ROADM node), routing and peering (a BGP peer with its peering
// session), notices (a maintenance on the circuit's provider).
//
//   DEMO_API=http://127.0.0.1:8000 DEMO_TOKEN=<platform API token> npm run demo:seed
//   DEMO_USERNAME=admin DEMO_PASSWORD=… npm run demo:seed                    # provisions a token
//   DEMO_USERNAME=admin DEMO_PASSWORD=… npm run demo:seed -- --create-user   # a fresh server: creates that
//                                                                             # superuser first (PKI_BOOTSTRAP_TOKEN when set)
//
// A second run finds the demo site and changes nothing. Needs every plugin mounted (PLUGINS unset).
'use strict';

const API = (process.env.DEMO_API ?? 'http://127.0.0.1:8000').replace(/\/+$/, '');
const P = '/api/plugins';

class ApiFailure extends Error {}

async function call(method, path, body, token) {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new ApiFailure(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** A platform API token: DEMO_TOKEN, else one provisioned with DEMO_USERNAME/DEMO_PASSWORD (created first with --create-user). */
async function token() {
  if (process.env.DEMO_TOKEN) return { key: process.env.DEMO_TOKEN.trim(), provisioned: false };
  const username = process.env.DEMO_USERNAME;
  const password = process.env.DEMO_PASSWORD;
  if (!username || !password) throw new ApiFailure('set DEMO_TOKEN, or DEMO_USERNAME and DEMO_PASSWORD');
  if (process.argv.includes('--create-user')) {
    const response = await fetch(`${API}/api/v1/users/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(process.env.PKI_BOOTSTRAP_TOKEN ? { 'x-bootstrap-token': process.env.PKI_BOOTSTRAP_TOKEN } : {}),
      },
      body: JSON.stringify({ username, password, email: `${username}@example.com`, role: 'superuser' }),
    });
    if (!response.ok) throw new ApiFailure(`creating the user ${username}: ${response.status} ${await response.text()}`);
    console.log(`created the superuser ${username}`);
  }
  const provisioned = await call('POST', '/api/users/tokens/provision/', { username, password });
  return { key: provisioned.key, provisioned: true };
}

/** Amsterdam, as [longitude, latitude] (GeoJSON order). */
const PLACES = {
  dam: [4.8932, 52.3731],
  centraal: [4.9003, 52.3791],
  westerpark: [4.877, 52.3866],
  jordaan: [4.8838, 52.3745],
};
const point = (place) => ({ type: 'Point', coordinates: PLACES[place] });
const line = (...positions) => ({ type: 'LineString', coordinates: positions.map((p) => (typeof p === 'string' ? PLACES[p] : p)) });

async function seed(key) {
  const post = (path, body) => call('POST', path, body, key);
  const existing = await call('GET', '/api/dcim/sites/?slug=ams-dam', undefined, key);
  if (existing.count > 0) {
    console.log('the demo inventory is already there (site ams-dam); nothing changed');
    return;
  }

  // Core: two sites, a closure, two routers and a ROADM, connected by a single-mode cable.
  const region = await post('/api/dcim/regions/', { name: 'Amsterdam', slug: 'amsterdam' });
  const dam = await post('/api/dcim/sites/', { name: 'AMS Dam', slug: 'ams-dam', region: region.id, status: 'active' });
  const centraal = await post('/api/dcim/sites/', { name: 'AMS Centraal', slug: 'ams-centraal', region: region.id, status: 'active' });
  const maker = await post('/api/dcim/manufacturers/', { name: 'Demo Networks', slug: 'demo-networks' });
  const role = (name, slug) => post('/api/dcim/device-roles/', { name, slug });
  const [closureRole, routerRole, opticalRole] = [
    await role('Closure', 'closure'),
    await role('Router', 'router'),
    await role('Optical', 'optical'),
  ];
  const type = (model, slug) => post('/api/dcim/device-types/', { manufacturer: maker.id, model, slug });
  const [closureType, routerType, roadmType] = [
    await type('FOSC 12', 'fosc-12'),
    await type('R-204', 'r-204'),
    await type('ROADM-9', 'roadm-9'),
  ];
  const device = (name, deviceType, deviceRole, site) =>
    post('/api/dcim/devices/', { name, device_type: deviceType.id, role: deviceRole.id, site: site.id, status: 'active' });
  const closure = await device('ams-dam-closure-1', closureType, closureRole, dam);
  const damRouter = await device('ams-dam-rtr-1', routerType, routerRole, dam);
  const centraalRouter = await device('ams-cs-rtr-1', routerType, routerRole, centraal);
  const roadm = await device('ams-cs-roadm-1', roadmType, opticalRole, centraal);
  const closureRear = await post('/api/dcim/rear-ports/', { device: closure.id, name: 'FEEDER', type: 'splice', positions: 12 });
  const routerRear = await post('/api/dcim/rear-ports/', { device: centraalRouter.id, name: 'ODF-1', type: 'lc', positions: 12 });
  const cable = await post('/api/dcim/cables/', {
    type: 'smf',
    label: 'AMS-DAM-CS-001',
    status: 'connected',
    a_terminations: [{ object_type: 'dcim.rearport', object_id: closureRear.id }],
    b_terminations: [{ object_type: 'dcim.rearport', object_id: routerRear.id }],
  });

  // fms: the cable as a 12-fibre loose-tube cable, and a draft splice plan on the closure's tray.
  const cableType = await post(`${P}/fms/cable-types/`, {
    manufacturer: maker.id,
    model: 'LT-12 single-mode',
    construction: 'loose_tube',
    strand_count: 12,
  });
  const fiberCable = await post(`${P}/fms/fiber-cables/`, { fiber_cable_type: cableType.id, cable: cable.id });
  const trayType = await post('/api/dcim/module-types/', { manufacturer: maker.id, model: 'Splice tray 12' });
  await post(`${P}/fms/tray-profiles/`, { module_type: trayType.id, tray_role: 'splice_tray', max_fibers: 12 });
  const bay = await post('/api/dcim/module-bays/', { device: closure.id, name: 'Tray slot 1' });
  const tray = await post('/api/dcim/modules/', { device: closure.id, module_bay: bay.id, module_type: trayType.id });
  const splicePorts = [];
  for (let n = 1; n <= 4; n++) {
    splicePorts.push(await post('/api/dcim/front-ports/', { device: closure.id, module: tray.id, name: `S${n}`, type: 'splice' }));
  }
  const plan = await post(`${P}/fms/splice-plans/`, { closure: closure.id, name: 'Dam feeder to distribution' });
  await post(`${P}/fms/splice-plan-entries/`, { plan: plan.id, fiber_a: splicePorts[0].id, fiber_b: splicePorts[2].id, tray: tray.id });
  await post(`${P}/fms/splice-plan-entries/`, { plan: plan.id, fiber_a: splicePorts[1].id, fiber_b: splicePorts[3].id, tray: tray.id });

  // pathways: the example of docs/plugins/pathways.md — four structures, three pathways, each status once.
  const structure = (name, place, structureType, extra = {}) =>
    post(`${P}/pathways/structures/`, { name, geometry: point(place), structure_type: structureType, ...extra });
  const damManhole = await structure('MH Dam', 'dam', 'manhole', { site: dam.id });
  const centraalManhole = await structure('MH Centraal', 'centraal', 'manhole', { site: centraal.id });
  const westerparkPole = await structure('Pole Westerpark', 'westerpark', 'pole', { status: 'planned' });
  const jordaanCabinet = await structure('Cabinet Jordaan', 'jordaan', 'cabinet', { status: 'retired' });
  const conduit = await post(`${P}/pathways/conduits/`, {
    label: 'Dam–Centraal duct',
    material: 'hdpe',
    start_structure: damManhole.id,
    end_structure: centraalManhole.id,
    path: line('dam', [4.8975, 52.3752], 'centraal'),
  });
  await post(`${P}/pathways/aerial-spans/`, {
    label: 'Westerpark–Jordaan span',
    status: 'construction',
    aerial_type: 'adss',
    start_structure: westerparkPole.id,
    end_structure: jordaanCabinet.id,
    path: line('westerpark', [4.8795, 52.3805], 'jordaan'),
  });
  await post(`${P}/pathways/direct-buried/`, {
    label: 'Jordaan–Dam run',
    start_structure: jordaanCabinet.id,
    end_structure: damManhole.id,
    path: line('jordaan', [4.8885, 52.3738], 'dam'),
  });
  await post(`${P}/pathways/cable-segments/`, { cable: cable.id, pathway: conduit.id });

  // A transit circuit with its route (the circuits/ layer) and a maintenance announced for it (notices).
  const provider = await post('/api/circuits/providers/', { name: 'Demo Carrier', slug: 'demo-carrier' });
  const circuitType = await post('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
  const circuit = await post('/api/circuits/circuits/', {
    cid: 'DC-AMS-0001',
    provider: provider.id,
    type: circuitType.id,
    status: 'active',
  });
  await post(`${P}/pathways/circuit-geometries/`, { circuit: circuit.id, path: line('centraal', 'westerpark') });
  const start = new Date(Date.now() + 7 * 86_400_000);
  start.setUTCHours(22, 0, 0, 0);
  await post(`${P}/notices/maintenance/`, {
    name: 'DC-MAINT-0001',
    summary: 'Fibre repair between Centraal and Westerpark',
    provider: provider.id,
    status: 'CONFIRMED',
    start: start.toISOString(),
    end: new Date(start.getTime() + 4 * 3_600_000).toISOString(),
  });

  // wdm: the ROADM as a WDM node on the 100 GHz C-band grid.
  await post(`${P}/wdm/wdm-nodes/`, { device: roadm.id, node_type: 'roadm', grid: 'dwdm_c_100ghz' });

  // routing and peering: the Dam router's BGP session with the carrier, as a transit peering session.
  const rir = await post('/api/ipam/rirs/', { name: 'Documentation', slug: 'documentation', is_private: true });
  const ownAsn = await post('/api/ipam/asns/', { asn: 64500, rir: rir.id, description: 'Demo network' });
  const carrierAsn = await post('/api/ipam/asns/', { asn: 64511, rir: rir.id, description: 'Demo Carrier' });
  await post(`${P}/peering/peer-asn/`, { asn: carrierAsn.id, irr_as_set: 'AS-DEMOCARRIER' });
  const router = await post(`${P}/routing/bgp-routers/`, { device: damRouter.id, asn: ownAsn.id });
  const scope = await post(`${P}/routing/bgp-scopes/`, { router: router.id });
  const peerAddress = await post('/api/ipam/ip-addresses/', { address: '192.0.2.1/31', description: 'Demo Carrier transit' });
  const bgpPeer = await post(`${P}/routing/bgp-peers/`, {
    scope: scope.id,
    peer: peerAddress.id,
    name: 'demo-carrier',
    remote_as: carrierAsn.id,
  });
  const transit = await post(`${P}/peering/relationship/`, { name: 'Transit', slug: 'transit', color: 'f44336' });
  await post(`${P}/peering/peering-session/`, { bgp_peer: bgpPeer.id, relationship: transit.id, service_reference: 'DC-AMS-0001' });

  console.log(
    `seeded: sites ams-dam and ams-centraal, 4 devices, cable ${cable.id} as fibre cable ${fiberCable.id} with splice plan ${plan.id}, ` +
      '4 structures and 3 pathways around the Dam, circuit DC-AMS-0001 with its route and maintenance DC-MAINT-0001, ' +
      'WDM node ams-cs-roadm-1, BGP peer demo-carrier with its transit peering session',
  );
}

token()
  .then(async ({ key, provisioned }) => {
    await seed(key);
    // The token is the caller's own (made from their password just now); the map and GraphiQL need one.
    if (provisioned) console.log(`platform API token for the explorers: ${key}`);
  })
  .catch((error) => {
    console.error(`demo:seed: ${error instanceof ApiFailure ? error.message : error.stack}`);
    process.exit(1);
  });
