import { MigrationInterface, QueryRunner } from 'typeorm';

export class DeviceCluster1796692283516 implements MigrationInterface {
  name = 'DeviceCluster1796692283516';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD "cluster_id" integer`);
    await queryRunner.query(`CREATE INDEX "dcim_device_cluster_id_idx" ON "dcim_device"  ("cluster_id") `);
    await queryRunner.query(`ALTER TABLE "dcim_device" ADD CONSTRAINT "dcim_device_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "virtualization_cluster"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP CONSTRAINT "dcim_device_cluster_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_device_cluster_id_idx"`);
    await queryRunner.query(`ALTER TABLE "dcim_device" DROP COLUMN "cluster_id"`);
  }
}
