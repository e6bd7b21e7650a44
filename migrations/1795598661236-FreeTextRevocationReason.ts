import { MigrationInterface, QueryRunner } from 'typeorm';

/** A revocation reason is free text as the caller gave it; the CRL maps RFC 5280 names to reason codes. */
export class FreeTextRevocationReason1795598661236 implements MigrationInterface {
  name = 'FreeTextRevocationReason1795598661236';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "certificates" ALTER COLUMN "revocation_reason" TYPE text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "certificates" ALTER COLUMN "revocation_reason" TYPE character varying(32) USING left("revocation_reason", 32)`,
    );
  }
}
