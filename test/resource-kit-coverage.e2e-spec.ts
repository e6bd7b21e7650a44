import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceDefinition } from '../src/platform/framework/resource/resource-definition';
import { PLATFORM_RESOURCE_DEFINITIONS } from '../src/platform/platform-resources';
import { PLUGIN_REGISTRY } from '../src/plugins/registry';

const ROOT = join(__dirname, '..');
const KIT = join(__dirname, 'support', 'resource-api-kit');

/** A call of the kit, which may name its fixtures' type: `describeResourceApi<Fixtures>({…})`. */
const KIT_CALL = /describeResourceApi\s*[<(]/;

/** The e2e files that call the kit: test/ and each plugin's test/ folder. */
function kitFiles(): string[] {
  const pluginTests = readdirSync(join(ROOT, 'src', 'plugins'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(ROOT, 'src', 'plugins', entry.name, 'test'));
  return [join(ROOT, 'test'), ...pluginTests]
    .flatMap((folder) => {
      try {
        return readdirSync(folder).map((name) => join(folder, name));
      } catch {
        return [];
      }
    })
    .filter((file) => file.endsWith('.e2e-spec.ts') && KIT_CALL.test(readFileSync(file, 'utf8')));
}

const noop = () => undefined;

/**
 * The object types a file runs the kit on: the file is loaded with the kit's `describeResourceApi`
 * recording its declaration and jest's globals collecting (a skipped describe or a declaration
 * never reached counts as no run), so what is counted is what jest would run, not what the text says.
 */
function objectTypesRunBy(file: string): string[] {
  const recorded: string[] = [];
  const globals = globalThis as Record<string, unknown>;
  const names = ['describe', 'it', 'test', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach'] as const;
  const saved = Object.fromEntries(names.map((name) => [name, globals[name]]));
  const describe = Object.assign((_name: string, body: () => void) => body(), {
    skip: noop,
    only: (_name: string, body: () => void) => body(),
  });
  const testCase = Object.assign(noop, { skip: noop, only: noop, each: () => noop, todo: noop });
  jest.isolateModules(() => {
    jest.doMock(KIT, () => ({
      ...jest.requireActual<object>(KIT),
      describeResourceApi: (spec: { objectType: string }) => recorded.push(spec.objectType),
      usePlatformApp: () => () => {
        throw new Error('no app while counting declarations');
      },
    }));
    Object.assign(globals, { describe, it: testCase, test: testCase, beforeAll: noop, afterAll: noop, beforeEach: noop, afterEach: noop });
    try {
      // The file is named at run time and must load inside isolateModules, after its kit is mocked.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(file);
    } finally {
      Object.assign(globals, saved);
    }
  });
  return recorded;
}

/**
 * Every registered model, core and plugin, goes through test/support/resource-api-kit.ts. The kit
 * writes (create, update, delete), so a model declared `readOnly` (only GET routes) is out of its reach
 * and tested by its own file; it may not be declared to the kit either.
 */
describe('the resource kit runs on every registered model', () => {
  const registered: ResourceDefinition[] = [
    ...PLATFORM_RESOURCE_DEFINITIONS,
    ...PLUGIN_REGISTRY.declarations().flatMap((plugin) => plugin.resources),
  ];
  const runs = new Map<string, string[]>();

  beforeAll(() => {
    for (const file of kitFiles()) {
      for (const objectType of objectTypesRunBy(file)) runs.set(objectType, [...(runs.get(objectType) ?? []), file]);
    }
  });

  it('finds the kit files and their declarations', () => {
    expect(runs.size).toBeGreaterThan(0);
  });

  it('every writable model, core and plugin, has a kit run', () => {
    const missing = registered
      .filter((definition) => !definition.readOnly && !runs.has(definition.objectType))
      .map((definition) => definition.objectType);
    expect(missing).toEqual([]);
  });

  it('every kit run names a registered, writable model', () => {
    const writable = new Set(registered.filter((definition) => !definition.readOnly).map((definition) => definition.objectType));
    expect([...runs.keys()].filter((objectType) => !writable.has(objectType))).toEqual([]);
  });
});
