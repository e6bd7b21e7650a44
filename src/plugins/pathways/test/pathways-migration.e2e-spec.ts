import { DataSource } from 'typeorm';
import { PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';
import { terminatedCable } from './pathways-fixtures';

const P = '/api/plugins/pathways';
const MIGRATION = 'PathwaysPathwayBase1796665689856';
const line = (...coordinates: number[][]) => JSON.stringify({ type: 'LineString', coordinates });

/**
 * The migration to one pathway id space, on data written in the schema before it: the kinds' ids
 * collided (conduit bank 1, conduit 1, aerial span 1), cable segments named (object type, id), and
 * the change log, journal and tags pointed at the kinds' old ids.
 */
describe('platform pathways plugin: migrating to one pathway id space', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let dataSource: DataSource;
  const old: Record<string, number> = {};

  const applied = async () =>
    ((await dataSource.query('SELECT name FROM migrations')) as Array<{ name: string }>).some((row) => row.name === MIGRATION);

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    dataSource = seeded.testApp.app.get(DataSource);
    const cable = await terminatedCable(root, 'OLD-1');
    old.cable = cable.id;
    while (await applied()) await dataSource.undoLastMigration({ transaction: 'each' });
    const db = seeded.db;
    const type = async (model: string) =>
      (await db.query(`SELECT id FROM core_objecttype WHERE app_label = 'pathways' AND model = $1`, [model])).rows[0].id as number;
    old.structure = (
      await db.query(
        `INSERT INTO pathways_structure (name, geometry) VALUES ('MH-old', '{"type":"Point","coordinates":[4,50]}') RETURNING id`,
      )
    ).rows[0].id;
    old.bank = (
      await db.query(
        `INSERT INTO pathways_conduitbank (label, path, faces, encasement_type) VALUES ('bank', $1, 'North/South', 'sand') RETURNING id`,
        [line([4, 50], [4.01, 50])],
      )
    ).rows[0].id;
    old.conduit = (
      await db.query(
        `INSERT INTO pathways_conduit (label, conduit_bank_id, faces, start_structure_id) VALUES ('duct', $1, 'manhole wall 3', $2) RETURNING id`,
        [old.bank, old.structure],
      )
    ).rows[0].id;
    old.span = (
      await db.query(
        `INSERT INTO pathways_aerialspan (label, path, attachment_height_start, attachment_height_end) VALUES ('span', $1, 8.5, 7.25) RETURNING id`,
        [line([4, 50], [4.02, 50])],
      )
    ).rows[0].id;
    old.innerduct = (
      await db.query(
        `INSERT INTO pathways_innerduct (label, parent_conduit_id, color, position) VALUES ('inner', $1, 'orange', 3) RETURNING id`,
        [old.conduit],
      )
    ).rows[0].id;
    old.buried = (
      await db.query(`INSERT INTO pathways_directburied (label, path, armor_type) VALUES ('buried', $1, 'steel_wire') RETURNING id`, [
        line([4, 50], [4, 50.01]),
      ])
    ).rows[0].id;
    old.segmentSpan = (
      await db.query(
        `INSERT INTO pathways_cablesegment (cable_id, sequence, pathway_type_id, pathway_id) VALUES ($1, 1, $2, $3) RETURNING id`,
        [old.cable, await type('aerialspan'), old.span],
      )
    ).rows[0].id;
    old.segmentInner = (
      await db.query(
        `INSERT INTO pathways_cablesegment (cable_id, sequence, pathway_type_id, pathway_id) VALUES ($1, 2, $2, $3) RETURNING id`,
        [old.cable, await type('innerduct'), old.innerduct],
      )
    ).rows[0].id;
    const tag = (await db.query(`INSERT INTO extras_tag (name, slug) VALUES ('surveyed', 'surveyed') RETURNING id`)).rows[0].id;
    await db.query(`INSERT INTO extras_taggeditem (tag_id, object_type_id, object_id) VALUES ($1, $2, $3)`, [
      tag,
      await type('aerialspan'),
      old.span,
    ]);
    old.journal = (
      await db.query(
        `INSERT INTO extras_journalentry (assigned_object_type_id, assigned_object_id, kind, comments) VALUES ($1, $2, 'info', 'span surveyed') RETURNING id`,
        [await type('aerialspan'), old.span],
      )
    ).rows[0].id;
    await dataSource.runMigrations({ transaction: 'each' });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('gives the kinds one id space: the first kind keeps its ids, a colliding one gets a new id', async () => {
    expect([old.bank, old.conduit, old.span]).toEqual([1, 1, 1]);
    const pathways = (await root.get(`${P}/pathways/?limit=100`)).body.results.map((row: any) => [row.label, row.pathway_type.value]);
    expect(pathways.sort()).toEqual(
      [
        ['bank', 'conduit_bank'],
        ['buried', 'direct_buried'],
        ['duct', 'conduit'],
        ['inner', 'innerduct'],
        ['span', 'aerial'],
      ].sort(),
    );
    const ids = (await root.get(`${P}/pathways/?limit=100`)).body.results.map((row: any) => row.id);
    expect(new Set(ids).size).toBe(5);
    expect((await root.get(`${P}/conduit-banks/${old.bank}/`)).body.label).toBe('bank');
    const conduit = (await root.listed(`${P}/conduits/`, 'id'))[0] as number;
    expect(conduit).not.toBe(old.conduit);
    expect((await root.get(`${P}/pathways/${conduit}/`)).body).toMatchObject({ label: 'duct', pathway_type: { value: 'conduit' } });
    // The kinds' own relations follow the new ids.
    expect((await root.get(`${P}/conduits/${conduit}/`)).body.conduit_bank).toMatchObject({ id: old.bank });
    const innerduct = (await root.get(`${P}/innerducts/`)).body.results[0];
    expect(innerduct.parent_conduit).toMatchObject({ id: conduit });
  });

  it('keeps the columns renamed or retyped, and what the new choices do not hold in comments', async () => {
    const bank = (await root.get(`${P}/conduit-banks/${old.bank}/`)).body;
    expect(bank).toMatchObject({
      start_face: { value: 'north' },
      end_face: { value: 'south' },
      encasement_type: { value: 'direct_buried' },
    });
    expect(bank.comments).toBe('Encasement: sand');
    const conduit = (await root.get(`${P}/conduits/`)).body.results[0];
    expect(conduit).toMatchObject({ start_face: null, end_face: null, comments: 'Faces: manhole wall 3' });
    const span = (await root.get(`${P}/aerial-spans/`)).body.results[0];
    expect(span).toMatchObject({ start_attachment_height: 8.5, end_attachment_height: 7.25, attachment_height: 7.875 });
    const innerduct = (await root.get(`${P}/innerducts/`)).body.results[0];
    expect(innerduct).toMatchObject({ position: '3', color: '', comments: 'Colour: orange' });
    expect((await root.get(`${P}/direct-buried/`)).body.results[0].armor_type).toBe('steel_wire');
  });

  it('points the cable segments, tags and journal entries at the pathways they pointed at', async () => {
    const span = (await root.get(`${P}/aerial-spans/`)).body.results[0];
    const innerduct = (await root.get(`${P}/innerducts/`)).body.results[0];
    const segments = (await root.get(`${P}/cable-segments/?cable_id=${old.cable}`)).body.results;
    expect(segments.map((segment: any) => [segment.sequence, segment.pathway.id])).toEqual([
      [1, span.id],
      [2, innerduct.id],
    ]);
    expect(span.tags.map((tag: any) => tag.slug)).toEqual(['surveyed']);
    const journal = (await root.get(`/api/extras/journal-entries/${old.journal}/`)).body;
    expect(journal).toMatchObject({ assigned_object_type: 'pathways.aerialspan', assigned_object_id: span.id });
    const trace = (await root.get(`${P}/traversal/cable-trace/?cable_id=${old.cable}`)).body;
    expect(trace.segments.map((segment: any) => [segment.pathway_name, segment.pathway_type])).toEqual([
      ['span', 'aerial'],
      ['inner', 'innerduct'],
    ]);
  });

  it('gives new pathways ids past every migrated one', async () => {
    const created = await root.post(`${P}/conduits/`, {
      label: 'new',
      path: {
        type: 'LineString',
        coordinates: [
          [4, 50],
          [4.1, 50],
        ],
      },
    });
    expect(created.status).toBe(201);
    const ids = (await root.get(`${P}/pathways/?limit=100`)).body.results.map((row: any) => row.id);
    expect(created.body.id).toBe(Math.max(...ids));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
