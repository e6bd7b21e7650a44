import { MigrationInterface, QueryRunner } from 'typeorm';

export class VmInterfacePrimaryMacAddress1796693186529 implements MigrationInterface {
  name = 'VmInterfacePrimaryMacAddress1796693186529';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" ADD "primary_mac_address_id" integer`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" ADD CONSTRAINT "UQ_565b52f2232f7f9cd90c0267c23" UNIQUE ("primary_mac_address_id")`);
    await queryRunner.query(`CREATE INDEX "virtualization_vminterface_primary_mac_address_id_idx" ON "virtualization_vminterface"  ("primary_mac_address_id") `);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" ADD CONSTRAINT "virtualization_vminterface_primary_mac_address_id_fkey" FOREIGN KEY ("primary_mac_address_id") REFERENCES "dcim_macaddress"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" DROP CONSTRAINT "virtualization_vminterface_primary_mac_address_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."virtualization_vminterface_primary_mac_address_id_idx"`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" DROP CONSTRAINT "UQ_565b52f2232f7f9cd90c0267c23"`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" DROP COLUMN "primary_mac_address_id"`);
  }
}
