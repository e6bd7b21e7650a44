import { MigrationInterface, QueryRunner } from 'typeorm';

export class ConfigContextProfiles1796692061331 implements MigrationInterface {
  name = 'ConfigContextProfiles1796692061331';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "extras_configcontextprofile" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', "schema" jsonb, "comments" text NOT NULL DEFAULT '', CONSTRAINT "extras_configcontextprofile_name_key" UNIQUE ("name"), CONSTRAINT "extras_configcontextprofile_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`ALTER TABLE "extras_configcontext" ADD "profile_id" integer`);
    await queryRunner.query(`CREATE INDEX "extras_configcontext_profile_id_idx" ON "extras_configcontext"  ("profile_id") `);
    await queryRunner.query(`ALTER TABLE "extras_configcontext" ADD CONSTRAINT "extras_configcontext_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "extras_configcontextprofile"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "extras_configcontext" DROP CONSTRAINT "extras_configcontext_profile_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."extras_configcontext_profile_id_idx"`);
    await queryRunner.query(`ALTER TABLE "extras_configcontext" DROP COLUMN "profile_id"`);
    await queryRunner.query(`DROP TABLE "extras_configcontextprofile"`);
  }
}
