import { MigrationInterface, QueryRunner } from 'typeorm';

export class AcmeServer1796677295647 implements MigrationInterface {
  name = 'AcmeServer1796677295647';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "acme_nonces" ("value" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "acme_nonces_pkey" PRIMARY KEY ("value"))`);
    await queryRunner.query(`CREATE INDEX "acme_nonces_created_at_idx" ON "acme_nonces"  ("created_at") `);
    await queryRunner.query(`CREATE TABLE "acme_eab_keys" ("id" SERIAL NOT NULL, "key_id" character varying(64) NOT NULL, "hmac_key" text NOT NULL, "service_account_id" integer NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "acme_eab_keys_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "acme_eab_keys_service_account_id_idx" ON "acme_eab_keys"  ("service_account_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "acme_eab_keys_key_id_key" ON "acme_eab_keys"  ("key_id") `);
    await queryRunner.query(`CREATE TABLE "acme_accounts" ("id" SERIAL NOT NULL, "ca_id" integer NOT NULL, "key_thumbprint" character varying(64) NOT NULL, "jwk" jsonb NOT NULL, "contact" jsonb NOT NULL DEFAULT '[]', "status" character varying(16) NOT NULL, "service_account_id" integer, "eab_key_id" character varying(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "acme_accounts_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "acme_accounts_service_account_id_idx" ON "acme_accounts"  ("service_account_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "acme_accounts_ca_id_key_thumbprint_key" ON "acme_accounts"  ("ca_id", "key_thumbprint") `);
    await queryRunner.query(`CREATE TABLE "acme_orders" ("id" SERIAL NOT NULL, "account_id" integer NOT NULL, "status" character varying(16) NOT NULL, "identifiers" jsonb NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "certificate_id" integer, "error" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "acme_orders_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "acme_orders_account_id_idx" ON "acme_orders"  ("account_id") `);
    await queryRunner.query(`CREATE TABLE "acme_authorizations" ("id" SERIAL NOT NULL, "order_id" integer NOT NULL, "identifier_value" character varying(253) NOT NULL, "status" character varying(16) NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "acme_authorizations_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "acme_authorizations_order_id_idx" ON "acme_authorizations"  ("order_id") `);
    await queryRunner.query(`CREATE TABLE "acme_challenges" ("id" SERIAL NOT NULL, "authorization_id" integer NOT NULL, "type" character varying(16) NOT NULL, "token" character varying(64) NOT NULL, "status" character varying(16) NOT NULL, "validated_at" TIMESTAMP WITH TIME ZONE, "error" jsonb, CONSTRAINT "acme_challenges_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "acme_challenges_authorization_id_idx" ON "acme_challenges"  ("authorization_id") `);
    await queryRunner.query(`ALTER TABLE "acme_eab_keys" ADD CONSTRAINT "acme_eab_keys_service_account_id_fkey" FOREIGN KEY ("service_account_id") REFERENCES "service_accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "acme_accounts" ADD CONSTRAINT "acme_accounts_ca_id_fkey" FOREIGN KEY ("ca_id") REFERENCES "certificate_authorities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "acme_accounts" ADD CONSTRAINT "acme_accounts_service_account_id_fkey" FOREIGN KEY ("service_account_id") REFERENCES "service_accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "acme_orders" ADD CONSTRAINT "acme_orders_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "acme_accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "acme_orders" ADD CONSTRAINT "acme_orders_certificate_id_fkey" FOREIGN KEY ("certificate_id") REFERENCES "certificates"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "acme_authorizations" ADD CONSTRAINT "acme_authorizations_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "acme_orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "acme_challenges" ADD CONSTRAINT "acme_challenges_authorization_id_fkey" FOREIGN KEY ("authorization_id") REFERENCES "acme_authorizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "acme_challenges" DROP CONSTRAINT "acme_challenges_authorization_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "acme_authorizations" DROP CONSTRAINT "acme_authorizations_order_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "acme_orders" DROP CONSTRAINT "acme_orders_certificate_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "acme_orders" DROP CONSTRAINT "acme_orders_account_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "acme_accounts" DROP CONSTRAINT "acme_accounts_service_account_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "acme_accounts" DROP CONSTRAINT "acme_accounts_ca_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "acme_eab_keys" DROP CONSTRAINT "acme_eab_keys_service_account_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."acme_challenges_authorization_id_idx"`);
    await queryRunner.query(`DROP TABLE "acme_challenges"`);
    await queryRunner.query(`DROP INDEX "public"."acme_authorizations_order_id_idx"`);
    await queryRunner.query(`DROP TABLE "acme_authorizations"`);
    await queryRunner.query(`DROP INDEX "public"."acme_orders_account_id_idx"`);
    await queryRunner.query(`DROP TABLE "acme_orders"`);
    await queryRunner.query(`DROP INDEX "public"."acme_accounts_ca_id_key_thumbprint_key"`);
    await queryRunner.query(`DROP INDEX "public"."acme_accounts_service_account_id_idx"`);
    await queryRunner.query(`DROP TABLE "acme_accounts"`);
    await queryRunner.query(`DROP INDEX "public"."acme_eab_keys_key_id_key"`);
    await queryRunner.query(`DROP INDEX "public"."acme_eab_keys_service_account_id_idx"`);
    await queryRunner.query(`DROP TABLE "acme_eab_keys"`);
    await queryRunner.query(`DROP INDEX "public"."acme_nonces_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "acme_nonces"`);
  }
}
