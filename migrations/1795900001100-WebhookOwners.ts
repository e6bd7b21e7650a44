import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records who last wrote each event rule and webhook: deliveries carry only what those users may
 * view. Existing rows take the user of their latest create or update in the change log, the owner
 * they would have had; a row the change log names no user for stays without owner and delivers
 * nothing until a user saves it.
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
    for (const [table, model] of [
      ['extras_webhook', 'webhook'],
      ['extras_eventrule', 'eventrule'],
    ]) {
      await queryRunner.query(
        `UPDATE "${table}" AS row SET "owner_id" = (
           SELECT change."user_id" FROM "core_objectchange" AS change
           JOIN "core_objecttype" AS type ON type."id" = change."changed_object_type_id"
           WHERE type."app_label" = 'extras' AND type."model" = $1 AND change."changed_object_id" = row."id"
             AND change."action" IN ('create', 'update') AND change."user_id" IS NOT NULL
           ORDER BY change."time" DESC, change."id" DESC LIMIT 1)`,
        [model],
      );
    }
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
