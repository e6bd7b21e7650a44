import { MigrationInterface, QueryRunner } from 'typeorm';

export class ParseConfidence1796667821244 implements MigrationInterface {
  name = 'ParseConfidence1796667821244';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_inboundemail" ADD "confidence" numeric(3,2)`);
    await queryRunner.query(`ALTER TABLE "notices_inboundemail" ADD "reasons" jsonb`);
    await queryRunner.query(`ALTER TABLE "notices_inboundemail" ADD "uncertainties" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_inboundemail" DROP COLUMN "uncertainties"`);
    await queryRunner.query(`ALTER TABLE "notices_inboundemail" DROP COLUMN "reasons"`);
    await queryRunner.query(`ALTER TABLE "notices_inboundemail" DROP COLUMN "confidence"`);
  }
}
