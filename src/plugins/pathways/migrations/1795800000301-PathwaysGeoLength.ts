import { MigrationInterface, QueryRunner } from 'typeorm';
import { geodesicLength, type LineStringGeometry } from '../geometry';

const PATHWAY_TABLES = ['pathways_conduitbank', 'pathways_conduit', 'pathways_aerialspan', 'pathways_directburied', 'pathways_innerduct'];
const BATCH = 1000;

/** Pathways keep their geodesic length beside the path, measured here for the rows already stored. */
export class PathwaysGeoLength1795800000301 implements MigrationInterface {
  name = 'PathwaysGeoLength1795800000301';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of PATHWAY_TABLES) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "geo_length" numeric(12,2)`);
      for (let after = 0; ; ) {
        const rows = (await queryRunner.query(`SELECT id, path FROM "${table}" WHERE id > $1 AND path IS NOT NULL ORDER BY id LIMIT ${BATCH}`, [
          after,
        ])) as Array<{ id: number; path: LineStringGeometry }>;
        if (rows.length === 0) break;
        await queryRunner.query(
          `UPDATE "${table}" AS pathway SET geo_length = measured.geo_length
             FROM unnest($1::int[], $2::numeric[]) AS measured(id, geo_length) WHERE pathway.id = measured.id`,
          [rows.map((row) => row.id), rows.map((row) => geodesicLength(row.path))],
        );
        after = rows[rows.length - 1].id;
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [...PATHWAY_TABLES].reverse()) await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "geo_length"`);
  }
}
