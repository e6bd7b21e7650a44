import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const RULE = 'layers/import-layers';

interface Planted {
  filePath: string;
  code: string;
}

/**
 * The repository's own ESLint configuration (the one `npm run lint` and CI run) on planted files,
 * through ESLint's Node API in a child process: ESLint loads eslint.config.mjs as an ES module, which
 * jest's module system does not. Returns each file's messages from the layers rule.
 */
function layerErrors(files: Planted[]): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    import tseslint from 'typescript-eslint';
    const files = JSON.parse(process.argv[1]);
    // A planted file is in no TypeScript project: lint it without type information (the layers
    // rule needs none), and report a parse failure rather than drop it.
    const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: { files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked } });
    const answers = [];
    for (const { filePath, code } of files) {
      const [result] = await eslint.lintText(code, { filePath });
      answers.push(result.messages.filter((message) => message.ruleId === '${RULE}' || message.fatal).map((message) => message.message));
    }
    process.stdout.write(JSON.stringify(answers));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(files)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(output) as string[][];
}

describe('import layers (ESLint rule layers/import-layers)', () => {
  it('refuses a plugin imported by the platform, src/ imported by libs/, the platform or src/common imported by a plugin past the API, and a plugin it does not depend on', () => {
    const [
      platformToPlugin,
      libsToSrc,
      libsToSrcByAlias,
      pluginToPlatformInternals,
      pluginToCommon,
      pluginToUndeclaredPlugin,
      commonToMigrations,
    ] = layerErrors([
      { filePath: 'src/platform/dcim/planted.ts', code: "export { FmsPlugin } from '../../plugins/fms';\n" },
      { filePath: 'libs/cli/planted.ts', code: "export { loadConfig } from '../../src/common/config/app-config';\n" },
      { filePath: 'libs/cli/commands/planted.ts', code: "export { loadConfig } from '@libs/../src/common/config/app-config';\n" },
      { filePath: 'src/plugins/fms/planted.ts', code: "export { DeviceResource } from '../../platform/dcim/dcim.resources';\n" },
      {
        filePath: 'src/plugins/fms/migrations/planted.ts',
        code: "export { NotFoundError } from '../../../common/errors/common-errors';\n",
      },
      { filePath: 'src/plugins/fms/planted.ts', code: "export { BgpPeerResource } from '../routing/routing.resources';\n" },
      { filePath: 'src/common/database/planted.ts', code: "export { migrationsOf } from '../../../migrations';\n" },
    ]);
    expect(platformToPlugin).toEqual([expect.stringMatching(/^src\/platform\/dcim\/planted\.ts may not import src\/plugins\/fms: /)]);
    expect(libsToSrc).toEqual([expect.stringContaining('libs/cli/planted.ts may not import src/common/config/app-config')]);
    expect(libsToSrcByAlias).toHaveLength(1);
    expect(pluginToPlatformInternals).toEqual([expect.stringContaining('may not import src/platform/dcim/dcim.resources')]);
    expect(pluginToCommon).toEqual([expect.stringContaining('may not import src/common/errors/common-errors')]);
    expect(pluginToUndeclaredPlugin).toEqual([expect.stringContaining('may not import src/plugins/routing/routing.resources')]);
    expect(commonToMigrations).toEqual([expect.stringContaining('may not import migrations')]);
  });

  it('lets each layer import what it may: the API, its own folder, a declared dependency, libs/, and the platform its own plugins folder', () => {
    const answers = layerErrors([
      {
        filePath: 'src/plugins/fms/planted.ts',
        code: "export { DeviceResource, NotFoundError } from '../../platform/plugin-api';\nexport * from './fms.choices';\n",
      },
      { filePath: 'src/plugins/peering/planted.ts', code: "export { BgpPeerResource } from '../routing/routing.resources';\n" },
      { filePath: 'src/plugins/notices/planted.ts', code: "export { htmlText } from '../../../libs/mail/parsers/support/html';\n" },
      { filePath: 'src/platform/framework/planted.ts', code: "export { definePlugin } from '../plugins/plugin-declaration';\n" },
      { filePath: 'src/bin/planted.ts', code: "export { AVAILABLE_PLUGINS } from '../plugins';\n" },
    ]);
    expect(answers).toEqual([[], [], [], [], []]);
  });
});
