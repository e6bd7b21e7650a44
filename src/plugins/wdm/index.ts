import { definePlugin } from '../../platform/plugins/plugin-declaration';
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
  name: 'wdm',
  version: '1.0.0',
  description:
    'WDM: profiles and ITU channel plans, nodes with generated channels and line ports, circuits over derived wavelength paths; read-only GraphQL, REST operations.',
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
