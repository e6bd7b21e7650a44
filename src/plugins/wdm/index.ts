import { definePlugin } from '../../platform/plugin-api';
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
});
