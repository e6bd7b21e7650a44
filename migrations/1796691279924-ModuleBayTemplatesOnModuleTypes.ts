import { MigrationInterface, QueryRunner } from 'typeorm';

export class ModuleBayTemplatesOnModuleTypes1796691279924 implements MigrationInterface {
  name = 'ModuleBayTemplatesOnModuleTypes1796691279924';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ADD "module_type_id" integer`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebay" ADD "module_id" integer`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" DROP CONSTRAINT "dcim_modulebaytemplate_device_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" DROP CONSTRAINT "dcim_modulebaytemplate_device_type_id_name_key"`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ALTER COLUMN "device_type_id" DROP NOT NULL`);
    await queryRunner.query(`CREATE INDEX "dcim_modulebaytemplate_module_type_id_idx" ON "dcim_modulebaytemplate"  ("module_type_id") `);
    await queryRunner.query(`CREATE INDEX "dcim_modulebay_module_id_idx" ON "dcim_modulebay"  ("module_id") `);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ADD CONSTRAINT "dcim_modulebaytemplate_device_type_id_name_key" UNIQUE ("device_type_id", "name")`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ADD CONSTRAINT "dcim_modulebaytemplate_module_type_id_name_key" UNIQUE ("module_type_id", "name")`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ADD CONSTRAINT "dcim_modulebaytemplate_device_type_id_fkey" FOREIGN KEY ("device_type_id") REFERENCES "dcim_devicetype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ADD CONSTRAINT "dcim_modulebaytemplate_module_type_id_fkey" FOREIGN KEY ("module_type_id") REFERENCES "dcim_moduletype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebay" ADD CONSTRAINT "dcim_modulebay_module_id_fkey" FOREIGN KEY ("module_id") REFERENCES "dcim_module"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_modulebay" DROP CONSTRAINT "dcim_modulebay_module_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" DROP CONSTRAINT "dcim_modulebaytemplate_module_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" DROP CONSTRAINT "dcim_modulebaytemplate_device_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" DROP CONSTRAINT "dcim_modulebaytemplate_module_type_id_name_key"`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" DROP CONSTRAINT "dcim_modulebaytemplate_device_type_id_name_key"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_modulebay_module_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_modulebaytemplate_module_type_id_idx"`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ALTER COLUMN "device_type_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ADD CONSTRAINT "dcim_modulebaytemplate_device_type_id_name_key" UNIQUE ("device_type_id", "name")`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" ADD CONSTRAINT "dcim_modulebaytemplate_device_type_id_fkey" FOREIGN KEY ("device_type_id") REFERENCES "dcim_devicetype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebay" DROP COLUMN "module_id"`);
    await queryRunner.query(`ALTER TABLE "dcim_modulebaytemplate" DROP COLUMN "module_type_id"`);
  }
}
