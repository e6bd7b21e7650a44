import { MigrationInterface, QueryRunner } from 'typeorm';

export class DeviceBays1796689989235 implements MigrationInterface {
  name = 'DeviceBays1796689989235';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "dcim_devicebaytemplate" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "device_type_id" integer NOT NULL, "name" character varying(64) NOT NULL DEFAULT '', "label" character varying(64) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', CONSTRAINT "dcim_devicebaytemplate_device_type_id_name_key" UNIQUE ("device_type_id", "name"), CONSTRAINT "dcim_devicebaytemplate_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "dcim_devicebaytemplate_device_type_id_idx" ON "dcim_devicebaytemplate"  ("device_type_id") `);
    await queryRunner.query(`CREATE TABLE "dcim_devicebay" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "device_id" integer NOT NULL, "name" character varying(64) NOT NULL DEFAULT '', "label" character varying(64) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', "installed_device_id" integer, CONSTRAINT "dcim_devicebay_installed_device_id_key" UNIQUE ("installed_device_id"), CONSTRAINT "dcim_devicebay_device_id_name_key" UNIQUE ("device_id", "name"), CONSTRAINT "dcim_devicebay_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "dcim_devicebay_device_id_idx" ON "dcim_devicebay"  ("device_id") `);
    await queryRunner.query(`CREATE INDEX "dcim_devicebay_installed_device_id_idx" ON "dcim_devicebay"  ("installed_device_id") `);
    await queryRunner.query(`ALTER TABLE "dcim_devicetype" ADD "subdevice_role" character varying(50) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "dcim_devicebaytemplate" ADD CONSTRAINT "dcim_devicebaytemplate_device_type_id_fkey" FOREIGN KEY ("device_type_id") REFERENCES "dcim_devicetype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_devicebay" ADD CONSTRAINT "dcim_devicebay_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "dcim_device"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_devicebay" ADD CONSTRAINT "dcim_devicebay_installed_device_id_fkey" FOREIGN KEY ("installed_device_id") REFERENCES "dcim_device"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_devicebay" DROP CONSTRAINT "dcim_devicebay_installed_device_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_devicebay" DROP CONSTRAINT "dcim_devicebay_device_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_devicebaytemplate" DROP CONSTRAINT "dcim_devicebaytemplate_device_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_devicetype" DROP COLUMN "subdevice_role"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_devicebay_installed_device_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_devicebay_device_id_idx"`);
    await queryRunner.query(`DROP TABLE "dcim_devicebay"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_devicebaytemplate_device_type_id_idx"`);
    await queryRunner.query(`DROP TABLE "dcim_devicebaytemplate"`);
  }
}
