import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counts revocations per CA and, beside the stored CRL, how many of them it covers: a CRL is current
 * when the two agree, so concurrent revocations can share one rebuild. Stored CRLs start as not
 * current (null), so each is rebuilt once on its next fetch.
 */
export class CrlRevocationCount1795700000000 implements MigrationInterface {
  name = 'CrlRevocationCount1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD "revocation_count" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" ADD "crl_revocation_count" integer`);
    await queryRunner.query(
      `UPDATE "certificate_authorities" ca SET "revocation_count" =
         (SELECT count(*) FROM "certificates" c WHERE c."issuer_id" = ca."id" AND c."status" = 'revoked')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP COLUMN "crl_revocation_count"`);
    await queryRunner.query(`ALTER TABLE "certificate_authorities" DROP COLUMN "revocation_count"`);
  }
}
