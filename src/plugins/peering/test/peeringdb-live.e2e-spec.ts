import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EgressPolicy } from '../../../common/http/egress-policy';
import { IRR_SYNC_ALL_QUEUE } from '../irr-sync';
import { fetchPeeringDb, PeeringDbFetchError } from '../peeringdb-client';
import { PEERINGDB_SYNC_QUEUE } from '../peeringdb-sync';
import { countRows, PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const P = '/api/plugins/peering';
const API_KEY = 'pdb-test-key-7f3a';

/** Objects as https://www.peeringdb.com/api/<object>?depth=0 answers them (fields trimmed to a realistic subset). */
const PEERINGDB: Record<string, Array<Record<string, unknown>>> = {
  ix: [
    {
      id: 18,
      org_id: 1,
      name: 'LINX LON1',
      name_long: 'London Internet Exchange LON1',
      city: 'London',
      country: 'GB',
      region_continent: 'Europe',
      media: 'Ethernet',
      proto_unicast: true,
      proto_ipv6: true,
      website: 'https://www.linx.net/',
      tech_email: 'ops@linx.example',
      net_count: 900,
      created: '2010-07-29T00:00:00Z',
      updated: '2026-11-01T10:00:00Z',
      status: 'ok',
    },
    {
      id: 26,
      org_id: 2,
      name: 'AMS-IX',
      city: 'Amsterdam',
      country: 'NL',
      website: 'https://www.ams-ix.net/',
      tech_email: '',
      status: 'ok',
    },
    { id: 31, org_id: 3, name: 'DE-CIX Frankfurt', city: 'Frankfurt', country: 'DE', website: '', tech_email: '', status: 'ok' },
  ],
  ixlan: [
    { id: 18, ix_id: 18, name: '', descr: '', mtu: 1500, dot1q_support: false, rs_asn: 8714, arp_sponge: null, status: 'ok' },
    { id: 26, ix_id: 26, name: '', descr: '', mtu: 9000, dot1q_support: true, rs_asn: 6777, arp_sponge: null, status: 'ok' },
    { id: 31, ix_id: 31, name: '', mtu: 1500, rs_asn: 6695, status: 'ok' },
  ],
  ixpfx: [
    { id: 35, ixlan_id: 18, protocol: 'IPv4', prefix: '195.66.224.0/22', in_dfz: true, status: 'ok' },
    { id: 36, ixlan_id: 18, protocol: 'IPv6', prefix: '2001:7f8:4::/64', in_dfz: true, status: 'ok' },
    { id: 55, ixlan_id: 26, protocol: 'IPv4', prefix: '80.249.208.0/21', in_dfz: true, status: 'ok' },
    { id: 61, ixlan_id: 31, protocol: 'IPv4', prefix: '80.81.192.0/21', in_dfz: true, status: 'ok' },
  ],
  netixlan: [
    {
      id: 501,
      net_id: 1234,
      ix_id: 18,
      name: 'LINX LON1',
      ixlan_id: 18,
      speed: 10000,
      asn: 65001,
      ipaddr4: '195.66.224.10',
      ipaddr6: '2001:7f8:4::fde9:1',
      is_rs_peer: true,
      bfd_support: false,
      operational: true,
      status: 'ok',
    },
    {
      id: 502,
      net_id: 77,
      ix_id: 26,
      name: 'AMS-IX',
      ixlan_id: 26,
      speed: 100000,
      asn: 65099,
      ipaddr4: '80.249.208.99',
      ipaddr6: null,
      is_rs_peer: false,
    },
    {
      id: 503,
      net_id: 78,
      ix_id: 31,
      name: 'DE-CIX Frankfurt',
      ixlan_id: 31,
      speed: 1000,
      asn: 65098,
      ipaddr4: '80.81.192.98',
      ipaddr6: null,
    },
  ],
  net: [
    {
      id: 1234,
      org_id: 9,
      name: 'Example Networks',
      asn: 65001,
      irr_as_set: 'RIPE::AS-EXAMPLE',
      info_type: 'NSP',
      info_prefixes4: 250,
      info_prefixes6: 50,
      policy_general: 'Open',
      status: 'ok',
    },
    {
      id: 77,
      org_id: 10,
      name: 'Not a peer here',
      asn: 65099,
      irr_as_set: 'AS-OTHER',
      info_prefixes4: 10,
      info_prefixes6: 1,
      status: 'ok',
    },
  ],
};

/** The `__in` filters this stub understands, as PeeringDB's API applies them. */
const FILTERS: Record<string, string> = { id__in: 'id', ix_id__in: 'ix_id', ixlan_id__in: 'ixlan_id', asn__in: 'asn' };

/**
 * A live synchronisation against a stub speaking PeeringDB's API (`/api/<object>?<field>__in=…`,
 * `{"data": [...], "meta": {}}`, `Authorization: Api-Key …`), scheduled by the settings as a
 * recurring job; its outcome stored in `peering_syncrun`.
 */
describe('peering plugin: live PeeringDB synchronisation, scheduled', () => {
  let stub: Server;
  let base: string;
  let seeded: SeededApp;
  let root: PlatformClient;
  const requests: Array<{ path: string; authorization: string | undefined }> = [];
  let failWith: number | null = null;
  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);

  function answer(request: IncomingMessage): { status: number; body: unknown } {
    const url = new URL(request.url ?? '/', 'http://stub');
    const match = /^\/api\/(ix|ixlan|ixpfx|netixlan|net)$/.exec(url.pathname);
    if (!match) return { status: 404, body: { meta: { error: 'Not found.' } } };
    if (request.headers.authorization !== `Api-Key ${API_KEY}`) return { status: 401, body: { meta: { error: 'Invalid API key' } } };
    if (failWith !== null) return { status: failWith, body: { meta: { error: 'Request was throttled.' } } };
    let rows = PEERINGDB[match[1]];
    for (const [parameter, value] of url.searchParams) {
      const field = FILTERS[parameter];
      if (field)
        rows = rows.filter((row) =>
          value
            .split(',')
            .map(Number)
            .includes(row[field] as number),
        );
    }
    return { status: 200, body: { data: rows, meta: {} } };
  }

  async function runsOf(kind: string): Promise<Array<Record<string, any>>> {
    return (await seeded.db.query('SELECT * FROM peering_syncrun WHERE kind = $1 ORDER BY id', [kind])).rows;
  }

  async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
    for (let waited = 0; waited < 30_000; waited += 200) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('timed out');
  }

  beforeAll(async () => {
    stub = createServer((request, response) => {
      requests.push({ path: request.url ?? '', authorization: request.headers.authorization });
      const { status, body } = answer(request);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    ({ seeded, api: root } = await startPlatformApp({
      EGRESS_ALLOW: '127.0.0.1',
      PLUGIN_PEERING_PEERINGDB_URL: `${base}/api`,
      PLUGIN_PEERING_PEERINGDB_API_KEY: API_KEY,
      PLUGIN_PEERING_PEERINGDB_IX_IDS: '18, 26',
      PLUGIN_PEERING_PEERINGDB_SYNC_INTERVAL: '60',
    }));
  });

  afterAll(async () => {
    await seeded?.testApp.close();
    await new Promise((resolve) => stub.close(resolve));
  });

  it('the first scheduled run, an interval after boot, fetches the configured exchanges, fills the caches, logs what it created and stores its outcome', async () => {
    // Boot queued the first scheduled run an interval later; made due now, the worker takes it up
    // (no peer ASN exists yet: exchanges only).
    const [queued] = (
      await seeded.db.query(`SELECT run_at FROM jobs WHERE queue = $1 AND status = 'pending' AND payload ->> 'scheduled' = 'true'`, [
        PEERINGDB_SYNC_QUEUE,
      ])
    ).rows;
    expect((new Date(queued.run_at).getTime() - Date.now()) / 60_000).toBeGreaterThan(55);
    expect(await count('peering_syncrun')).toBe(0);
    await seeded.db.query(`UPDATE jobs SET run_at = now() WHERE queue = $1 AND status = 'pending'`, [PEERINGDB_SYNC_QUEUE]);
    const [first] = await waitFor(async () => ((await runsOf('peeringdb')).length > 0 ? runsOf('peeringdb') : undefined));
    expect(first).toMatchObject({
      source: 'live',
      status: 'succeeded',
      error: '',
      counts: { fabrics: 2, networks: 2, peers: 2, peer_asns: 0 },
    });
    expect(new Date(first.finished).getTime()).toBeGreaterThanOrEqual(new Date(first.started).getTime());
    expect(requests.every((request) => request.authorization === `Api-Key ${API_KEY}`)).toBe(true);
    expect(requests.map((request) => request.path)).toEqual([
      '/api/ix?id__in=18%2C26&depth=0',
      '/api/ixlan?ix_id__in=18%2C26&depth=0',
      '/api/ixpfx?ixlan_id__in=18%2C26&depth=0',
      '/api/netixlan?ixlan_id__in=18%2C26&depth=0',
    ]);
    const fabrics = (await root.get(`${P}/peering-fabric/?ordering=name`)).body.results;
    expect(fabrics.map((fabric: any) => [fabric.name, fabric.peerdb?.ix_id, fabric.peerdb?.city])).toEqual([
      ['AMS-IX', 26, 'Amsterdam'],
      ['LINX LON1', 18, 'London'],
    ]);
    const networks = (await root.get(`${P}/peering-network/?ordering=name`)).body.results;
    expect(networks.map((network: any) => [network.name, network.prefix.display])).toEqual([
      ['IXLAN-18', '195.66.224.0/22'],
      ['IXLAN-26', '80.249.208.0/21'],
    ]);
    // What it created is in the change log, as the API shows it: the job as the user, one request id for the run.
    const changes = (await root.get('/api/core/object-changes/?user_name=peering.peeringdb-sync&ordering=id&limit=50')).body.results;
    expect(changes.map((change: any) => [change.changed_object_type, change.action.value ?? change.action, change.object_repr])).toEqual([
      ['peering.peeringfabric', 'create', 'LINX LON1'],
      ['peering.peeringfabric', 'create', 'AMS-IX'],
      ['ipam.prefix', 'create', '195.66.224.0/22'],
      ['ipam.prefix', 'create', '80.249.208.0/21'],
      ['peering.peeringnetwork', 'create', 'IXLAN-18'],
      ['peering.peeringnetwork', 'create', 'IXLAN-26'],
    ]);
    expect(new Set(changes.map((change: any) => change.request_id)).size).toBe(1);
    expect(changes.every((change: any) => change.user === null)).toBe(true);
    expect(changes[4].postchange_data).toMatchObject({ name: 'IXLAN-18', fabric: fabrics[1].id });

    // One scheduled run stays queued, an hour later; no second one is added.
    const scheduled = (
      await seeded.db.query(`SELECT run_at FROM jobs WHERE queue = $1 AND status = 'pending' AND payload ->> 'scheduled' = 'true'`, [
        PEERINGDB_SYNC_QUEUE,
      ])
    ).rows;
    expect(scheduled).toHaveLength(1);
    const minutes = (new Date(scheduled[0].run_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(55);
    expect(minutes).toBeLessThanOrEqual(60);
    // The IRR synchronisation is scheduled too (PLUGIN_PEERING_IRR_SYNC_INTERVAL, 60 minutes by default).
    expect(await count('jobs', `WHERE queue = $1 AND status = 'pending' AND payload ->> 'scheduled' = 'true'`, [IRR_SYNC_ALL_QUEUE])).toBe(
      1,
    );
  });

  it('the next run also fetches the networks of the peer ASNs and the exchanges already linked', async () => {
    const rir = await root.created('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
    const asn = await root.created('/api/ipam/asns/', { asn: 65001, rir: rir.id });
    const peerAsn = await root.created(`${P}/peer-asn/`, { asn: asn.id });
    requests.length = 0;
    // Due now: the worker takes it up at its next poll.
    await seeded.db.query(`UPDATE jobs SET run_at = now() WHERE queue = $1 AND status = 'pending'`, [PEERINGDB_SYNC_QUEUE]);
    const second = await waitFor(async () => (await runsOf('peeringdb'))[1]);
    expect(second).toMatchObject({ status: 'succeeded', counts: { fabrics: 2, networks: 2, peers: 2, peer_asns: 1 } });
    expect(requests.map((request) => request.path)).toContain('/api/net?asn__in=65001&depth=0');
    expect((await root.get(`${P}/peer-asn/${peerAsn.id}/`)).body).toMatchObject({
      peeringdb_id: 1234,
      ipv4_max_prefixes: 250,
      ipv6_max_prefixes: 50,
      irr_as_set: 'RIPE::AS-EXAMPLE',
    });
    expect(await count('peering_peeringnetwork')).toBe(2); // the same networks, updated
    // The peer ASN's update is logged with its state before and after; nothing else changed this time.
    const logged = (
      await seeded.db.query(
        `SELECT * FROM core_objectchange WHERE request_id = (SELECT request_id FROM core_objectchange WHERE user_name = 'peering.peeringdb-sync' ORDER BY id DESC LIMIT 1)`,
      )
    ).rows;
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      action: 'update',
      changed_object_id: peerAsn.id,
      user_id: null,
      user_name: 'peering.peeringdb-sync',
    });
    expect(logged[0].prechange_data).toMatchObject({ peeringdb_id: null, irr_as_set: '' });
    expect(logged[0].postchange_data).toMatchObject({ peeringdb_id: 1234, irr_as_set: 'RIPE::AS-EXAMPLE', ipv4_max_prefixes: 250 });
    expect(second.counts.changes).toBe(1);
  });

  it('an error answer fails the run, stores the error and changes nothing; the schedule goes on', async () => {
    failWith = 429;
    const before = await count('peering_peeringdbpeer');
    await seeded.db.query(`UPDATE jobs SET run_at = now() WHERE queue = $1 AND status = 'pending'`, [PEERINGDB_SYNC_QUEUE]);
    const failed = await waitFor(async () => (await runsOf('peeringdb'))[2]);
    failWith = null;
    expect(failed).toMatchObject({ status: 'failed', counts: {} });
    expect(failed.error).toMatch(/^PeeringDB answered 429 for http:\/\/127\.0\.0\.1:\d+\/api\/ix\?id__in=18%2C26&depth=0$/);
    expect(failed.error).not.toContain(API_KEY);
    expect(await count('peering_peeringdbpeer')).toBe(before);
    expect(
      await count(
        'jobs',
        `WHERE queue = $1 AND status = 'pending' AND payload ->> 'scheduled' = 'true' AND run_at > now() + interval '55 minutes'`,
        [PEERINGDB_SYNC_QUEUE],
      ),
    ).toBe(1);
  });

  it('every request goes through the egress policy: an address it refuses is not asked', async () => {
    const egress = seeded.testApp.app.get(EgressPolicy);
    const refused = fetchPeeringDb(
      { egress, baseUrl: base.replace('127.0.0.1', '127.0.0.2') + '/api', apiKey: API_KEY, maxResponseBytes: 1 << 20 },
      { ixIds: [18], asns: [] },
    );
    await expect(refused).rejects.toThrow(PeeringDbFetchError);
    await expect(refused).rejects.toThrow(/^PeeringDB unreachable \(ix\): 127\.0\.0\.2 is a loopback .* which EGRESS_ALLOW does not list$/);
    // A body over the limit fails too, before anything is applied.
    await expect(
      fetchPeeringDb({ egress, baseUrl: `${base}/api`, apiKey: API_KEY, maxResponseBytes: 256 }, { ixIds: [18, 26, 31], asns: [] }),
    ).rejects.toThrow(PeeringDbFetchError);
  });
});
