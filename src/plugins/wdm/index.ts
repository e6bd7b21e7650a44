import { definePlugin } from '../../platform/plugin-api';
import {
  addModuleComponents,
  createNodeForDevice,
  noteChannelsOnCable,
  rebuildPathsOfCable,
  recheckPortSyncOfDevice,
  refreshNodeOfDevice,
  refuseSameRoleTrunk,
} from './automation';
import { WDM_MANIFEST } from './manifest';
import { MIGRATIONS } from './migrations';
import {
  WdmChannelPlanResource,
  WdmChannelResource,
  WdmCircuitResource,
  WdmLinePortPlanResource,
  WdmLinePortResource,
  WdmNodeResource,
  WdmProfileResource,
  WdmWavelengthPathResource,
} from './wdm.resources';

/** WDM: profiles with ITU channel plans, nodes with generated channels and line ports, wavelength paths and circuits. */
export const WdmPlugin = definePlugin({
  ...WDM_MANIFEST,
  appLabelAliases: ['netbox_wdm'],
  resources: [
    WdmProfileResource,
    WdmChannelPlanResource,
    WdmLinePortPlanResource,
    WdmNodeResource,
    WdmLinePortResource,
    WdmChannelResource,
    WdmWavelengthPathResource,
    WdmCircuitResource,
  ],
  migrations: MIGRATIONS,
  hooks: [
    { objectTypes: ['dcim.device'], afterCreate: createNodeForDevice },
    { objectTypes: ['dcim.module'], afterCreate: addModuleComponents },
    {
      objectTypes: ['dcim.portmapping'],
      afterCreate: ({ manager }, mapping) => refreshNodeOfDevice(manager, mapping.device_id),
      afterUpdate: ({ manager }, _before, mapping) => refreshNodeOfDevice(manager, mapping.device_id),
      afterDelete: ({ manager }, mapping) => refreshNodeOfDevice(manager, mapping.device_id),
    },
    {
      objectTypes: ['dcim.frontport', 'dcim.rearport'],
      afterCreate: ({ manager }, port) => recheckPortSyncOfDevice(manager, port.device_id),
      afterUpdate: ({ manager }, _before, port) => recheckPortSyncOfDevice(manager, port.device_id),
      afterDelete: ({ manager }, port) => recheckPortSyncOfDevice(manager, port.device_id),
    },
    {
      objectTypes: ['dcim.cable'],
      afterCreate: async ({ manager }, cable) => {
        await refuseSameRoleTrunk(manager, cable.id);
        await rebuildPathsOfCable(manager, cable.id);
      },
      beforeUpdate: ({ manager }, cable) => noteChannelsOnCable(manager, cable.id),
      afterUpdate: async ({ manager }, _before, cable) => {
        await refuseSameRoleTrunk(manager, cable.id);
        await rebuildPathsOfCable(manager, cable.id);
      },
      beforeDelete: ({ manager }, cable) => noteChannelsOnCable(manager, cable.id),
      afterDelete: ({ manager }, cable) => rebuildPathsOfCable(manager, cable.id),
    },
  ],
});
