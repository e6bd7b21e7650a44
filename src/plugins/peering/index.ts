import { definePlugin } from '../../platform/plugin-api';
import { PEERING_MANIFEST } from './manifest';
import { enqueueDueSyncs, IRR_SYNC_ALL_QUEUE, IRR_SYNC_QUEUE, syncPrefixList } from './irr-sync';
import { MIGRATIONS } from './migrations';
import { PEERING_RESOURCES } from './peering.resources';
import { fetchPeeringDb, ixIdsOfSetting, liveSelection } from './peeringdb-client';
import { PEERINGDB_SYNC_QUEUE, SyncChanges, syncPeeringDb } from './peeringdb-sync';
import { recordedRun } from './sync-runs';
import { RENDER_CONFIG_ROUTE } from './render-config';

/** Peering management on the routing plugin's BGP peers: sessions, peer ASNs, fabrics, IRR prefix lists, configuration rendering. */
export const PeeringPlugin = definePlugin({
  ...PEERING_MANIFEST,
  appLabelAliases: ['netbox_peering_manager'],
  resources: PEERING_RESOURCES,
  migrations: MIGRATIONS,
  routes: [RENDER_CONFIG_ROUTE],
  // Not exposed through the API: scheduled by the settings, or enqueued by `npm run peering:sync-peeringdb` / `peering:sync-irr` (./peering-sync.command.ts).
  jobs: [
    {
      queue: PEERINGDB_SYNC_QUEUE,
      every: (settings) => (settings.peeringdb_sync_interval as number) * 60,
      handle: async (payload, { dataSource, egress, settings, job, changeLog }) => {
        const fromFile = payload.export !== undefined;
        await recordedRun(dataSource, { kind: 'peeringdb', source: fromFile ? 'file' : 'live', jobId: job.id }, async () => {
          // Fetched before the transaction: no lock is held while PeeringDB answers.
          const dump = fromFile
            ? (payload.export as Record<string, unknown>)
            : await fetchPeeringDb(
                {
                  egress,
                  baseUrl: settings.peeringdb_url as string,
                  apiKey: settings.peeringdb_api_key as string,
                  maxResponseBytes: settings.peeringdb_max_response_bytes as number,
                },
                await liveSelection(dataSource.manager, ixIdsOfSetting(settings.peeringdb_ix_ids as string)),
              );
          return dataSource.transaction(async (manager) => {
            const changes = new SyncChanges((...args) => changeLog.snapshots(...args));
            const result = await syncPeeringDb(manager, dump, changes);
            return { ...result, changes: await changeLog.record(manager, changes.changes) };
          });
        });
      },
    },
    {
      queue: IRR_SYNC_QUEUE,
      handle: async (payload, { dataSource, egress, settings, job, changeLog }) => {
        await recordedRun(dataSource, { kind: 'irr', source: 'generator', jobId: job.id }, () =>
          syncPrefixList(
            dataSource,
            Number(payload.config_id),
            { egress, maxResponseBytes: settings.irr_max_response_bytes as number },
            changeLog,
          ),
        );
      },
    },
    {
      queue: IRR_SYNC_ALL_QUEUE,
      every: (settings) => (settings.irr_sync_interval as number) * 60,
      handle: async (payload, { dataSource }) => {
        await enqueueDueSyncs(dataSource, payload.all === true);
      },
    },
  ],
});
