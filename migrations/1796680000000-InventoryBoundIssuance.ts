import { MigrationInterface, QueryRunner } from 'typeorm';

export class InventoryBoundIssuance1796680000000 implements MigrationInterface {
  name = 'InventoryBoundIssuance1796680000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "service_account_policies" ADD "bound_device_ids" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "service_account_policies" ADD "bound_device_tags" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "service_account_policies" ADD "bound_device_roles" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "certificates" ADD "device_id" integer`);
    await queryRunner.query(`CREATE INDEX "certificates_device_id_idx" ON "certificates" ("device_id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."certificates_device_id_idx"`);
    await queryRunner.query(`ALTER TABLE "certificates" DROP COLUMN "device_id"`);
    await queryRunner.query(`ALTER TABLE "service_account_policies" DROP COLUMN "bound_device_roles"`);
    await queryRunner.query(`ALTER TABLE "service_account_policies" DROP COLUMN "bound_device_tags"`);
    await queryRunner.query(`ALTER TABLE "service_account_policies" DROP COLUMN "bound_device_ids"`);
  }
}
