import { MigrationInterface, QueryRunner } from 'typeorm';

export class UpstreamNotificationFields1796000000000 implements MigrationInterface {
  name = 'UpstreamNotificationFields1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD "viewed_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP COLUMN "viewed_at"`);
  }
}
