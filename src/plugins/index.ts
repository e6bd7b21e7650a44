import type { PluginDefinition } from '../platform/plugins/plugin-declaration';
import { PLUGIN_REGISTRY } from './registry';

/** The declarations of the plugins in ./registry.ts (loading their models), in its order. */
export const AVAILABLE_PLUGINS: readonly PluginDefinition[] = PLUGIN_REGISTRY.declarations();
