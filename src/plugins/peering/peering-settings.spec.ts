import { InvalidConfigurationError } from '../../common/config/env-reader';
import { PluginSet } from '../../platform/plugins/plugin-set';
import { AVAILABLE_PLUGINS } from '..';
import { ixIdsOfSetting } from './peeringdb-client';

function select(pluginVariables: Record<string, string>) {
  return PluginSet.select(AVAILABLE_PLUGINS, { plugins: ['routing', 'peering'], pluginVariables });
}

function problems(pluginVariables: Record<string, string>): string[] {
  try {
    select(pluginVariables);
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.lines();
    throw error;
  }
  return [];
}

describe('peering synchronisation settings, validated at boot', () => {
  it('defaults: PeeringDB at its public API, not scheduled; IRR every hour', () => {
    const peering = select({}).mounted.find((mounted) => mounted.plugin.name === 'peering')!;
    expect(peering.settings).toMatchObject({
      peeringdb_url: 'https://www.peeringdb.com/api',
      peeringdb_api_key: '',
      peeringdb_ix_ids: '',
      peeringdb_sync_interval: 0,
      peeringdb_max_response_bytes: 268435456,
      irr_sync_interval: 60,
    });
    const every = (queue: string) => peering.plugin.jobs!.find((job) => job.queue === queue)!.every!(peering.settings);
    expect(every('peering.peeringdb-sync')).toBe(0);
    expect(every('peering.irr-sync-all')).toBe(3600);
  });

  it('reads the URL, key, exchanges and interval', () => {
    const peering = select({
      PLUGIN_PEERING_PEERINGDB_URL: 'http://pdb-mirror.internal:8000/api',
      PLUGIN_PEERING_PEERINGDB_API_KEY: 'k3y',
      PLUGIN_PEERING_PEERINGDB_IX_IDS: '18, 26,31',
      PLUGIN_PEERING_PEERINGDB_SYNC_INTERVAL: '1440',
    }).mounted.find((mounted) => mounted.plugin.name === 'peering')!;
    expect(ixIdsOfSetting(peering.settings.peeringdb_ix_ids as string)).toEqual([18, 26, 31]);
    expect(peering.plugin.jobs!.find((job) => job.queue === 'peering.peeringdb-sync')!.every!(peering.settings)).toBe(86400);
  });

  it('refuses a URL that is not http(s), exchange ids that are not numbers, an interval out of range: one line each', () => {
    const lines = problems({
      PLUGIN_PEERING_PEERINGDB_URL: 'ftp://peeringdb.example/api',
      PLUGIN_PEERING_PEERINGDB_IX_IDS: '18,LINX',
      PLUGIN_PEERING_PEERINGDB_SYNC_INTERVAL: '-5',
      PLUGIN_PEERING_IRR_SYNC_INTERVAL: '20000',
    });
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^Invalid configuration: PLUGIN_PEERING_PEERINGDB_URL .*http\(s\) URL/);
    expect(lines[1]).toMatch(/^Invalid configuration: PLUGIN_PEERING_PEERINGDB_IX_IDS .*comma-separated PeeringDB exchange ids/);
    expect(lines[2]).toMatch(/^Invalid configuration: PLUGIN_PEERING_PEERINGDB_SYNC_INTERVAL must be an integer from 0 to 10080/);
    expect(lines[3]).toMatch(/^Invalid configuration: PLUGIN_PEERING_IRR_SYNC_INTERVAL must be an integer from 0 to 10080/);
  });
});
