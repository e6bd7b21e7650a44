import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A wavelength path's channels in their own table (path, channel, sequence), as upstream's
 * WdmWavelengthPathChannel: a channel may lie on several paths. The channel's single
 * `wavelength_path`/`path_sequence` columns are moved into it and dropped.
 */
export class WdmWavelengthPathChannels1796700000000 implements MigrationInterface {
  name = 'WdmWavelengthPathChannels1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "wdm_wdmwavelengthpathchannel" ("id" SERIAL NOT NULL, "path_id" integer NOT NULL, "channel_id" integer NOT NULL, "sequence" integer NOT NULL CHECK ("sequence" >= 0), CONSTRAINT "wdm_wdmwavelengthpathchannel_path_id_channel_id_key" UNIQUE ("path_id", "channel_id"), CONSTRAINT "wdm_wdmwavelengthpathchannel_path_id_sequence_key" UNIQUE ("path_id", "sequence"), CONSTRAINT "wdm_wdmwavelengthpathchannel_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "wdm_wdmwavelengthpathchannel_channel_id_idx" ON "wdm_wdmwavelengthpathchannel" ("channel_id")`);
    await queryRunner.query(
      `ALTER TABLE "wdm_wdmwavelengthpathchannel" ADD CONSTRAINT "wdm_wdmwavelengthpathchannel_path_id_fkey" FOREIGN KEY ("path_id") REFERENCES "wdm_wdmwavelengthpath"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "wdm_wdmwavelengthpathchannel" ADD CONSTRAINT "wdm_wdmwavelengthpathchannel_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "wdm_wdmchannel"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `INSERT INTO "wdm_wdmwavelengthpathchannel" ("path_id", "channel_id", "sequence")
       SELECT "wavelength_path_id", "id", COALESCE("path_sequence", 0) FROM "wdm_wdmchannel" WHERE "wavelength_path_id" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "wdm_wdmchannel" DROP CONSTRAINT "wdm_wdmchannel_wavelength_path_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."wdm_wdmchannel_wavelength_path_id_idx"`);
    await queryRunner.query(`ALTER TABLE "wdm_wdmchannel" DROP COLUMN "path_sequence"`);
    await queryRunner.query(`ALTER TABLE "wdm_wdmchannel" DROP COLUMN "wavelength_path_id"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "wdm_wdmchannel" ADD "wavelength_path_id" integer`);
    await queryRunner.query(`ALTER TABLE "wdm_wdmchannel" ADD "path_sequence" integer`);
    await queryRunner.query(`CREATE INDEX "wdm_wdmchannel_wavelength_path_id_idx" ON "wdm_wdmchannel"  ("wavelength_path_id") `);
    await queryRunner.query(
      `ALTER TABLE "wdm_wdmchannel" ADD CONSTRAINT "wdm_wdmchannel_wavelength_path_id_fkey" FOREIGN KEY ("wavelength_path_id") REFERENCES "wdm_wdmwavelengthpath"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    // A channel on several paths keeps the first (lowest id) of them.
    await queryRunner.query(
      `UPDATE "wdm_wdmchannel" c SET "wavelength_path_id" = first.path_id, "path_sequence" = first.sequence
         FROM (SELECT DISTINCT ON (channel_id) channel_id, path_id, sequence FROM "wdm_wdmwavelengthpathchannel" ORDER BY channel_id, path_id) first
        WHERE first.channel_id = c.id`,
    );
    await queryRunner.query(`DROP TABLE "wdm_wdmwavelengthpathchannel"`);
  }
}
