import { Client } from 'pg';
import { factories } from './support/factories';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const F = '/api/plugins/fms';
const P = '/api/plugins/pathways';
const OBJECTS = 24;

/**
 * The pages docs/performance.md measures cost the same SQL statements whatever their size: a page
 * of 24 objects, each with its own nested objects, runs as many as a page of 3. Counted at pg's
 * client, under TypeORM and the prepared-statement path alike.
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

  /** The statements pg's clients send while `path` is read (the app serves in this process); the answer's body with them. */
  async function statementsOf(path: string): Promise<{ statements: string[]; body: any }> {
    const client = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const query = client.query;
    const statements: string[] = [];
    const spy = jest.spyOn(client, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      const [statement] = args;
      statements.push(typeof statement === 'string' ? statement : String((statement as { text?: string }).text));
      return query.apply(this, args);
    });
    try {
      const response = await api.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      return { statements, body: response.body };
    } finally {
      spy.mockRestore();
    }
  }

  /** Reads both paths and checks that the larger answer ran exactly the smaller one's statement count. */
  async function expectSameStatementCount(small: string, large: string, sizes: (body: any) => number, expected: [number, number]) {
    // Each read twice, the first to warm what a process reads once (object types, custom field definitions).
    await statementsOf(small);
    await statementsOf(large);
    const few = await statementsOf(small);
    const many = await statementsOf(large);
    expect([sizes(few.body), sizes(many.body)]).toEqual(expected);
    expect(many.statements.length).toBe(few.statements.length);
    // The token's statement and the page's at least: the spy sees the app's statements.
    expect(few.statements.length).toBeGreaterThanOrEqual(2);
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
    // The token, the page with its total, the references of the page (tenants, tags, custom fields).
    expect(count).toBeLessThanOrEqual(4);
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
    expect(count).toBeLessThanOrEqual(4);
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
