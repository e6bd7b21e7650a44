import { AVAILABLE_PLUGINS } from './index';
import { AVAILABLE_PLUGIN_MANIFESTS } from './manifests';

describe('AVAILABLE_PLUGIN_MANIFESTS', () => {
  it('lists the manifest of every available plugin, in the same order, as each plugin declares it', () => {
    expect(AVAILABLE_PLUGIN_MANIFESTS.map((manifest) => manifest.name)).toEqual(AVAILABLE_PLUGINS.map((plugin) => plugin.name));
    AVAILABLE_PLUGINS.forEach((plugin, index) => {
      const manifest = AVAILABLE_PLUGIN_MANIFESTS[index];
      expect({
        name: plugin.name,
        version: plugin.version,
        description: plugin.description,
        dependencies: plugin.dependencies,
        settings: plugin.settings,
      }).toEqual({ dependencies: undefined, settings: undefined, ...manifest });
    });
  });
});
