import { MigrationInterface, QueryRunner } from 'typeorm';

export class PeeringSyncRuns1795800000200 implements MigrationInterface {
  name = 'PeeringSyncRuns1795800000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "peering_syncrun" ("id" SERIAL PRIMARY KEY, "kind" character varying(20) NOT NULL, "source" character varying(20) NOT NULL, "job_id" bigint, "started" TIMESTAMP WITH TIME ZONE NOT NULL, "finished" TIMESTAMP WITH TIME ZONE NOT NULL, "status" character varying(20) NOT NULL, "counts" jsonb NOT NULL DEFAULT '{}', "error" text NOT NULL DEFAULT '', CONSTRAINT "peering_syncrun_kind_check" CHECK ("kind" IN ('peeringdb', 'irr')), CONSTRAINT "peering_syncrun_status_check" CHECK ("status" IN ('succeeded', 'failed')))`);
    await queryRunner.query(`CREATE INDEX "peering_syncrun_kind_finished_idx" ON "peering_syncrun" ("kind", "finished")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "peering_syncrun"`);
  }
}
