import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const P = '/api/plugins/pathways';
const COMMAND = join(__dirname, '../../../../dist/src/plugins/pathways/import-geodata.js');
const run = promisify(execFile);

/** `import-geodata` (built, in dist/) loading a GeoJSON layer through the API under a YAML schema. */
describe('platform pathways plugin: import-geodata', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const dir = mkdtempSync(join(tmpdir(), 'pathways-import-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const importing = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run('node', [COMMAND, ...args], {
        env: { ...process.env, PLATFORM_URL: seeded.testApp.baseUrl, PLATFORM_TOKEN: root.token },
      });
      return { code: 0, stdout, stderr };
    } catch (error: any) {
      return { code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string };
    }
  };

  const layer = (features: Array<[Record<string, unknown>, unknown]>) =>
    JSON.stringify({
      type: 'FeatureCollection',
      features: features.map(([properties, geometry]) => ({ type: 'Feature', properties, geometry })),
    });
  const schema = file(
    'manholes.yaml',
    [
      'model: structure',
      'name_template: "MH-{ID}"',
      'defaults:',
      '  structure_type: manhole',
      'fields:',
      '  DEPTH_M: {to: depth, transform: to_float, null_values: [0, -9999]}',
      '  BUILT: {to: installation_date, transform: year_to_date}',
      '  STATE: {to: status, map: {A: active, P: planned}}',
      'exclude:',
      '  STATE: X',
    ].join('\n'),
  );

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('creates the features the schema keeps, maps their properties, and reports the refused ones', async () => {
    const data = file(
      'manholes.geojson',
      layer([
        [
          { ID: 1, DEPTH_M: 2.5, BUILT: 1998, STATE: 'A' },
          { type: 'Point', coordinates: [4.9, 52.37] },
        ],
        [
          { ID: 2, DEPTH_M: -9999, BUILT: 0, STATE: 'P' },
          { type: 'Point', coordinates: [4.91, 52.37] },
        ],
        [
          { ID: 3, STATE: 'X' },
          { type: 'Point', coordinates: [4.92, 52.37] },
        ],
        [
          { ID: 4, STATE: 'A' },
          { type: 'Point', coordinates: [4.93, 95] },
        ],
      ]),
    );
    const result = await importing(data, '--schema', schema);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ created: 2, updated: 0, skipped: 1, failed: 1 });
    expect(result.stderr).toMatch(/feature 3: 400 .*latitude 95/);
    const structures = (await root.get(`${P}/structures/?ordering=name`)).body.results;
    expect(structures.map((row: any) => [row.name, row.status.value, row.structure_type.value, row.depth, row.installation_date])).toEqual([
      ['MH-1', 'active', 'manhole', 2.5, '1998-01-01'],
      ['MH-2', 'planned', 'manhole', null, null],
    ]);
  });

  it('updates the objects it finds by name with --update, and writes nothing with --dry-run', async () => {
    const data = file(
      'again.geojson',
      layer([
        [
          { ID: 1, DEPTH_M: 3, STATE: 'A' },
          { type: 'Point', coordinates: [4.9, 52.37] },
        ],
      ]),
    );
    const dry = await importing(data, '--schema', schema, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stderr).toMatch(/feature 0: .*"name":"MH-1"/);
    expect((await root.get(`${P}/structures/?name=MH-1`)).body.results[0].depth).toBe(2.5);
    const updated = await importing(data, '--schema', schema, '--update');
    expect(JSON.parse(updated.stdout)).toEqual({ created: 0, updated: 1, skipped: 0, failed: 0 });
    expect((await root.get(`${P}/structures/?name=MH-1`)).body.results[0].depth).toBe(3);
    expect((await root.get(`${P}/structures/`)).body.count).toBe(2);
  });

  it('refuses a bad schema, a projected file and a missing token, writing nothing', async () => {
    const badSchema = file('bad.yaml', 'model: manhole\nfields:\n  A: {to: x, transform: shout}\n');
    const refused = await importing(file('empty.geojson', layer([])), '--schema', badSchema);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/model: one of structure.*transform: one of/);
    const projected = file(
      'projected.geojson',
      JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'EPSG:3857' } }, features: [] }),
    );
    expect((await importing(projected, '--schema', schema)).stderr).toMatch(/WGS84 only; reproject/);
    const { stderr } = await run('node', [COMMAND, projected, '--schema', schema], { env: { ...process.env, PLATFORM_TOKEN: '' } }).catch(
      (error) => error,
    );
    expect(stderr).toMatch(/PLATFORM_TOKEN/);
    expect((await root.get(`${P}/structures/`)).body.count).toBe(2);
  });
});
