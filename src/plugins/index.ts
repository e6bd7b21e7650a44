import type { PluginDefinition } from '../platform/plugins/plugin-declaration';
import { FmsPlugin } from './fms';
import { NoticesPlugin } from './notices';
import { PathwaysPlugin } from './pathways';
import { PeeringPlugin } from './peering';
import { RoutingPlugin } from './routing';
import { WdmPlugin } from './wdm';

/**
 * Every plugin this repository ships (with ./manifests.ts, the only places outside a plugin's own
 * folder that name it). PLUGINS selects which of them are mounted (all of them when unset).
 */
export const AVAILABLE_PLUGINS: readonly PluginDefinition[] = [
  RoutingPlugin,
  FmsPlugin,
  PeeringPlugin,
  PathwaysPlugin,
  NoticesPlugin,
  WdmPlugin,
];
