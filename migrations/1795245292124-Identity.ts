import { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1795245292124 implements MigrationInterface {
  name = 'Identity1795245292124';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_logs" ("id" BIGSERIAL NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "action" character varying(64) NOT NULL, "user_id" integer, "username" character varying(150), "service_account_id" integer, "service_account_name" character varying(255), "organization_id" integer, "resource_type" character varying(64), "resource_id" integer, "detail" text, CONSTRAINT "audit_logs_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "audit_logs_action_idx" ON "audit_logs"  ("action") `);
    await queryRunner.query(`CREATE INDEX "audit_logs_organization_id_created_at_idx" ON "audit_logs"  ("organization_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "audit_logs_created_at_idx" ON "audit_logs"  ("created_at") `);
    await queryRunner.query(`CREATE TABLE "organizations" ("id" SERIAL NOT NULL, "name" character varying(255) NOT NULL, "description" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "organizations_pkey" PRIMARY KEY ("id"))`);
    // Organization names are unique regardless of case (an expression index TypeORM cannot declare).
    await queryRunner.query(`CREATE UNIQUE INDEX "organizations_name_lower_key" ON "organizations" (lower("name"))`);
    await queryRunner.query(`CREATE TABLE "users" ("id" SERIAL NOT NULL, "username" character varying(150) NOT NULL, "email" character varying(320) NOT NULL, "password_hash" character varying(255) NOT NULL, "role" character varying(16) NOT NULL DEFAULT 'user', "is_active" boolean NOT NULL DEFAULT true, "organization_id" integer, "can_create_ca" boolean NOT NULL DEFAULT false, "can_create_cert" boolean NOT NULL DEFAULT false, "can_revoke_cert" boolean NOT NULL DEFAULT false, "can_export_private_key" boolean NOT NULL DEFAULT false, "can_delete_ca" boolean NOT NULL DEFAULT false, "tokens_invalidated_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "users_role_check" CHECK ("role" IN ('superuser', 'admin', 'user')), CONSTRAINT "users_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "users_organization_id_idx" ON "users"  ("organization_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_key" ON "users"  ("email") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_username_key" ON "users"  ("username") `);
    await queryRunner.query(`CREATE TABLE "login_failures" ("id" BIGSERIAL NOT NULL, "key" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "login_failures_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "login_failures_key_created_at_idx" ON "login_failures"  ("key", "created_at") `);
    await queryRunner.query(`CREATE TABLE "token_blocklist" ("jti" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "token_blocklist_pkey" PRIMARY KEY ("jti"))`);
    await queryRunner.query(`CREATE INDEX "token_blocklist_expires_at_idx" ON "token_blocklist"  ("expires_at") `);
    await queryRunner.query(`CREATE TABLE "auth_sessions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, "revoked_reason" character varying(32), CONSTRAINT "auth_sessions_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "auth_sessions_user_id_idx" ON "auth_sessions"  ("user_id") `);
    await queryRunner.query(`CREATE TABLE "refresh_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "session_id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "consumed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "refresh_tokens_expires_at_idx" ON "refresh_tokens"  ("expires_at") `);
    await queryRunner.query(`CREATE INDEX "refresh_tokens_session_id_idx" ON "refresh_tokens"  ("session_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "refresh_tokens_token_hash_key" ON "refresh_tokens"  ("token_hash") `);
    await queryRunner.query(`ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "auth_sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "refresh_tokens" DROP CONSTRAINT "refresh_tokens_session_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "auth_sessions" DROP CONSTRAINT "auth_sessions_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "users_organization_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."refresh_tokens_token_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."refresh_tokens_session_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."refresh_tokens_expires_at_idx"`);
    await queryRunner.query(`DROP TABLE "refresh_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."auth_sessions_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."token_blocklist_expires_at_idx"`);
    await queryRunner.query(`DROP TABLE "token_blocklist"`);
    await queryRunner.query(`DROP INDEX "public"."login_failures_key_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "login_failures"`);
    await queryRunner.query(`DROP INDEX "public"."users_username_key"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_key"`);
    await queryRunner.query(`DROP INDEX "public"."users_organization_id_idx"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."organizations_name_lower_key"`);
    await queryRunner.query(`DROP TABLE "organizations"`);
    await queryRunner.query(`DROP INDEX "public"."audit_logs_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_logs_organization_id_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_logs_action_idx"`);
    await queryRunner.query(`DROP TABLE "audit_logs"`);
  }
}
