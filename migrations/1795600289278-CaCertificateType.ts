import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Certificates of type `ca`: CA-constrained certificates issued through POST /certificates/. */
export class CaCertificateType1795600289278 implements MigrationInterface {
  name = 'CaCertificateType1795600289278';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "certificates" DROP CONSTRAINT "certificates_type_check"`);
    await queryRunner.query(`ALTER TABLE "certificates" ADD CONSTRAINT "certificates_type_check" CHECK ("certificate_type" IN ('server', 'client', 'dual_purpose', 'ca'))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "certificates" DROP CONSTRAINT "certificates_type_check"`);
    await queryRunner.query(`ALTER TABLE "certificates" ADD CONSTRAINT "certificates_type_check" CHECK ("certificate_type" IN ('server', 'client', 'dual_purpose'))`);
  }
}
