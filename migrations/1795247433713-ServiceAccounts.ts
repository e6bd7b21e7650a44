import { MigrationInterface, QueryRunner } from 'typeorm';

export class ServiceAccounts1795247433713 implements MigrationInterface {
  name = 'ServiceAccounts1795247433713';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "service_accounts" ("id" SERIAL NOT NULL, "name" character varying(255) NOT NULL, "description" text, "organization_id" integer NOT NULL, "can_create_ca" boolean NOT NULL DEFAULT false, "can_create_cert" boolean NOT NULL DEFAULT false, "can_revoke_cert" boolean NOT NULL DEFAULT false, "can_export_private_key" boolean NOT NULL DEFAULT false, "can_delete_ca" boolean NOT NULL DEFAULT false, "disabled_at" TIMESTAMP WITH TIME ZONE, "created_by_user_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "service_accounts_pkey" PRIMARY KEY ("id"))`);
    // Service-account names are unique within an organization regardless of case.
    await queryRunner.query(`CREATE UNIQUE INDEX "service_accounts_org_name_key" ON "service_accounts" ("organization_id", lower("name"))`);
    await queryRunner.query(`CREATE INDEX "service_accounts_organization_id_idx" ON "service_accounts"  ("organization_id") `);
    await queryRunner.query(`CREATE TABLE "service_account_policies" ("id" SERIAL NOT NULL, "service_account_id" integer NOT NULL, "cn_patterns" jsonb NOT NULL, "san_dns_patterns" jsonb NOT NULL, "san_ip_cidrs" jsonb NOT NULL, "san_email_domains" jsonb NOT NULL, "allowed_ca_ids" jsonb NOT NULL, "allowed_certificate_types" jsonb NOT NULL, "max_validity_days" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "REL_7dabd94c638543ae25fb4d3982" UNIQUE ("service_account_id"), CONSTRAINT "service_account_policies_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "service_account_policies_service_account_id_key" ON "service_account_policies"  ("service_account_id") `);
    await queryRunner.query(`CREATE TABLE "service_account_tokens" ("id" SERIAL NOT NULL, "service_account_id" integer NOT NULL, "public_id" character varying(32) NOT NULL, "secret_digest" character(64) NOT NULL, "name" character varying(255) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "service_account_tokens_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "service_account_tokens_service_account_id_idx" ON "service_account_tokens"  ("service_account_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "service_account_tokens_public_id_key" ON "service_account_tokens"  ("public_id") `);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD "created_by_service_account_id" integer`);
    await queryRunner.query(`ALTER TABLE "certificates" ADD "created_by_service_account_id" integer`);
    await queryRunner.query(`ALTER TABLE "service_accounts" ADD CONSTRAINT "service_accounts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "service_accounts" ADD CONSTRAINT "service_accounts_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "service_account_policies" ADD CONSTRAINT "service_account_policies_service_account_id_fkey" FOREIGN KEY ("service_account_id") REFERENCES "service_accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "service_account_tokens" ADD CONSTRAINT "service_account_tokens_service_account_id_fkey" FOREIGN KEY ("service_account_id") REFERENCES "service_accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "service_account_tokens" DROP CONSTRAINT "service_account_tokens_service_account_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "service_account_policies" DROP CONSTRAINT "service_account_policies_service_account_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "service_accounts" DROP CONSTRAINT "service_accounts_created_by_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "service_accounts" DROP CONSTRAINT "service_accounts_organization_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "certificates" DROP COLUMN "created_by_service_account_id"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP COLUMN "created_by_service_account_id"`);
    await queryRunner.query(`DROP INDEX "public"."service_account_tokens_public_id_key"`);
    await queryRunner.query(`DROP INDEX "public"."service_account_tokens_service_account_id_idx"`);
    await queryRunner.query(`DROP TABLE "service_account_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."service_account_policies_service_account_id_key"`);
    await queryRunner.query(`DROP TABLE "service_account_policies"`);
    await queryRunner.query(`DROP INDEX "public"."service_accounts_organization_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."service_accounts_org_name_key"`);
    await queryRunner.query(`DROP TABLE "service_accounts"`);
  }
}
