import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PluginRegistry } from './plugin-registry';

/** Plugin folders written for each test, in plain CommonJS; each records in `globalThis.pluginLoads` which of its modules ran. */
describe('PluginRegistry', () => {
  const declarationModule = join(__dirname, 'plugin-declaration');
  let directory: string;
  const loads = (): string[] => (globalThis as { pluginLoads?: string[] }).pluginLoads!;

  const writePlugin = (folder: string, files: { manifest?: string; index?: string } = {}) => {
    mkdirSync(join(directory, folder));
    const record = (module: string) => `globalThis.pluginLoads.push(${JSON.stringify(`${folder}/${module}`)});\n`;
    writeFileSync(
      join(directory, folder, 'manifest.js'),
      record('manifest') +
        (files.manifest ?? `exports.MANIFEST = { name: '${folder}', version: '1.0.0', description: 'the ${folder} plugin' };\n`),
    );
    writeFileSync(
      join(directory, folder, 'index.js'),
      record('index') +
        `const { definePlugin } = require(${JSON.stringify(declarationModule)});\nconst { MANIFEST } = require('./manifest');\n` +
        (files.index ?? `exports.Plugin = definePlugin({ ...MANIFEST, resources: [] });\nexports.helper = { name: '${folder}' };\n`),
    );
  };

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'plugin-registry-'));
    (globalThis as { pluginLoads?: string[] }).pluginLoads = [];
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads the manifests in registration order without loading a declaration, and loads the declarations when asked', () => {
    writePlugin('beta');
    writePlugin('alpha', {
      manifest: `exports.MANIFEST = { name: 'alpha', version: '2.0.0', description: 'first', dependencies: ['beta'] };\n`,
    });

    const registry = new PluginRegistry(directory, ['alpha', 'beta']);

    expect(registry.manifests).toEqual([
      { name: 'alpha', version: '2.0.0', description: 'first', dependencies: ['beta'] },
      { name: 'beta', version: '1.0.0', description: 'the beta plugin' },
    ]);
    expect(loads()).toEqual(['alpha/manifest', 'beta/manifest']);
    const declarations = registry.declarations();
    expect(declarations.map((plugin) => [plugin.name, plugin.version, plugin.basePath])).toEqual([
      ['alpha', '2.0.0', '/api/plugins/alpha/'],
      ['beta', '1.0.0', '/api/plugins/beta/'],
    ]);
    expect(loads()).toEqual(['alpha/manifest', 'beta/manifest', 'alpha/index', 'beta/index']);
    expect(registry.declarations()).toBe(declarations);
  });

  it('refuses a name that is not a plugin name, and a plugin registered twice', () => {
    writePlugin('alpha');
    expect(() => new PluginRegistry(directory, ['Alpha'])).toThrow(
      'plugin registry: "Alpha" is not a plugin name (lowercase letters and digits)',
    );
    expect(() => new PluginRegistry(directory, ['alpha', 'alpha'])).toThrow('plugin registry: alpha is registered twice');
  });

  it('refuses a folder without a manifest, or whose manifest names another plugin', () => {
    expect(() => new PluginRegistry(directory, ['missing'])).toThrow(/Cannot find module/);
    writePlugin('alpha', { manifest: `exports.MANIFEST = { name: 'beta', version: '1.0.0', description: 'misnamed' };\n` });
    expect(() => new PluginRegistry(directory, ['alpha'])).toThrow(
      `plugin alpha: ${join(directory, 'alpha', 'manifest')} must export one manifest whose name is alpha`,
    );
  });

  it('refuses a folder whose index exports no declaration of that name', () => {
    writePlugin('alpha', { index: `exports.Plugin = { ...MANIFEST, resources: [], basePath: '/api/plugins/alpha/' };\n` });
    const registry = new PluginRegistry(directory, ['alpha']);
    expect(() => registry.declarations()).toThrow(
      `plugin alpha: ${join(directory, 'alpha', 'index')} must export one definePlugin({name: 'alpha', …})`,
    );
  });

  it('refuses a declaration that does not repeat its manifest', () => {
    writePlugin('alpha', {
      index: `exports.Plugin = definePlugin({ ...MANIFEST, version: '1.0.1', dependencies: ['beta'], resources: [] });\n`,
    });
    const registry = new PluginRegistry(directory, ['alpha']);
    expect(() => registry.declarations()).toThrow(
      "plugin alpha: its declaration's version, dependencies differ from its manifest's (spread the manifest)",
    );
  });
});
