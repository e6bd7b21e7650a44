import type { DataSource, EntityManager } from 'typeorm';
import { type EgressPolicy, JobQueue, parseIpNetwork, type PluginJobContext } from '../../platform/plugin-api';

/** One prefix list's synchronisation: payload `{config_id}`. */
export const IRR_SYNC_QUEUE = 'peering.irr-sync';
/** Enqueues the synchronisation of every due prefix list: payload `{}` (or `{all: true}` to ignore the intervals). */
export const IRR_SYNC_ALL_QUEUE = 'peering.irr-sync-all';

/** How long the generator may take to answer. */
const GENERATOR_TIMEOUT_MS = 30_000;

/** How the generator is asked: through the egress policy, reading at most `maxResponseBytes` of its answer. */
export interface GeneratorAccess {
  egress: EgressPolicy;
  maxResponseBytes: number;
}

export interface IrrSyncResult {
  as_set: string;
  irr_source: string;
  prefix_list: string;
  family: string;
  prefixes: number;
  deleted_entries: number;
  created_entries: number;
  /** Change records written (one per entry deleted or created). */
  changes: number;
}

export interface IrrSyncAllResult {
  total_configs: number;
  enqueued: number;
  skipped: number;
}

interface ConfigRow {
  id: number;
  source_as_set: string;
  prefix_list_id: number;
  prefix_list: string;
  family: 'ipv4' | 'ipv6';
  source_name: string | null;
  api_endpoint: string | null;
  sources: string | null;
  enabled: boolean | null;
}

/** A synchronisation that cannot be done; the job fails and the prefix list keeps its entries. */
export class IrrSyncError extends Error {
  override readonly name = 'IrrSyncError';
}

/**
 * The generator's request: `GET <api_endpoint>?as_set=<AS-SET>&family=ipv4|ipv6[&sources=<sources>]`,
 * answered with JSON `{"prefixes": ["192.0.2.0/24", …]}` (or the bare list).
 */
export function generatorUrl(apiEndpoint: string, asSet: string, family: string, sources: string | null): string {
  const url = new URL(apiEndpoint);
  url.searchParams.set('as_set', asSet);
  url.searchParams.set('family', family);
  if (sources) url.searchParams.set('sources', sources);
  return url.toString();
}

async function fetchPrefixes(config: ConfigRow, access: GeneratorAccess): Promise<string[]> {
  const url = generatorUrl(config.api_endpoint!, config.source_as_set, config.family, config.sources);
  let response;
  try {
    // No redirect is followed: a 3xx is an error status below.
    response = await access.egress.request(url, {
      headers: { accept: 'application/json' },
      timeoutMs: GENERATOR_TIMEOUT_MS,
      maxResponseBytes: access.maxResponseBytes,
      overflow: 'fail',
    });
  } catch (error) {
    throw new IrrSyncError(`IRR generator unreachable (${url}): ${error instanceof Error ? error.message : String(error)}`);
  }
  if (response.status < 200 || response.status > 299) throw new IrrSyncError(`IRR generator answered ${response.status} for ${url}`);
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new IrrSyncError(`IRR generator answered something other than JSON for ${url}`);
  }
  const list = Array.isArray(body)
    ? body
    : body !== null && typeof body === 'object'
      ? (body as { prefixes?: unknown }).prefixes
      : undefined;
  if (!Array.isArray(list)) throw new IrrSyncError(`IRR generator answered no prefix list for ${url}`);
  const prefixes: string[] = [];
  for (const item of list) {
    const parsed = parseIpNetwork(item, { requireMask: true });
    if ('problem' in parsed) throw new IrrSyncError(`IRR generator answered an invalid prefix ${JSON.stringify(item)}: ${parsed.problem}`);
    if (parsed.value.includes(':') !== (config.family === 'ipv6'))
      throw new IrrSyncError(`IRR generator answered ${parsed.value}, not of the prefix list's family ${config.family}`);
    prefixes.push(parsed.value);
  }
  return [...new Set(prefixes)];
}

async function loadConfig(manager: EntityManager, configId: number): Promise<ConfigRow | undefined> {
  const [config] = (await manager.query(
    `SELECT c.id, c.source_as_set, c.prefix_list_id, l.name AS prefix_list, l.family, s.name AS source_name, s.url AS api_endpoint, s.sources, s.enabled
       FROM peering_irrprefixlistconfig c JOIN routing_prefixlist l ON l.id = c.prefix_list_id LEFT JOIN peering_irrsource s ON s.id = c.irr_source_id
      WHERE c.id = $1`,
    [configId],
  )) as ConfigRow[];
  return config;
}

/**
 * Synchronises one prefix list from its IRR source: asks the generator for the AS-SET's prefixes of
 * the list's family, then in one transaction replaces every entry with permit entries numbered
 * 1..n (no ge/le), each deletion and creation in the change log. Any failure (unreachable, an error
 * status, a bad answer) throws before the transaction, so the list keeps its entries.
 */
export async function syncPrefixList(
  dataSource: DataSource,
  configId: number,
  access: GeneratorAccess,
  changeLog: PluginJobContext['changeLog'],
): Promise<IrrSyncResult> {
  const config = await loadConfig(dataSource.manager, configId);
  if (!config) throw new IrrSyncError(`IRR prefix list config ${configId} does not exist`);
  if (config.source_name === null || !config.source_as_set)
    throw new IrrSyncError(`IRR prefix list config ${configId} has no IRR source and AS-SET`);
  if (!config.enabled) throw new IrrSyncError(`IRR source ${config.source_name} is disabled`);
  const prefixes = await fetchPrefixes(config, access);
  return dataSource.transaction(async (manager) => {
    // The list is locked so that no entry is added between the deletion's records and the deletion.
    await manager.query('SELECT id FROM routing_prefixlist WHERE id = $1 FOR UPDATE', [config.prefix_list_id]);
    const existing = (await manager.query('SELECT id FROM routing_prefixlistentry WHERE prefix_list_id = $1 ORDER BY sequence', [
      config.prefix_list_id,
    ])) as Array<{ id: number }>;
    const deleted = existing.length;
    let changes = await changeLog.recordDeletions(
      manager,
      'routing.prefixlistentry',
      existing.map(({ id }) => id),
    );
    await manager.query('DELETE FROM routing_prefixlistentry WHERE prefix_list_id = $1', [config.prefix_list_id]);
    if (prefixes.length > 0) {
      const created = (await manager.query(
        `INSERT INTO routing_prefixlistentry (prefix_list_id, sequence, action, prefix)
         SELECT $1, ordinality, 'permit', prefix::cidr FROM unnest($2::text[]) WITH ORDINALITY AS given(prefix, ordinality) RETURNING id`,
        [config.prefix_list_id, prefixes],
      )) as Array<{ id: number }>;
      changes += await changeLog.record(
        manager,
        created.map(({ id }) => ({ objectType: 'routing.prefixlistentry', id, action: 'create' as const })),
      );
    }
    await manager.query('UPDATE peering_irrprefixlistconfig SET last_synced = now() WHERE id = $1', [configId]);
    return {
      as_set: config.source_as_set,
      irr_source: config.source_name!,
      prefix_list: config.prefix_list,
      family: config.family,
      prefixes: prefixes.length,
      deleted_entries: deleted,
      created_entries: prefixes.length,
      changes,
    };
  });
}

/**
 * Enqueues one synchronisation job per prefix list that has an enabled IRR source and an AS-SET and
 * is due (never synchronised, or `sync_interval` minutes ago); with `all`, every such list.
 */
export async function enqueueDueSyncs(dataSource: DataSource, all: boolean): Promise<IrrSyncAllResult> {
  return dataSource.transaction(async (manager) => {
    const configs = (await manager.query(
      `SELECT c.id, s.enabled AND c.source_as_set <> '' AND (c.last_synced IS NULL OR c.last_synced <= now() - make_interval(mins => c.sync_interval)) AS due
         FROM peering_irrprefixlistconfig c LEFT JOIN peering_irrsource s ON s.id = c.irr_source_id ORDER BY c.id`,
    )) as Array<{ id: number; due: boolean | null }>;
    const enabled = (await manager.query(
      `SELECT c.id FROM peering_irrprefixlistconfig c JOIN peering_irrsource s ON s.id = c.irr_source_id WHERE s.enabled AND c.source_as_set <> ''`,
    )) as Array<{ id: number }>;
    const chosen = all ? enabled.map(({ id }) => id) : configs.filter(({ due }) => due === true).map(({ id }) => id);
    const queue = new JobQueue();
    for (const id of chosen) await queue.enqueue(manager, IRR_SYNC_QUEUE, { config_id: id }, { maxAttempts: 3 });
    return { total_configs: configs.length, enqueued: chosen.length, skipped: configs.length - chosen.length };
  });
}
