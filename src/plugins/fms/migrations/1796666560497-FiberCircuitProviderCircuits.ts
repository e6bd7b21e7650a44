import { MigrationInterface, QueryRunner } from 'typeorm';

export class FiberCircuitProviderCircuits1796666560497 implements MigrationInterface {
  name = 'FiberCircuitProviderCircuits1796666560497';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "fms_fibercircuit_provider_circuits" ("fibercircuit_id" integer NOT NULL, "circuit_id" integer NOT NULL, CONSTRAINT "fms_fibercircuit_provider_circuits_pkey" PRIMARY KEY ("fibercircuit_id", "circuit_id"))`);
    await queryRunner.query(`CREATE INDEX "fms_fibercircuit_provider_circuits_circuit_id_idx" ON "fms_fibercircuit_provider_circuits"  ("circuit_id") `);
    await queryRunner.query(`ALTER TABLE "fms_fibercircuit_provider_circuits" ADD CONSTRAINT "fms_fibercircuit_provider_circuits_fibercircuit_id_fkey" FOREIGN KEY ("fibercircuit_id") REFERENCES "fms_fibercircuit"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "fms_fibercircuit_provider_circuits" ADD CONSTRAINT "fms_fibercircuit_provider_circuits_circuit_id_fkey" FOREIGN KEY ("circuit_id") REFERENCES "circuits_circuit"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "fms_fibercircuit_provider_circuits" DROP CONSTRAINT "fms_fibercircuit_provider_circuits_circuit_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "fms_fibercircuit_provider_circuits" DROP CONSTRAINT "fms_fibercircuit_provider_circuits_fibercircuit_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."fms_fibercircuit_provider_circuits_circuit_id_idx"`);
    await queryRunner.query(`DROP TABLE "fms_fibercircuit_provider_circuits"`);
  }
}
