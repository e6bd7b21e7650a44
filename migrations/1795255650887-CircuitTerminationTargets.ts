import { MigrationInterface, QueryRunner } from 'typeorm';

export class CircuitTerminationTargets1795255650887 implements MigrationInterface {
  name = 'CircuitTerminationTargets1795255650887';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" ADD "termination_type_id" integer`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" ADD "termination_id" integer`);
    // Keep each termination's site or location: it becomes the generic termination (NetBox 4.2).
    await queryRunner.query(`INSERT INTO "core_objecttype" ("app_label", "model") VALUES ('dcim', 'site'), ('dcim', 'location') ON CONFLICT DO NOTHING`);
    await queryRunner.query(`UPDATE "circuits_circuittermination" SET "termination_type_id" = (SELECT "id" FROM "core_objecttype" WHERE "app_label" = 'dcim' AND "model" = 'site'), "termination_id" = "site_id" WHERE "site_id" IS NOT NULL`);
    await queryRunner.query(`UPDATE "circuits_circuittermination" SET "termination_type_id" = (SELECT "id" FROM "core_objecttype" WHERE "app_label" = 'dcim' AND "model" = 'location'), "termination_id" = "location_id" WHERE "location_id" IS NOT NULL AND "site_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" DROP CONSTRAINT "circuits_circuittermination_site_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" DROP CONSTRAINT "circuits_circuittermination_location_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."circuits_circuittermination_site_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."circuits_circuittermination_location_id_idx"`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" DROP COLUMN "site_id"`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" DROP COLUMN "location_id"`);
    await queryRunner.query(`CREATE INDEX "circuits_circuittermination_termination_idx" ON "circuits_circuittermination"  ("termination_type_id", "termination_id") `);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" ADD CONSTRAINT "circuits_circuittermination_termination_type_id_fkey" FOREIGN KEY ("termination_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" DROP CONSTRAINT "circuits_circuittermination_termination_type_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."circuits_circuittermination_termination_idx"`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" DROP COLUMN "termination_id"`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" DROP COLUMN "termination_type_id"`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" ADD "location_id" integer`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" ADD "site_id" integer`);
    await queryRunner.query(`CREATE INDEX "circuits_circuittermination_location_id_idx" ON "circuits_circuittermination" USING btree ("location_id") `);
    await queryRunner.query(`CREATE INDEX "circuits_circuittermination_site_id_idx" ON "circuits_circuittermination" USING btree ("site_id") `);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" ADD CONSTRAINT "circuits_circuittermination_location_id_fkey" FOREIGN KEY ("location_id") REFERENCES "dcim_location"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "circuits_circuittermination" ADD CONSTRAINT "circuits_circuittermination_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "dcim_site"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }
}
