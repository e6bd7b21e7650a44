import type { PluginManifest } from '../platform/plugins/plugin-declaration';
import { FMS_MANIFEST } from './fms/manifest';
import { NOTICES_MANIFEST } from './notices/manifest';
import { PATHWAYS_MANIFEST } from './pathways/manifest';
import { PEERING_MANIFEST } from './peering/manifest';
import { ROUTING_MANIFEST } from './routing/manifest';
import { WDM_MANIFEST } from './wdm/manifest';

/**
 * The manifests of {@link AVAILABLE_PLUGINS}, in the same order: enough to check PLUGINS and the
 * plugins' settings without loading their models (a unit test keeps the two lists in step).
 */
export const AVAILABLE_PLUGIN_MANIFESTS: readonly PluginManifest[] = [
  ROUTING_MANIFEST,
  FMS_MANIFEST,
  PEERING_MANIFEST,
  PATHWAYS_MANIFEST,
  NOTICES_MANIFEST,
  WDM_MANIFEST,
];
