import { MigrationInterface, QueryRunner } from 'typeorm';

export class VlanTranslationPolicies1796689955579 implements MigrationInterface {
  name = 'VlanTranslationPolicies1796689955579';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "ipam_vlantranslationpolicy" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', "comments" text NOT NULL DEFAULT '', CONSTRAINT "ipam_vlantranslationpolicy_name_key" UNIQUE ("name"), CONSTRAINT "ipam_vlantranslationpolicy_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "ipam_vlantranslationrule" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "policy_id" integer NOT NULL, "local_vid" integer NOT NULL, "remote_vid" integer NOT NULL, "description" character varying(200) NOT NULL DEFAULT '', CONSTRAINT "ipam_vlantranslationrule_policy_id_local_vid_key" UNIQUE ("policy_id", "local_vid"), CONSTRAINT "ipam_vlantranslationrule_policy_id_remote_vid_key" UNIQUE ("policy_id", "remote_vid"), CONSTRAINT "ipam_vlantranslationrule_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "ipam_vlantranslationrule_policy_id_idx" ON "ipam_vlantranslationrule"  ("policy_id") `);
    await queryRunner.query(`ALTER TABLE "dcim_interface" ADD "vlan_translation_policy_id" integer`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" ADD "vlan_translation_policy_id" integer`);
    await queryRunner.query(`CREATE INDEX "dcim_interface_vlan_translation_policy_id_idx" ON "dcim_interface"  ("vlan_translation_policy_id") `);
    await queryRunner.query(`CREATE INDEX "virtualization_vminterface_vlan_translation_policy_id_idx" ON "virtualization_vminterface"  ("vlan_translation_policy_id") `);
    await queryRunner.query(`ALTER TABLE "dcim_interface" ADD CONSTRAINT "dcim_interface_vlan_translation_policy_id_fkey" FOREIGN KEY ("vlan_translation_policy_id") REFERENCES "ipam_vlantranslationpolicy"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ipam_vlantranslationrule" ADD CONSTRAINT "ipam_vlantranslationrule_policy_id_fkey" FOREIGN KEY ("policy_id") REFERENCES "ipam_vlantranslationpolicy"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" ADD CONSTRAINT "virtualization_vminterface_vlan_translation_policy_id_fkey" FOREIGN KEY ("vlan_translation_policy_id") REFERENCES "ipam_vlantranslationpolicy"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" DROP CONSTRAINT "virtualization_vminterface_vlan_translation_policy_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "ipam_vlantranslationrule" DROP CONSTRAINT "ipam_vlantranslationrule_policy_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" DROP CONSTRAINT "dcim_interface_vlan_translation_policy_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."virtualization_vminterface_vlan_translation_policy_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."dcim_interface_vlan_translation_policy_id_idx"`);
    await queryRunner.query(`ALTER TABLE "virtualization_vminterface" DROP COLUMN "vlan_translation_policy_id"`);
    await queryRunner.query(`ALTER TABLE "dcim_interface" DROP COLUMN "vlan_translation_policy_id"`);
    await queryRunner.query(`DROP INDEX "public"."ipam_vlantranslationrule_policy_id_idx"`);
    await queryRunner.query(`DROP TABLE "ipam_vlantranslationrule"`);
    await queryRunner.query(`DROP TABLE "ipam_vlantranslationpolicy"`);
  }
}
