import { MigrationInterface, QueryRunner } from 'typeorm';

export class CableTerminationConnector1795256838820 implements MigrationInterface {
  name = 'CableTerminationConnector1795256838820';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_cabletermination" ADD "connector" integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dcim_cabletermination" DROP COLUMN "connector"`);
  }
}
