import { factories } from './support/factories';
import { recordStatements } from './support/statement-recorder';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const F = '/api/plugins/fms';
const P = '/api/plugins/pathways';
const OBJECTS = 24;

/** A REST path to GET, or a GraphQL query to POST. */
type Read = string | { graphql: string };

/**
 * The pages docs/performance.md measures cost the same SQL statements whatever their size: a page
 * of 24 objects, each with its own nested objects, runs as many as a page of 3.
 */
describe('list requests: SQL statements per page, constant in the page size', () => {
  let seeded: SeededApp;
  let api: PlatformClient;

  beforeAll(async () => {
    ({ seeded, api } = await startPlatformApp());
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  /**
   * The statements the app runs while `path` is read, or a GraphQL query answered (it serves in this
   * process): TypeORM's query runner's, and those sent straight to the pool
   * (common/database/prepared-query.ts); the answer's body with them.
   */
  async function statementsOf(path: Read): Promise<{ statements: string[]; body: any }> {
    // The token's last use, written at most once a minute, and its check, run when the process's
    // credential cache has not kept it (at most 5 s): whatever the request, not the page.
    const { result: response, statements } = await recordStatements(
      seeded.testApp.app,
      () => (typeof path === 'string' ? api.get(path) : api.post('/graphql/', { query: path.graphql })),
      (text) => !text.includes('SET last_used = now()') && !text.includes('t.key_digest = $1'),
    );
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    return { statements, body: response.body };
  }

  /** Reads both paths and checks that the larger answer ran exactly the smaller one's statement count. */
  async function expectSameStatementCount(small: Read, large: Read, sizes: (body: any) => number, expected: [number, number]) {
    // Jobs due now (those the fixtures' writes queued) run in this process too: let them finish first.
    for (let waited = 0; ; waited += 100) {
      const { rows } = await seeded.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM jobs WHERE status = 'running' OR (status = 'pending' AND run_at <= now())",
      );
      if (rows[0].n === 0) break;
      if (waited > 30_000) throw new Error(`${rows[0].n} jobs still queued`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Each read twice, the first to warm what a process reads once (object types, custom field definitions).
    await statementsOf(small);
    await statementsOf(large);
    const few = await statementsOf(small);
    const many = await statementsOf(large);
    expect([sizes(few.body), sizes(many.body)]).toEqual(expected);
    expect({ count: many.statements.length, statements: many.statements }).toEqual({
      count: few.statements.length,
      statements: expect.any(Array),
    });
    // The page's statement at least: the spy sees the app's statements.
    expect(few.statements.length).toBeGreaterThanOrEqual(1);
    return few.statements.length;
  }

  it('/api/dcim/sites/ with tenant and tags', async () => {
    const f = factories(api);
    const tag = await api.created('/api/extras/tags/', { name: 'statement-count', slug: 'statement-count' });
    for (let i = 0; i < OBJECTS; i++) {
      const tenant = await f.tenant();
      await f.site({ tenant: tenant.id, tags: [tag.id] });
    }
    const count = await expectSameStatementCount(
      '/api/dcim/sites/?tag=statement-count&limit=3',
      `/api/dcim/sites/?tag=statement-count&limit=${OBJECTS}`,
      (body) => body.results.filter((site: any) => site.tenant && site.tags.length === 1).length,
      [3, OBJECTS],
    );
    // The page with its total, the references of the page (tenants, tags, custom fields).
    expect(count).toBeLessThanOrEqual(3);
  });

  it('the fms strand page of one fiber cable', async () => {
    const f = factories(api);
    const maker = await f.manufacturer();
    const type = await api.created(`${F}/cable-types/`, {
      manufacturer: maker.id,
      model: 'Statement count 24',
      construction: 'loose_tube',
      strand_count: OBJECTS,
    });
    for (const position of [1, 2]) {
      await api.created(`${F}/buffer-tube-templates/`, { fiber_cable_type: type.id, name: `T${position}`, position, fiber_count: 12 });
    }
    const [near, far] = [await f.rearPort(), await f.rearPort()];
    const cable = await api.created('/api/dcim/cables/', {
      a_terminations: [{ object_type: 'dcim.rearport', object_id: near.id }],
      b_terminations: [{ object_type: 'dcim.rearport', object_id: far.id }],
    });
    const fiberCable = await api.created(`${F}/fiber-cables/`, { fiber_cable_type: type.id, cable: cable.id });
    const count = await expectSameStatementCount(
      `${F}/fiber-strands/?fiber_cable_id=${fiberCable.id}&limit=3`,
      `${F}/fiber-strands/?fiber_cable_id=${fiberCable.id}&limit=${OBJECTS}`,
      (body) => body.results.filter((strand: any) => strand.buffer_tube !== null).length,
      [3, OBJECTS],
    );
    expect(count).toBeLessThanOrEqual(3);
  });

  it('GraphQL cables with both ends, each end a union of several models', async () => {
    const f = factories(api);
    const [device, panel] = [await f.device(), await f.device()];
    for (let i = 0; i < OBJECTS; i++) {
      const near = await f.interface({ device: device.id });
      const [front, rear] = [await f.frontPort({ device: panel.id }), await f.rearPort({ device: panel.id })];
      // A cable to a front port, then one to a rear port: each level holds three models.
      const far: [string, number] = i % 2 === 0 ? ['dcim.frontport', front.id] : ['dcim.rearport', rear.id];
      await f.cable([['dcim.interface', near.id]], [far], { label: `statement-count-${String(i).padStart(2, '0')}` });
    }
    const query = (limit: number) => ({
      graphql: `{ cable_list(filters: { label__isw: "statement-count-" }, pagination: { limit: ${limit} }) {
        id a_terminations { ... on InterfaceType { name device { name } } }
        b_terminations { ... on FrontPortType { name device { name } } ... on RearPortType { name device { name } } } } }`,
    });
    const count = await expectSameStatementCount(
      query(3),
      query(OBJECTS),
      (body) =>
        body.data.cable_list.filter(
          (cable: any) => cable.a_terminations[0]?.device?.name === device.name && cable.b_terminations[0]?.device?.name === panel.name,
        ).length,
      [3, OBJECTS],
    );
    // The token, the cables, their ends, the interfaces, front ports and rear ports, the devices.
    expect(count).toBeLessThanOrEqual(7);
  });

  it('the pathways structures layer', async () => {
    const site = await factories(api).site();
    await api.created(
      `${P}/structures/`,
      Array.from({ length: OBJECTS }, (_, i) => ({
        name: `SC-${String(i).padStart(2, '0')}`,
        site: site.id,
        structure_type: 'manhole',
        geometry: { type: 'Point', coordinates: [50 + i * 0.01, 50] },
      })),
    );
    // The first three structures, then all of them.
    const count = await expectSameStatementCount(
      `${P}/geo/structures/?bbox=49.995,49.9,50.025,50.1`,
      `${P}/geo/structures/?bbox=49.995,49.9,50.3,50.1`,
      (body) => body.features.filter((feature: any) => feature.properties.site !== null).length,
      [3, OBJECTS],
    );
    expect(count).toBeLessThanOrEqual(3);
  });
});
