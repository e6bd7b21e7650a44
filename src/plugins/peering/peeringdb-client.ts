import type { EntityManager } from 'typeorm';
import type { EgressPolicy } from '../../platform/plugin-api';
import { FABRIC_CACHE_TABLE } from './peeringdb-cache';

/** How the PeeringDB API is reached: every request through the egress policy. */
export interface PeeringDbAccess {
  egress: EgressPolicy;
  /** The API root, e.g. `https://www.peeringdb.com/api`. */
  baseUrl: string;
  /** Sent as `Authorization: Api-Key <key>` when not empty (higher rate limits, private data). */
  apiKey: string;
  maxResponseBytes: number;
  timeoutMs?: number;
}

/** What a live synchronisation asks for. */
export interface PeeringDbSelection {
  ixIds: readonly number[];
  asns: readonly number[];
}

/** A live fetch that cannot be done; the job fails and nothing is changed. */
export class PeeringDbFetchError extends Error {
  override readonly name = 'PeeringDbFetchError';
}

const REQUEST_TIMEOUT_MS = 60_000;
/** Ids per `__in` filter: keeps the query string well under common URL limits. */
const IDS_PER_REQUEST = 150;

type Row = Record<string, unknown>;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** `GET <base>/<object>?<filter>=<ids>&depth=0`, answered `{"data": [...], "meta": {...}}` as PeeringDB does. */
async function listObjects(access: PeeringDbAccess, object: string, filter: string, ids: readonly number[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const chunk of chunks(ids, IDS_PER_REQUEST)) {
    const url = new URL(`${access.baseUrl.replace(/\/+$/, '')}/${object}`);
    url.searchParams.set(filter, chunk.join(','));
    url.searchParams.set('depth', '0');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (access.apiKey) headers.authorization = `Api-Key ${access.apiKey}`;
    let response;
    try {
      response = await access.egress.request(url.toString(), {
        headers,
        timeoutMs: access.timeoutMs ?? REQUEST_TIMEOUT_MS,
        maxResponseBytes: access.maxResponseBytes,
        overflow: 'fail',
      });
    } catch (error) {
      throw new PeeringDbFetchError(`PeeringDB unreachable (${object}): ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.status < 200 || response.status > 299) {
      // The key is in a header, never in the URL: the URL may be logged.
      throw new PeeringDbFetchError(`PeeringDB answered ${response.status} for ${url.toString()}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new PeeringDbFetchError(`PeeringDB answered something that is not JSON for ${url.toString()}`);
    }
    const data = body !== null && typeof body === 'object' ? (body as Row).data : undefined;
    if (!Array.isArray(data)) throw new PeeringDbFetchError(`PeeringDB answered without a data list for ${url.toString()}`);
    rows.push(...(data as Row[]));
  }
  return rows;
}

const ids = (rows: readonly Row[], key = 'id') =>
  [...new Set(rows.map((row) => row[key]).filter((id): id is number => Number.isSafeInteger(id)))].sort((a, b) => a - b);

/**
 * Fetches, in PeeringDB's API shapes, the exchanges (`ix`), their LANs (`ixlan`), prefixes (`ixpfx`)
 * and members (`netixlan`) of the selected exchanges, and the networks (`net`) of the selected ASNs:
 * an export as `syncPeeringDb` reads it.
 */
export async function fetchPeeringDb(access: PeeringDbAccess, selection: PeeringDbSelection): Promise<Record<string, { data: Row[] }>> {
  const ix = selection.ixIds.length > 0 ? await listObjects(access, 'ix', 'id__in', selection.ixIds) : [];
  const ixlan = ix.length > 0 ? await listObjects(access, 'ixlan', 'ix_id__in', ids(ix)) : [];
  const ixlanIds = ids(ixlan);
  const ixpfx = ixlanIds.length > 0 ? await listObjects(access, 'ixpfx', 'ixlan_id__in', ixlanIds) : [];
  const netixlan = ixlanIds.length > 0 ? await listObjects(access, 'netixlan', 'ixlan_id__in', ixlanIds) : [];
  const net = selection.asns.length > 0 ? await listObjects(access, 'net', 'asn__in', selection.asns) : [];
  return { ix: { data: ix }, ixlan: { data: ixlan }, ixpfx: { data: ixpfx }, netixlan: { data: netixlan }, net: { data: net } };
}

/** The exchanges already linked to a fabric plus the configured ones, and the AS numbers of the peer ASNs. */
export async function liveSelection(manager: EntityManager, configuredIxIds: readonly number[]): Promise<PeeringDbSelection> {
  const linked = (await manager.query(`SELECT ix_id FROM ${FABRIC_CACHE_TABLE}`)) as Array<{ ix_id: number }>;
  const asns = (await manager.query('SELECT a.asn FROM peering_peerasn p JOIN ipam_asn a ON a.id = p.asn_id ORDER BY a.asn')) as Array<{
    asn: string | number;
  }>;
  return {
    ixIds: [...new Set([...linked.map((row) => Number(row.ix_id)), ...configuredIxIds])].sort((a, b) => a - b),
    asns: asns.map((row) => Number(row.asn)),
  };
}

/** `"18, 26"` → `[18, 26]` (the setting is validated at boot). */
export function ixIdsOfSetting(value: string): number[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);
}
