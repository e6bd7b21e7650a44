import { MigrationInterface, QueryRunner } from 'typeorm';

export class Owners1796692744725 implements MigrationInterface {
  name = 'Owners1796692744725';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "users_ownergroup" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "name" character varying(100) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', CONSTRAINT "users_ownergroup_name_key" UNIQUE ("name"), CONSTRAINT "users_ownergroup_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "users_owner" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "name" character varying(100) NOT NULL DEFAULT '', "group_id" integer, "description" character varying(200) NOT NULL DEFAULT '', CONSTRAINT "users_owner_name_key" UNIQUE ("name"), CONSTRAINT "users_owner_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "users_owner_group_id_idx" ON "users_owner"  ("group_id") `);
    await queryRunner.query(`CREATE TABLE "users_owner_user_groups" ("owner_id" integer NOT NULL, "group_id" integer NOT NULL, CONSTRAINT "users_owner_user_groups_pkey" PRIMARY KEY ("owner_id", "group_id"))`);
    await queryRunner.query(`CREATE INDEX "users_owner_user_groups_group_id_idx" ON "users_owner_user_groups"  ("group_id") `);
    await queryRunner.query(`CREATE TABLE "users_owner_users" ("owner_id" integer NOT NULL, "user_id" integer NOT NULL, CONSTRAINT "users_owner_users_pkey" PRIMARY KEY ("owner_id", "user_id"))`);
    await queryRunner.query(`CREATE INDEX "users_owner_users_user_id_idx" ON "users_owner_users"  ("user_id") `);
    await queryRunner.query(`ALTER TABLE "users_owner" ADD CONSTRAINT "users_owner_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "users_ownergroup"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "users_owner_user_groups" ADD CONSTRAINT "users_owner_user_groups_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users_owner"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "users_owner_user_groups" ADD CONSTRAINT "users_owner_user_groups_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "users_group"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "users_owner_users" ADD CONSTRAINT "users_owner_users_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users_owner"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "users_owner_users" ADD CONSTRAINT "users_owner_users_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users_owner_users" DROP CONSTRAINT "users_owner_users_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "users_owner_users" DROP CONSTRAINT "users_owner_users_owner_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "users_owner_user_groups" DROP CONSTRAINT "users_owner_user_groups_group_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "users_owner_user_groups" DROP CONSTRAINT "users_owner_user_groups_owner_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "users_owner" DROP CONSTRAINT "users_owner_group_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."users_owner_users_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "users_owner_users"`);
    await queryRunner.query(`DROP INDEX "public"."users_owner_user_groups_group_id_idx"`);
    await queryRunner.query(`DROP TABLE "users_owner_user_groups"`);
    await queryRunner.query(`DROP INDEX "public"."users_owner_group_id_idx"`);
    await queryRunner.query(`DROP TABLE "users_owner"`);
    await queryRunner.query(`DROP TABLE "users_ownergroup"`);
  }
}
