import { MigrationInterface, QueryRunner } from 'typeorm';

export class AcmeRenewalInfo1796718500000 implements MigrationInterface {
  name = 'AcmeRenewalInfo1796718500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "acme_orders" ADD "replaces" character varying(128)`);
    await queryRunner.query(`ALTER TABLE "acme_orders" ADD "replaces_certificate_id" integer`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "acme_orders_replaces_certificate_id_key" ON "acme_orders" ("replaces_certificate_id") WHERE status <> 'invalid'`,
    );
    await queryRunner.query(
      `ALTER TABLE "acme_orders" ADD CONSTRAINT "acme_orders_replaces_certificate_id_fkey" FOREIGN KEY ("replaces_certificate_id") REFERENCES "certificates"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "acme_orders" DROP CONSTRAINT "acme_orders_replaces_certificate_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."acme_orders_replaces_certificate_id_key"`);
    await queryRunner.query(`ALTER TABLE "acme_orders" DROP COLUMN "replaces_certificate_id"`);
    await queryRunner.query(`ALTER TABLE "acme_orders" DROP COLUMN "replaces"`);
  }
}
