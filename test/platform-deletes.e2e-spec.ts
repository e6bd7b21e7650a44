import { countRows, PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const SITES = '/api/dcim/sites/';
const F = '/api/plugins/fms';

/**
 * Deletes under concurrency and at scale: one winner among racing deletes of one object (single and
 * bulk), with one change record; a path created while its cable is deleted never leaves both; a
 * 10 000-strand fiber cable deleted as it was created; and lists ordered by `-id`.
 */
describe('platform deletes', () => {
  let seeded: SeededApp;
  let root: PlatformClient;

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  const changes = async (objectType: string, id: number, action = 'delete') =>
    countRows(
      seeded.db,
      'core_objectchange c JOIN core_objecttype t ON t.id = c.changed_object_type_id',
      `WHERE t.app_label || '.' || t.model = $1 AND c.changed_object_id = $2 AND c.action = $3`,
      [objectType, id, action],
    );
  const statuses = (responses: Array<{ status: number }>) =>
    responses.reduce<Record<number, number>>((tally, { status }) => ({ ...tally, [status]: (tally[status] ?? 0) + 1 }), {});

  describe('racing deletes of one object', () => {
    it.each([
      ['dcim.site', SITES, (n: number) => ({ name: `Race site ${n}`, slug: `race-site-${n}` })],
      ['tenancy.tenant', '/api/tenancy/tenants/', (n: number) => ({ name: `Race tenant ${n}`, slug: `race-tenant-${n}` })],
      ['extras.tag', '/api/extras/tags/', (n: number) => ({ name: `Race tag ${n}`, slug: `race-tag-${n}` })],
    ])('30 parallel DELETEs of one %s: one 204, 29 × 404, one change record', async (objectType, path, body) => {
      const object = await root.created(path, body(1));
      const responses = await Promise.all(Array.from({ length: 30 }, () => root.delete(`${path}${object.id}/`)));
      expect(statuses(responses)).toEqual({ 204: 1, 404: 29 });
      for (const response of responses.filter(({ status }) => status === 404)) expect(response.body).toEqual({ detail: 'Not found.' });
      expect(await changes(objectType, object.id)).toBe(1);
      expect((await root.get(`${path}${object.id}/`)).status).toBe(404);
    });

    it('a site with what cascades from it: each cascaded object recorded once', async () => {
      const site = await root.created(SITES, { name: 'Cascade site', slug: 'cascade-site' });
      const locations = await root.created('/api/dcim/locations/', [
        { site: site.id, name: 'Hall A', slug: 'hall-a' },
        { site: site.id, name: 'Hall B', slug: 'hall-b' },
      ]);
      const responses = await Promise.all(Array.from({ length: 20 }, () => root.delete(`${SITES}${site.id}/`)));
      expect(statuses(responses)).toEqual({ 204: 1, 404: 19 });
      expect(await changes('dcim.site', site.id)).toBe(1);
      for (const location of locations) expect(await changes('dcim.location', location.id)).toBe(1);
    });

    it('bulk deletes racing single deletes of one of their sites: each site deleted and recorded once, a bulk all or nothing', async () => {
      const [a, b] = await root.created(SITES, [
        { name: 'Bulk race A', slug: 'bulk-race-a' },
        { name: 'Bulk race B', slug: 'bulk-race-b' },
      ]);
      const requests = Array.from({ length: 20 }, (_, index) =>
        index % 2 === 0 ? root.delete(SITES, [{ id: a.id }, { id: b.id }]) : root.delete(`${SITES}${a.id}/`),
      );
      const responses = await Promise.all(requests);
      expect(statuses(responses)).toEqual({ 204: 1, 404: 19 });
      const bulkWon = responses.findIndex(({ status }) => status === 204) % 2 === 0;
      expect(await changes('dcim.site', a.id)).toBe(1);
      expect(await changes('dcim.site', b.id)).toBe(bulkWon ? 1 : 0);
      expect(await countRows(seeded.db, 'dcim_site', 'WHERE id = ANY($1)', [[a.id, b.id]])).toBe(bulkWon ? 0 : 1);
    });

    it('two bulk deletes of overlapping sets, listed in opposite orders: one wins, no deadlock, each site recorded once', async () => {
      const sites = await root.created(
        SITES,
        Array.from({ length: 6 }, (_, index) => ({ name: `Overlap ${index}`, slug: `overlap-${index}` })),
      );
      const ids = sites.map((site: { id: number }) => site.id);
      const forward = ids.slice(0, 4).map((id: number) => ({ id }));
      const backward = ids
        .slice(2)
        .reverse()
        .map((id: number) => ({ id }));
      const responses = await Promise.all(Array.from({ length: 10 }, (_, index) => root.delete(SITES, index % 2 ? forward : backward)));
      expect(statuses(responses)).toEqual({ 204: 1, 404: 9 });
      for (const id of ids) expect(await changes('dcim.site', id)).toBeLessThanOrEqual(1);
      expect(await countRows(seeded.db, 'dcim_site', 'WHERE id = ANY($1)', [ids])).toBe(2);
    });
  });

  describe('a fiber-circuit path created while its cable is deleted', () => {
    const fx: Record<string, any> = {};

    beforeAll(async () => {
      const site = await root.created(SITES, { name: 'Path race', slug: 'path-race' });
      const maker = await root.created('/api/dcim/manufacturers/', { name: 'Race maker', slug: 'race-maker' });
      const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: maker.id, model: 'Race ODF', slug: 'race-odf' });
      const role = await root.created('/api/dcim/device-roles/', { name: 'Race ODF', slug: 'race-odf' });
      fx.device = await root.created('/api/dcim/devices/', { name: 'race-odf', device_type: deviceType.id, role: role.id, site: site.id });
      fx.circuit = await root.created(`${F}/fiber-circuits/`, { name: 'Race circuit', strand_count: 100, status: 'active' });
    });

    it('never lets both succeed: the path holds the cable, or the path is refused', async () => {
      const outcomes: string[] = [];
      for (let round = 1; round <= 5; round++) {
        const rear = (side: string) =>
          root.created('/api/dcim/rear-ports/', { device: fx.device.id, name: `R${round}${side}`, type: 'splice' });
        const cable = await root.created('/api/dcim/cables/', {
          type: 'smf',
          a_terminations: [{ object_type: 'dcim.rearport', object_id: (await rear('a')).id }],
          b_terminations: [{ object_type: 'dcim.rearport', object_id: (await rear('b')).id }],
        });
        const origin = await root.created('/api/dcim/front-ports/', { device: fx.device.id, name: `F${round}`, type: 'splice' });
        const [created, deleted] = await Promise.all([
          root.post(`${F}/fiber-circuit-paths/`, {
            circuit: fx.circuit.id,
            position: round,
            origin: origin.id,
            path: [{ type: 'cable', id: cable.id }],
          }),
          root.delete(`/api/dcim/cables/${cable.id}/`),
        ]);
        const outcome = { created: created.status, deleted: deleted.status };
        expect([
          { created: 201, deleted: 409 },
          { created: 400, deleted: 204 },
          { created: 409, deleted: 204 },
        ]).toContainEqual(outcome);
        outcomes.push(`${outcome.created}/${outcome.deleted}`);
        const cableLeft = await countRows(seeded.db, 'dcim_cable', 'WHERE id = $1', [cable.id]);
        const pathsOnCable = await countRows(seeded.db, 'fms_fibercircuitpath', `WHERE path @> $1::jsonb`, [
          JSON.stringify([{ type: 'cable', id: cable.id }]),
        ]);
        const nodesOnCable = await countRows(seeded.db, 'fms_fibercircuitnode', 'WHERE cable_id = $1', [cable.id]);
        expect({ cableLeft, pathsOnCable, nodesOnCable }).toEqual(
          created.status === 201 ? { cableLeft: 1, pathsOnCable: 1, nodesOnCable: 1 } : { cableLeft: 0, pathsOnCable: 0, nodesOnCable: 0 },
        );
        if (created.status === 201) expect(deleted.body.detail).toContain('Race circuit');
      }
      expect(outcomes).toHaveLength(5);
    });
  });

  describe('a 10 000-strand fiber cable', () => {
    it('is deleted as it was created: one change record for the fiber cable, its strands with it', async () => {
      const maker = await root.created('/api/dcim/manufacturers/', { name: 'Bulk fibre', slug: 'bulk-fibre' });
      const type = await root.created(`${F}/cable-types/`, {
        manufacturer: maker.id,
        model: 'Mega 10000',
        construction: 'ribbon',
        strand_count: 10000,
      });
      const site = await root.created(SITES, { name: 'Mega site', slug: 'mega-site' });
      const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: maker.id, model: 'Mega ODF', slug: 'mega-odf' });
      const role = await root.created('/api/dcim/device-roles/', { name: 'Mega ODF', slug: 'mega-odf' });
      const odf = await root.created('/api/dcim/devices/', { name: 'mega-odf', device_type: deviceType.id, role: role.id, site: site.id });
      const rear = (name: string) => root.created('/api/dcim/rear-ports/', { device: odf.id, name, type: 'splice' });
      const cable = await root.created('/api/dcim/cables/', {
        type: 'smf',
        label: 'Mega',
        a_terminations: [{ object_type: 'dcim.rearport', object_id: (await rear('A')).id }],
        b_terminations: [{ object_type: 'dcim.rearport', object_id: (await rear('B')).id }],
      });
      const lastChange = async () =>
        (await seeded.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM core_objectchange')).rows[0].id;

      const beforeCreate = await lastChange();
      const fiberCable = await root.created(`${F}/fiber-cables/`, { cable: cable.id, fiber_cable_type: type.id });
      expect(await countRows(seeded.db, 'fms_fiberstrand', 'WHERE fiber_cable_id = $1', [fiberCable.id])).toBe(10000);
      const createdRecords = await countRows(seeded.db, 'core_objectchange', 'WHERE id > $1', [beforeCreate]);

      const beforeDelete = await lastChange();
      const deleted = await root.delete(`${F}/fiber-cables/${fiberCable.id}/`);
      expect(deleted.status).toBe(204);
      const records = await seeded.db.query<{ type: string; action: string; id: number }>(
        `SELECT t.app_label || '.' || t.model AS type, c.action, c.changed_object_id AS id
           FROM core_objectchange c JOIN core_objecttype t ON t.id = c.changed_object_type_id WHERE c.id > $1`,
        [beforeDelete],
      );
      expect(records.rows).toEqual([{ type: 'fms.fibercable', action: 'delete', id: fiberCable.id }]);
      expect(records.rows).toHaveLength(createdRecords);
      expect(await countRows(seeded.db, 'fms_fiberstrand', 'WHERE fiber_cable_id = $1', [fiberCable.id])).toBe(0);
      expect(await countRows(seeded.db, 'dcim_cable', 'WHERE id = $1', [cable.id])).toBe(1);
    });
  });

  describe('ordering by -id', () => {
    it('lists sites newest id first with ?ordering=-id, oldest first with ?ordering=id', async () => {
      const made = await root.created(
        SITES,
        ['c', 'a', 'b'].map((letter) => ({ name: `Ordered ${letter}`, slug: `ordered-${letter}` })),
      );
      const ids = made.map((site: { id: number }) => site.id);
      const listed = (ordering: string) => root.listed(`${SITES}?id=${ids.join('&id=')}&ordering=${ordering}`, 'id');
      expect(await listed('-id')).toEqual([...ids].sort((x, y) => y - x));
      expect(await listed('id')).toEqual([...ids].sort((x, y) => x - y));
      expect(await root.listed(`${SITES}?id=${ids.join('&id=')}&ordering=-name`, 'name')).toEqual(['Ordered c', 'Ordered b', 'Ordered a']);
    });

    it('lists the notices inbound emails newest id first with ?ordering=-id', async () => {
      const inserted = await seeded.db.query<{ id: number }>(
        `INSERT INTO notices_inboundemail (message_id, email_from, subject, status, created)
         SELECT 'ordered-' || n || '@example.net', 'noc@example.net', 'Ordered ' || n, 'unparsed', now() - n * interval '1 minute'
           FROM generate_series(1, 3) AS n RETURNING id`,
      );
      const ids = inserted.rows.map((row) => row.id);
      const listed = (ordering: string) =>
        root.listed(`/api/plugins/notices/inbound-emails/?id=${ids.join('&id=')}&ordering=${ordering}`, 'id');
      expect(await listed('-id')).toEqual([...ids].sort((x, y) => y - x));
      expect(await listed('id')).toEqual([...ids].sort((x, y) => x - y));
      expect(await listed('-created')).toEqual([...ids].sort((x, y) => x - y));
    });
  });
});
