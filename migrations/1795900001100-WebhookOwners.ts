import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records who last wrote each event rule and webhook: deliveries carry only what those users may
 * view. Existing rules and webhooks have no owner (null), and deliver nothing until a user saves
 * them again and so becomes their owner.
 */
export class WebhookOwners1795900001100 implements MigrationInterface {
  name = 'WebhookOwners1795900001100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "extras_webhook" ADD "owner_id" integer`);
    await queryRunner.query(`ALTER TABLE "extras_eventrule" ADD "owner_id" integer`);
    await queryRunner.query(`CREATE INDEX "extras_webhook_owner_id_idx" ON "extras_webhook"  ("owner_id") `);
    await queryRunner.query(`CREATE INDEX "extras_eventrule_owner_id_idx" ON "extras_eventrule"  ("owner_id") `);
    await queryRunner.query(
      `ALTER TABLE "extras_webhook" ADD CONSTRAINT "extras_webhook_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "extras_eventrule" ADD CONSTRAINT "extras_eventrule_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "extras_eventrule" DROP CONSTRAINT "extras_eventrule_owner_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "extras_webhook" DROP CONSTRAINT "extras_webhook_owner_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."extras_eventrule_owner_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."extras_webhook_owner_id_idx"`);
    await queryRunner.query(`ALTER TABLE "extras_eventrule" DROP COLUMN "owner_id"`);
    await queryRunner.query(`ALTER TABLE "extras_webhook" DROP COLUMN "owner_id"`);
  }
}
