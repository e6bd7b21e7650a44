#!/usr/bin/env node
// `npm run plugin:new -- <name>`: writes a new plugin's folder, src/plugins/<name>/ (its manifest,
// declaration, one example model related to dcim.device, an empty migrations list, its docs page and
// a test of the model's REST and GraphQL contract), and registers it: one line of
// src/plugins/registry.ts, the only file outside the folder it touches.
// `npm run plugin:new -- --existing <name>`: registers a folder that is already there (a plugin
// copied in from elsewhere), the same one line.
const fs = require('node:fs');
const path = require('node:path');
const prettier = require('prettier');

const ROOT = path.join(__dirname, '..');
const PLUGINS_DIR = path.join(ROOT, 'src', 'plugins');
const REGISTRY = path.join(PLUGINS_DIR, 'registry.ts');
const USAGE =
  'usage: npm run plugin:new -- <name>   (or -- --existing <name>)\n<name>: lowercase letters and digits, starting with a letter';

async function main(args) {
  const existing = args[0] === '--existing';
  const name = existing ? args[1] : args[0];
  if (!name || !/^[a-z][a-z0-9]*$/.test(name) || args.length !== (existing ? 2 : 1)) fail(USAGE);
  const folder = path.join(PLUGINS_DIR, name);
  const relativeFolder = path.relative(ROOT, folder);
  if (registered(fs.readFileSync(REGISTRY, 'utf8')).includes(name)) fail(`${name} is already registered in src/plugins/registry.ts`);
  if (existing) {
    for (const file of ['manifest.ts', 'index.ts']) {
      if (!fs.existsSync(path.join(folder, file))) fail(`${relativeFolder}/${file} is missing: copy the plugin's whole folder there first`);
    }
  } else {
    if (fs.existsSync(folder)) fail(`${relativeFolder} already exists (register a plugin copied in with --existing ${name})`);
    for (const [file, text] of Object.entries(pluginFiles(name))) {
      const target = path.join(folder, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // Formatted as the repository's own code is (a long plugin name lengthens some lines).
      const formatted = file.endsWith('.ts')
        ? await prettier.format(text, { ...(await prettier.resolveConfig(target)), filepath: target })
        : text;
      fs.writeFileSync(target, formatted);
      console.log(`wrote ${relativeFolder}/${file}`);
    }
  }
  register(name);
  console.log(`registered ${name} in src/plugins/registry.ts`);
  if (!existing) {
    console.log(`next: npm run migration:generate -- Create${pascal(name)} --plugin ${name}, then npm run test:e2e -- ${relativeFolder}`);
  }
}

function fail(message) {
  console.error(message);
  process.exit(2);
}

/** The names in the registry's list (one quoted name per line). */
function registered(source) {
  return [...listOf(source).body.matchAll(/^\s*'([a-z][a-z0-9]*)',\s*$/gm)].map((match) => match[1]);
}

function listOf(source) {
  const match = /new PluginRegistry\(__dirname, \[\n([\s\S]*?)\]\);/.exec(source);
  if (!match) fail('src/plugins/registry.ts: its list of plugins (one per line) is not where this script expects it');
  return { body: match[1], end: match.index + match[0].length - ']);'.length };
}

function register(name) {
  const source = fs.readFileSync(REGISTRY, 'utf8');
  const { end } = listOf(source);
  fs.writeFileSync(REGISTRY, `${source.slice(0, end)}  '${name}',\n${source.slice(end)}`);
}

const pascal = (name) => name[0].toUpperCase() + name.slice(1);

/** The files of a new plugin, by path inside its folder. */
function pluginFiles(name) {
  const Name = pascal(name);
  const NAME = name.toUpperCase();
  const base = `/api/plugins/${name}/`;
  return {
    'manifest.ts': `import type { PluginManifest } from '../../platform/plugins/plugin-declaration';

/** What the configuration check needs of the plugin (name, dependencies, settings), without loading its models. */
export const ${NAME}_MANIFEST: PluginManifest = {
  name: '${name}',
  version: '0.1.0',
  description: 'Inspections of devices, each with a result.',
};
`,
    'index.ts': `import { definePlugin } from '../../platform/plugin-api';
import { ${NAME}_MANIFEST } from './manifest';
import { MIGRATIONS } from './migrations';
import { InspectionResource } from './${name}.resources';

/** The ${name} plugin: its models, migrations and extensions (docs/plugins/README.md lists every field). */
export const ${Name}Plugin = definePlugin({
  ...${NAME}_MANIFEST,
  resources: [InspectionResource],
  migrations: MIGRATIONS,
});
`,
    [`${name}.resources.ts`]: `import { choice, defineResource, DeviceResource, relation, text } from '../../platform/plugin-api';

/** An inspection of a device: served at ${base}inspections/, object type ${name}.inspection. */
export const InspectionResource = defineResource({
  appLabel: '${name}',
  model: 'inspection',
  path: 'inspections',
  apiPrefix: '${base}',
  verboseName: 'inspection',
  graphqlName: '${name}_inspection',
  table: '${name}_inspection',
  fields: {
    device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
    name: text({ maxLength: 100, required: true, search: true }),
    result: choice(['pending', 'passed', 'failed'], { default: 'pending' }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['device', 'name', 'result'],
  ordering: ['device', 'name'],
  uniqueTogether: [['device', 'name']],
});
`,
    'migrations/index.ts': `import type { MigrationClass } from '../../../platform/plugin-api';

/** The ${name} plugin's migrations, oldest first (\`npm run migration:generate -- <Name> --plugin ${name}\` adds to it). */
export const MIGRATIONS: MigrationClass[] = [];
`,
    [`test/${name}-api.e2e-spec.ts`]: `import type { PlatformClient } from '../../../../test/support/platform-client';
import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';

/** Two devices, for the inspections to be made on. */
async function devices(api: PlatformClient): Promise<Array<{ id: number }>> {
  const site = await api.created('/api/dcim/sites/', { name: unique('site'), slug: unique('site') });
  const manufacturer = await api.created('/api/dcim/manufacturers/', { name: unique('maker'), slug: unique('maker') });
  const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: unique('model'), slug: unique('model') });
  const role = await api.created('/api/dcim/device-roles/', { name: unique('role'), slug: unique('role') });
  const device = () => api.created('/api/dcim/devices/', { name: unique('device'), device_type: deviceType.id, role: role.id, site: site.id });
  return [await device(), await device()];
}

/** The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of each ${name} model. */
describe('${name} plugin: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: '${base}inspections/',
    objectType: '${name}.inspection',
    graphqlName: '${name}_inspection',
    fixtures: async ({ api }) => ({ devices: await devices(api) }),
    create: ({ devices: [first, second] }) => [
      { device: first.id, name: 'power', result: 'passed' },
      { device: first.id, name: 'optics', result: 'failed', description: 'dirty connector' },
      { device: second.id, name: 'power' },
    ],
    update: { result: 'passed', description: 'cleaned' },
    bulkUpdate: { description: 'checked' },
    brief: ['id', 'url', 'display', 'device', 'name', 'result'],
    filters: ({ devices: [first] }) => ({ 'result=failed': [1], 'name=power': [0, 2], [\`device_id=\${first.id}\`]: [0, 1] }),
    invalid: [
      { body: ({ devices: [first] }) => ({ device: first.id, name: 'fans', result: 'unknown' }), field: 'result' },
      { body: { name: 'no device' }, field: 'device' },
    ],
  });
});
`,
    'README.md': `# ${name}

Inspections of devices, each with a result. Served under \`${base}\` when \`PLUGINS\` names
\`${name}\` (or is unset); how plugins are written: [docs/plugins/README.md](../../../docs/plugins/README.md).

## Models

| Model | REST | GraphQL | Fields |
|---|---|---|---|
| \`${name}.inspection\` | \`${base}inspections/\` | \`${name}_inspection\`, \`${name}_inspection_list\` | \`device\` (required; deleted with the device), \`name\` (unique per device), \`result\` (\`pending\` by default, \`passed\`, \`failed\`), \`description\` |

## Settings

None.

## Tests

\`test/${name}-api.e2e-spec.ts\`: the REST and GraphQL contract of each model (\`npm run test:e2e -- src/plugins/${name}\`).
`,
  };
}

void main(process.argv.slice(2));
