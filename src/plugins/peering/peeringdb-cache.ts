import type { EntityManager } from 'typeorm';

/**
 * The PeeringDB caches: tables without an API endpoint, filled by the PeeringDB synchronisation
 * (./peeringdb-sync.ts) and read by the fabric's `peerdb`. Their rows go with the fabric or network
 * they describe (ON DELETE CASCADE in the database).
 */
export const FABRIC_CACHE_TABLE = 'peering_peeringdbfabric';
export const NETWORK_CACHE_TABLE = 'peering_peeringdbnetwork';
export const PEER_CACHE_TABLE = 'peering_peeringdbpeer';

/** A fabric's cached PeeringDB exchange, as `peerdb` shows it. */
export interface FabricPeeringDbRecord {
  ix_id: number;
  name: string;
  city: string;
  country: string;
  website: string;
  tech_email: string;
  last_sync: string;
}

/** `{peerdb: record | null}` for each fabric id: null for a fabric the synchronisation has not linked. */
export async function fabricPeeringDbRecords(
  manager: EntityManager,
  fabricIds: readonly number[],
): Promise<Map<number, Record<string, unknown>>> {
  const found = (await manager.query(
    `SELECT fabric_id, ix_id, name, city, country, website, tech_email, last_sync FROM ${FABRIC_CACHE_TABLE} WHERE fabric_id = ANY($1)`,
    [fabricIds],
  )) as Array<FabricPeeringDbRecord & { fabric_id: number; last_sync: Date | string }>;
  const result = new Map<number, Record<string, unknown>>(fabricIds.map((id) => [id, { peerdb: null }]));
  for (const { fabric_id, last_sync, ...record } of found) {
    result.set(fabric_id, { peerdb: { ...record, last_sync: new Date(last_sync).toISOString() } });
  }
  return result;
}
