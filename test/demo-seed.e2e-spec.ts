import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const SCRIPT = join(__dirname, '..', 'scripts', 'demo-seed.js');
const P = '/api/plugins';

/** `npm run demo:seed` against a running app: what it creates in core and each plugin, and that a second run changes nothing. */
describe('npm run demo:seed', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let base: string;

  const runSeed = (env: Record<string, string>) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [SCRIPT], { env: { PATH: process.env.PATH ?? '', DEMO_API: base, ...env } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
      );
    });
  const count = async (path: string) => (await root.get(path)).body.count as number;

  beforeAll(async () => {
    ({ seeded, api: root, base } = await startPlatformApp());
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('creates a coherent inventory across core and every plugin', async () => {
    const run = await runSeed({ DEMO_TOKEN: root.token! });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^seeded: /);
    expect(await count('/api/dcim/sites/?slug=ams-dam')).toBe(1);
    expect(await count('/api/dcim/devices/?site=ams-dam')).toBe(2);
    const [plan] = (await root.get(`${P}/fms/splice-plans/`)).body.results;
    expect(plan).toMatchObject({ name: 'Dam feeder to distribution', entry_count: 2 });
    expect(await count(`${P}/fms/fiber-cables/`)).toBe(1);
    const structures = (await root.get(`${P}/pathways/geo/structures/`)).body;
    expect(structures.features.map((feature: any) => feature.properties.status.value).sort()).toEqual([
      'active',
      'active',
      'planned',
      'retired',
    ]);
    const pathways = (await root.get(`${P}/pathways/geo/pathways/`)).body;
    expect(pathways.features.map((feature: any) => feature.properties.pathway_type).sort()).toEqual(['aerial', 'conduit', 'direct_buried']);
    expect(await count(`${P}/pathways/cable-segments/`)).toBe(1);
    expect((await root.get(`${P}/pathways/geo/circuits/`)).body.features).toHaveLength(1);
    expect(await count(`${P}/wdm/wdm-nodes/`)).toBe(1);
    expect(await count(`${P}/peering/peering-session/`)).toBe(1);
    expect((await root.get(`${P}/notices/maintenance/?name=DC-MAINT-0001`)).body.results).toEqual([
      expect.objectContaining({ status: expect.objectContaining({ value: 'CONFIRMED' }) }),
    ]);
  });

  it('a second run finds the demo site and changes nothing', async () => {
    const before = await count('/api/dcim/devices/');
    const run = await runSeed({ DEMO_TOKEN: root.token! });
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('already there') });
    expect(await count('/api/dcim/devices/')).toBe(before);
  });

  it('without credentials it says what to set and exits 1', async () => {
    expect(await runSeed({})).toEqual({ code: 1, stdout: '', stderr: 'demo:seed: set DEMO_TOKEN, or DEMO_USERNAME and DEMO_PASSWORD\n' });
  });
});
