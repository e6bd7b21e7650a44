import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-CA OCSP and URL settings: who signs OCSP answers (the CA, or a delegated responder certificate
 * the CA issues and rotates, stored with its key encrypted), their validity, and the base of the URLs
 * written into the certificates the CA issues.
 */
export class CaOcspResponder1796000000000 implements MigrationInterface {
  name = 'CaOcspResponder1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD "ocsp_signer" character varying(16) NOT NULL DEFAULT 'ca'`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD "ocsp_signer_certificate" text`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD "ocsp_signer_private_key" text`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD "ocsp_validity_hours" integer`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD "public_base_url" text`);
    await queryRunner.query(
      `ALTER TABLE "certificate_authorities" ADD CONSTRAINT "certificate_authorities_ocsp_signer_check" CHECK ("ocsp_signer" IN ('ca', 'delegated'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP CONSTRAINT "certificate_authorities_ocsp_signer_check"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP COLUMN "public_base_url"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP COLUMN "ocsp_validity_hours"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP COLUMN "ocsp_signer_private_key"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP COLUMN "ocsp_signer_certificate"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP COLUMN "ocsp_signer"`);
  }
}
