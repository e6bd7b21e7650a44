import type { EntityManager } from 'typeorm';
import type { JobChange, PluginJobContext } from '../../platform/plugin-api';
import { FABRIC_CACHE_TABLE, NETWORK_CACHE_TABLE, PEER_CACHE_TABLE } from './peeringdb-cache';

/** The job queue of the PeeringDB synchronisation: payload `{export: <PeeringDB JSON export>}`. */
export const PEERINGDB_SYNC_QUEUE = 'peering.peeringdb-sync';

type Row = Record<string, unknown>;

/** Collects what a synchronisation creates and updates, for the change log. */
export class SyncChanges {
  readonly changes: JobChange[] = [];

  constructor(readonly snapshots: PluginJobContext['changeLog']['snapshots']) {}

  created(objectType: string, id: number): void {
    this.changes.push({ objectType, id, action: 'create' });
  }
}

export interface PeeringDbSyncResult {
  fabrics: number;
  networks: number;
  peers: number;
  peer_asns: number;
}

/** A PeeringDB object list of the export: `{ix: {data: [...]}}` (the API's shape) or `{ix: [...]}`. */
function objects(dump: Row, key: string): Row[] {
  const value = dump[key];
  const list = Array.isArray(value)
    ? value
    : value !== null && typeof value === 'object' && Array.isArray((value as Row).data)
      ? (value as Row).data
      : [];
  return (list as unknown[]).filter(
    (item): item is Row => item !== null && typeof item === 'object' && Number.isSafeInteger((item as Row).id),
  );
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const int = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);

function slugOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 90) || 'ix'
  );
}

/** The fabric an exchange is cached on: the one already linked, else one of the same name, else a new one. */
async function fabricFor(manager: EntityManager, ix: Row, changes?: SyncChanges): Promise<number> {
  const [linked] = (await manager.query(`SELECT fabric_id FROM ${FABRIC_CACHE_TABLE} WHERE ix_id = $1`, [ix.id])) as Array<{
    fabric_id: number;
  }>;
  if (linked) return linked.fabric_id;
  const name = str(ix.name).slice(0, 100) || `IX-${String(ix.id)}`;
  const [named] = (await manager.query(
    `SELECT f.id FROM peering_peeringfabric f WHERE lower(f.name) = lower($1) AND NOT EXISTS (SELECT 1 FROM ${FABRIC_CACHE_TABLE} c WHERE c.fabric_id = f.id) ORDER BY f.id LIMIT 1`,
    [name],
  )) as Array<{ id: number }>;
  if (named) return named.id;
  const [{ taken }] = (await manager.query(
    'SELECT count(*)::int AS taken FROM peering_peeringfabric WHERE site_id IS NULL AND (name = $1 OR slug = $2)',
    [name, slugOf(name)],
  )) as Array<{
    taken: number;
  }>;
  const suffix = taken > 0 ? `-${String(ix.id)}` : '';
  const [created] = (await manager.query(`INSERT INTO peering_peeringfabric (name, slug, description) VALUES ($1, $2, $3) RETURNING id`, [
    `${name.slice(0, 100 - suffix.length)}${suffix}`,
    `${slugOf(name)}${suffix}`,
    'Created by the PeeringDB synchronisation',
  ])) as Array<{ id: number }>;
  changes?.created('peering.peeringfabric', created.id);
  return created.id;
}

/** The prefix of an exchange LAN, created when missing (IPv4 preferred). */
async function prefixFor(manager: EntityManager, prefixes: readonly Row[], changes?: SyncChanges): Promise<number | null> {
  const sorted = [...prefixes].sort((a, b) => Number(str(a.prefix).includes(':')) - Number(str(b.prefix).includes(':')));
  const prefix = sorted.map((row) => str(row.prefix)).find((value) => value.includes('/'));
  if (!prefix) return null;
  const [found] = (await manager.query('SELECT id FROM ipam_prefix WHERE prefix = $1::cidr AND vrf_id IS NULL ORDER BY id LIMIT 1', [
    prefix,
  ])) as Array<{ id: number }>;
  if (found) return found.id;
  const [created] = (await manager.query(
    `INSERT INTO ipam_prefix (prefix, description) VALUES ($1::cidr, 'PeeringDB exchange LAN') RETURNING id`,
    [prefix],
  )) as Array<{ id: number }>;
  changes?.created('ipam.prefix', created.id);
  return created.id;
}

/** The network of an exchange LAN: the one already linked, else `IXLAN-<id>` (suffixed when the fabric has that name). */
async function networkFor(manager: EntityManager, fabricId: number, ixlan: Row, prefixId: number, changes?: SyncChanges): Promise<number> {
  const [linked] = (await manager.query(`SELECT network_id FROM ${NETWORK_CACHE_TABLE} WHERE ixlan_id = $1`, [ixlan.id])) as Array<{
    network_id: number;
  }>;
  if (linked) return linked.network_id;
  const base = `IXLAN-${String(ixlan.id)}`;
  let name = base;
  for (
    let n = 2;
    ((await manager.query('SELECT 1 FROM peering_peeringnetwork WHERE fabric_id = $1 AND name = $2', [fabricId, name])) as unknown[])
      .length > 0;
    n++
  ) {
    name = `${base}-${n}`;
  }
  const [created] = (await manager.query(
    'INSERT INTO peering_peeringnetwork (fabric_id, name, prefix_id) VALUES ($1, $2, $3) RETURNING id',
    [fabricId, name, prefixId],
  )) as Array<{
    id: number;
  }>;
  changes?.created('peering.peeringnetwork', created.id);
  return created.id;
}

/**
 * Applies a PeeringDB export in one transaction: each `ix` to the fabric cache (on the fabric of that
 * name, created when missing), each `ixlan` with a prefix (`ixpfx`) to a network `IXLAN-<id>` and the
 * network cache, the `netixlan` of the synchronised exchanges to the peer cache (replacing it), and
 * each `net` to the peer ASN of its AS (PeeringDB id, max prefixes, AS-SET); peer ASNs are never created.
 * With `changes`, the fabrics, networks and prefixes it creates and the peer ASNs it updates are collected.
 */
export async function syncPeeringDb(
  manager: EntityManager,
  dump: Row,
  changes?: SyncChanges,
  now = new Date(),
): Promise<PeeringDbSyncResult> {
  const result: PeeringDbSyncResult = { fabrics: 0, networks: 0, peers: 0, peer_asns: 0 };
  const fabricOfIx = new Map<number, number>();
  for (const ix of objects(dump, 'ix')) {
    const fabricId = await fabricFor(manager, ix, changes);
    await manager.query(
      `INSERT INTO ${FABRIC_CACHE_TABLE} (fabric_id, ix_id, name, city, country, website, tech_email, last_sync) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (ix_id) DO UPDATE SET name = EXCLUDED.name, city = EXCLUDED.city, country = EXCLUDED.country, website = EXCLUDED.website,
                                         tech_email = EXCLUDED.tech_email, last_sync = EXCLUDED.last_sync`,
      [
        fabricId,
        ix.id,
        str(ix.name).slice(0, 255),
        str(ix.city).slice(0, 255),
        str(ix.country).slice(0, 255),
        str(ix.website).slice(0, 255),
        str(ix.tech_email).slice(0, 255),
        now,
      ],
    );
    fabricOfIx.set(ix.id as number, fabricId);
    result.fabrics += 1;
  }

  const prefixesOfIxlan = new Map<number, Row[]>();
  for (const ixpfx of objects(dump, 'ixpfx')) {
    const ixlanId = int(ixpfx.ixlan_id);
    if (ixlanId !== null) prefixesOfIxlan.set(ixlanId, [...(prefixesOfIxlan.get(ixlanId) ?? []), ixpfx]);
  }
  const fabricOfIxlan = new Map<number, number>();
  for (const ixlan of objects(dump, 'ixlan')) {
    const fabricId = fabricOfIx.get(int(ixlan.ix_id) ?? -1);
    if (fabricId === undefined) continue;
    fabricOfIxlan.set(ixlan.id as number, fabricId);
    const prefixId = await prefixFor(manager, prefixesOfIxlan.get(ixlan.id as number) ?? [], changes);
    if (prefixId === null) continue; // a network needs its prefix
    const networkId = await networkFor(manager, fabricId, ixlan, prefixId, changes);
    await manager.query(
      `INSERT INTO ${NETWORK_CACHE_TABLE} (network_id, ixlan_id, name, mtu, rs_asn, dot1q_support) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (ixlan_id) DO UPDATE SET name = EXCLUDED.name, mtu = EXCLUDED.mtu, rs_asn = EXCLUDED.rs_asn, dot1q_support = EXCLUDED.dot1q_support`,
      [networkId, ixlan.id, str(ixlan.name).slice(0, 255), int(ixlan.mtu), int(ixlan.rs_asn), ixlan.dot1q_support === true],
    );
    result.networks += 1;
  }

  const syncedFabrics = [...new Set(fabricOfIx.values())];
  await manager.query(`DELETE FROM ${PEER_CACHE_TABLE} WHERE fabric_id = ANY($1)`, [syncedFabrics]);
  for (const netixlan of objects(dump, 'netixlan')) {
    const fabricId = fabricOfIxlan.get(int(netixlan.ixlan_id) ?? -1);
    const ipv4 = str(netixlan.ipaddr4) || null;
    const ipv6 = str(netixlan.ipaddr6) || null;
    if (fabricId === undefined || int(netixlan.asn) === null || (ipv4 === null && ipv6 === null)) continue;
    await manager.query(
      `INSERT INTO ${PEER_CACHE_TABLE} (fabric_id, netixlan_id, asn, name, ipv4_addr, ipv6_addr, is_rs_peer, speed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        fabricId,
        netixlan.id,
        netixlan.asn,
        str(netixlan.name).slice(0, 255),
        ipv4,
        ipv6,
        netixlan.is_rs_peer === true,
        int(netixlan.speed) ?? 0,
      ],
    );
    result.peers += 1;
  }

  const nets = objects(dump, 'net').filter((net) => int(net.asn) !== null);
  const peerAsns = (await manager.query(
    'SELECT p.id, a.asn FROM peering_peerasn p JOIN ipam_asn a ON a.id = p.asn_id WHERE a.asn = ANY($1::bigint[])',
    [nets.map((net) => net.asn)],
  )) as Array<{ id: number; asn: string | number }>;
  const before = changes
    ? await changes.snapshots(
        manager,
        'peering.peerasn',
        peerAsns.map((row) => row.id),
      )
    : new Map<number, Record<string, unknown>>();
  for (const net of nets) {
    // An UPDATE's answer through TypeORM is `[rows, affected count]`.
    const [updated] = (await manager.query(
      `UPDATE peering_peerasn p SET peeringdb_id = $2, ipv4_max_prefixes = $3, ipv6_max_prefixes = $4, irr_as_set = $5, peeringdb_last_sync = $6, last_updated = now()
         FROM ipam_asn a WHERE a.id = p.asn_id AND a.asn = $1 RETURNING p.id`,
      [net.asn, net.id, int(net.info_prefixes4), int(net.info_prefixes6), str(net.irr_as_set).slice(0, 100), now],
    )) as [Array<{ id: number }>, number];
    for (const { id } of updated) changes?.changes.push({ objectType: 'peering.peerasn', id, action: 'update', prechange: before.get(id) });
    result.peer_asns += updated.length;
  }
  return result;
}
