import { MigrationInterface, QueryRunner } from 'typeorm';

export class DevicePrimaryAddresses1796693133512 implements MigrationInterface {
  name = 'DevicePrimaryAddresses1796693133512';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD "primary_ip4_id" integer`);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD CONSTRAINT "dcim_device_primary_ip4_id_key" UNIQUE ("primary_ip4_id")`);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD "primary_ip6_id" integer`);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD CONSTRAINT "dcim_device_primary_ip6_id_key" UNIQUE ("primary_ip6_id")`);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD "oob_ip_id" integer`);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD CONSTRAINT "dcim_device_oob_ip_id_key" UNIQUE ("oob_ip_id")`);
    await queryRunner.query(`CREATE INDEX "dcim_device_primary_ip4_id_idx" ON "dcim_device"  ("primary_ip4_id") `);
    await queryRunner.query(`CREATE INDEX "dcim_device_primary_ip6_id_idx" ON "dcim_device"  ("primary_ip6_id") `);
    await queryRunner.query(`CREATE INDEX "dcim_device_oob_ip_id_idx" ON "dcim_device"  ("oob_ip_id") `);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD CONSTRAINT "dcim_device_primary_ip4_id_fkey" FOREIGN KEY ("primary_ip4_id") REFERENCES "ipam_ipaddress"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD CONSTRAINT "dcim_device_primary_ip6_id_fkey" FOREIGN KEY ("primary_ip6_id") REFERENCES "ipam_ipaddress"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD CONSTRAINT "dcim_device_oob_ip_id_fkey" FOREIGN KEY ("oob_ip_id") REFERENCES "ipam_ipaddress"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP CONSTRAINT "dcim_device_oob_ip_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP CONSTRAINT "dcim_device_primary_ip6_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP CONSTRAINT "dcim_device_primary_ip4_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_device_oob_ip_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_device_primary_ip6_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_device_primary_ip4_id_idx"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP CONSTRAINT "dcim_device_oob_ip_id_key"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP COLUMN "oob_ip_id"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP CONSTRAINT "dcim_device_primary_ip6_id_key"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP COLUMN "primary_ip6_id"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP CONSTRAINT "dcim_device_primary_ip4_id_key"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP COLUMN "primary_ip4_id"`);
  }
}
