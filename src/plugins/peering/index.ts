import { definePlugin } from '../../platform/plugin-api';
import { PEERING_MANIFEST } from './manifest';
import { enqueueDueSyncs, IRR_SYNC_ALL_QUEUE, IRR_SYNC_QUEUE, syncPrefixList } from './irr-sync';
import { MIGRATIONS } from './migrations';
import { PEERING_RESOURCES } from './peering.resources';
import { PEERINGDB_SYNC_QUEUE, syncPeeringDb } from './peeringdb-sync';
import { RENDER_CONFIG_ROUTE } from './render-config';

/** Peering management on the routing plugin's BGP peers: sessions, peer ASNs, fabrics, IRR prefix lists, configuration rendering. */
export const PeeringPlugin = definePlugin({
  ...PEERING_MANIFEST,
  appLabelAliases: ['netbox_peering_manager'],
  resources: PEERING_RESOURCES,
  migrations: MIGRATIONS,
  routes: [RENDER_CONFIG_ROUTE],
  // Not exposed through the API: enqueued by `npm run peering:sync-peeringdb` / `peering:sync-irr` (./peering-sync.command.ts).
  jobs: [
    {
      queue: PEERINGDB_SYNC_QUEUE,
      handle: async (payload, { dataSource }) => {
        await dataSource.transaction((manager) => syncPeeringDb(manager, (payload.export ?? {}) as Record<string, unknown>));
      },
    },
    {
      queue: IRR_SYNC_QUEUE,
      handle: async (payload, { dataSource, egress, settings }) => {
        await syncPrefixList(dataSource, Number(payload.config_id), {
          egress,
          maxResponseBytes: settings.irr_max_response_bytes as number,
        });
      },
    },
    {
      queue: IRR_SYNC_ALL_QUEUE,
      handle: async (payload, { dataSource }) => {
        await enqueueDueSyncs(dataSource, payload.all === true);
      },
    },
  ],
});
