import { MigrationInterface, QueryRunner } from 'typeorm';

export class Pki1795245880062 implements MigrationInterface {
  name = 'Pki1795245880062';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "certificate_authorities" ("id" SERIAL NOT NULL, "name" character varying(255) NOT NULL, "description" text, "subject_dn" text NOT NULL, "key_type" character varying(16) NOT NULL, "key_size" integer, "valid_days" integer NOT NULL, "parent_ca_id" integer, "path_length" integer, "allow_leaf_certs" boolean, "certificate" text NOT NULL, "private_key" text NOT NULL, "serial_number" character varying(64) NOT NULL, "not_before" TIMESTAMP WITH TIME ZONE NOT NULL, "not_after" TIMESTAMP WITH TIME ZONE NOT NULL, "organization_id" integer, "created_by_user_id" integer, "crl_number" bigint NOT NULL DEFAULT '0', "crl_der" bytea, "crl_next_update" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "certificate_authorities_pkey" PRIMARY KEY ("id"))`);
    // CA names are unique within an organization (org-less CAs form one group), regardless of case.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "certificate_authorities_org_name_key" ON "certificate_authorities" (coalesce("organization_id", 0), lower("name"))`,
    );
    await queryRunner.query(`CREATE INDEX "certificate_authorities_organization_id_idx" ON "certificate_authorities"  ("organization_id") `);
    await queryRunner.query(`CREATE INDEX "certificate_authorities_parent_ca_id_idx" ON "certificate_authorities"  ("parent_ca_id") `);
    await queryRunner.query(`CREATE TABLE "certificates" ("id" SERIAL NOT NULL, "issuer_id" integer NOT NULL, "common_name" character varying(255) NOT NULL, "subject_dn" text NOT NULL, "certificate_type" character varying(16) NOT NULL, "origin" character varying(16) NOT NULL, "key_type" character varying(16) NOT NULL, "key_size" integer, "valid_days" integer NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'valid', "san_dns_names" jsonb NOT NULL, "san_ip_addresses" jsonb NOT NULL, "san_email_addresses" jsonb NOT NULL, "certificate" text NOT NULL, "private_key" text, "serial_number" character varying(64) NOT NULL, "not_before" TIMESTAMP WITH TIME ZONE NOT NULL, "not_after" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "revocation_reason" character varying(32), "organization_id" integer, "created_by_user_id" integer, "renewed_from_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "certificates_origin_check" CHECK ("origin" IN ('server_key', 'csr')), CONSTRAINT "certificates_type_check" CHECK ("certificate_type" IN ('server', 'client', 'dual_purpose')), CONSTRAINT "certificates_status_check" CHECK ("status" IN ('valid', 'revoked')), CONSTRAINT "certificates_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "certificates_renewed_from_id_idx" ON "certificates"  ("renewed_from_id") `);
    await queryRunner.query(`CREATE INDEX "certificates_organization_id_idx" ON "certificates"  ("organization_id") `);
    await queryRunner.query(`CREATE INDEX "certificates_serial_number_idx" ON "certificates"  ("serial_number") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "certificates_issuer_serial_key" ON "certificates"  ("issuer_id", "serial_number") `);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD CONSTRAINT "certificate_authorities_parent_ca_id_fkey" FOREIGN KEY ("parent_ca_id") REFERENCES "certificate_authorities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD CONSTRAINT "certificate_authorities_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD CONSTRAINT "certificate_authorities_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "certificates" ADD CONSTRAINT "certificates_issuer_id_fkey" FOREIGN KEY ("issuer_id") REFERENCES "certificate_authorities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "certificates" ADD CONSTRAINT "certificates_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "certificates" ADD CONSTRAINT "certificates_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "certificates" ADD CONSTRAINT "certificates_renewed_from_id_fkey" FOREIGN KEY ("renewed_from_id") REFERENCES "certificates"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "certificates" DROP CONSTRAINT "certificates_renewed_from_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "certificates" DROP CONSTRAINT "certificates_created_by_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "certificates" DROP CONSTRAINT "certificates_organization_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "certificates" DROP CONSTRAINT "certificates_issuer_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP CONSTRAINT "certificate_authorities_created_by_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP CONSTRAINT "certificate_authorities_organization_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP CONSTRAINT "certificate_authorities_parent_ca_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."certificates_issuer_serial_key"`);
    await queryRunner.query(`DROP INDEX "public"."certificates_serial_number_idx"`);
    await queryRunner.query(`DROP INDEX "public"."certificates_organization_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."certificates_renewed_from_id_idx"`);
    await queryRunner.query(`DROP TABLE "certificates"`);
    await queryRunner.query(`DROP INDEX "public"."certificate_authorities_parent_ca_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."certificate_authorities_organization_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."certificate_authorities_org_name_key"`);
    await queryRunner.query(`DROP TABLE "certificate_authorities"`);
  }
}
