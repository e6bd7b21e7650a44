import { MigrationInterface, QueryRunner } from 'typeorm';

export class QinqVlans1796690975126 implements MigrationInterface {
  name = 'QinqVlans1796690975126';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "dcim_interface_tagged_vlans" ("interface_id" integer NOT NULL, "vlan_id" integer NOT NULL, CONSTRAINT "dcim_interface_tagged_vlans_pkey" PRIMARY KEY ("interface_id", "vlan_id"))`);
    await queryRunner.query(`CREATE INDEX "dcim_interface_tagged_vlans_vlan_id_idx" ON "dcim_interface_tagged_vlans"  ("vlan_id") `);
    await queryRunner.query(`ALTER TABLE "dcim_interface" ADD "mode" character varying(50) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" ADD "untagged_vlan_id" integer`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" ADD "qinq_svlan_id" integer`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" ADD "qinq_role" character varying(50) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" ADD "qinq_svlan_id" integer`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" ADD "qinq_svlan_id" integer`);
    await queryRunner.query(`CREATE INDEX "dcim_interface_untagged_vlan_id_idx" ON "dcim_interface"  ("untagged_vlan_id") `);
    await queryRunner.query(`CREATE INDEX "dcim_interface_qinq_svlan_id_idx" ON "dcim_interface"  ("qinq_svlan_id") `);
    await queryRunner.query(`CREATE INDEX "ipam_vlan_qinq_svlan_id_idx" ON "ipam_vlan"  ("qinq_svlan_id") `);
    await queryRunner.query(`CREATE INDEX "virtualization_vminterface_qinq_svlan_id_idx" ON "virtualization_vminterface"  ("qinq_svlan_id") `);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" ADD CONSTRAINT "ipam_vlan_qinq_svlan_id_vid_key" UNIQUE ("qinq_svlan_id", "vid")`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" ADD CONSTRAINT "ipam_vlan_qinq_svlan_id_name_key" UNIQUE ("qinq_svlan_id", "name")`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" ADD CONSTRAINT "dcim_interface_untagged_vlan_id_fkey" FOREIGN KEY ("untagged_vlan_id") REFERENCES "ipam_vlan"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" ADD CONSTRAINT "dcim_interface_qinq_svlan_id_fkey" FOREIGN KEY ("qinq_svlan_id") REFERENCES "ipam_vlan"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_interface_tagged_vlans" ADD CONSTRAINT "dcim_interface_tagged_vlans_interface_id_fkey" FOREIGN KEY ("interface_id") REFERENCES "dcim_interface"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dcim_interface_tagged_vlans" ADD CONSTRAINT "dcim_interface_tagged_vlans_vlan_id_fkey" FOREIGN KEY ("vlan_id") REFERENCES "ipam_vlan"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" ADD CONSTRAINT "ipam_vlan_qinq_svlan_id_fkey" FOREIGN KEY ("qinq_svlan_id") REFERENCES "ipam_vlan"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" ADD CONSTRAINT "virtualization_vminterface_qinq_svlan_id_fkey" FOREIGN KEY ("qinq_svlan_id") REFERENCES "ipam_vlan"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" DROP CONSTRAINT "virtualization_vminterface_qinq_svlan_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" DROP CONSTRAINT "ipam_vlan_qinq_svlan_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface_tagged_vlans" DROP CONSTRAINT "dcim_interface_tagged_vlans_vlan_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface_tagged_vlans" DROP CONSTRAINT "dcim_interface_tagged_vlans_interface_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" DROP CONSTRAINT "dcim_interface_qinq_svlan_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" DROP CONSTRAINT "dcim_interface_untagged_vlan_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" DROP CONSTRAINT "ipam_vlan_qinq_svlan_id_name_key"`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" DROP CONSTRAINT "ipam_vlan_qinq_svlan_id_vid_key"`);
    await queryRunner.query(`DROP INDEX "public"."virtualization_vminterface_qinq_svlan_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."ipam_vlan_qinq_svlan_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_interface_qinq_svlan_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_interface_untagged_vlan_id_idx"`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" DROP COLUMN "qinq_svlan_id"`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" DROP COLUMN "qinq_svlan_id"`);
    await queryRunner.query(`ALTER TABLE "ipam_vlan" DROP COLUMN "qinq_role"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" DROP COLUMN "qinq_svlan_id"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" DROP COLUMN "untagged_vlan_id"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" DROP COLUMN "mode"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_interface_tagged_vlans_vlan_id_idx"`);
    await queryRunner.query(`DROP TABLE "dcim_interface_tagged_vlans"`);
  }
}
