import { registerConfigurationCheck } from './common/config/app-config';
import { PluginSet } from './platform/plugins/plugin-set';
import { PLUGIN_REGISTRY } from './plugins/registry';

// PLUGINS and the plugins' settings are checked with the other variables, before the database opens.
// Imported for this effect by every entry point that reads the environment (main.ts before it loads the
// application, which a cluster primary never does) and by the application module. The registry's manifests load
// none of the plugins' models: a cluster primary checks in milliseconds and forks its first worker.
registerConfigurationCheck((config) => PluginSet.configurationProblems(PLUGIN_REGISTRY.manifests, config));
