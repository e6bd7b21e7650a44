import { MigrationInterface, QueryRunner } from 'typeorm';

export class SenderAuthenticationAndEventIds1795922121739 implements MigrationInterface {
  name = 'SenderAuthenticationAndEventIds1795922121739';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD "delivery_event_ids" jsonb`);
    await queryRunner.query(`ALTER TABLE "notices_inboundemail" ADD "authentication" text NOT NULL DEFAULT ''`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_inboundemail" DROP COLUMN "authentication"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP COLUMN "delivery_event_ids"`);
  }
}
