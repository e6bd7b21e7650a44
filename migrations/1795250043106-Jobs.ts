import { MigrationInterface, QueryRunner } from 'typeorm';

export class Jobs1795250043106 implements MigrationInterface {
  name = 'Jobs1795250043106';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "jobs" ("id" BIGSERIAL NOT NULL, "queue" character varying(64) NOT NULL, "payload" jsonb NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "max_attempts" integer NOT NULL, "run_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_at" TIMESTAMP WITH TIME ZONE, "locked_by" character varying(64), "last_error" text, "completed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "jobs_status_check" CHECK ("status" IN ('pending', 'running', 'succeeded', 'failed')), CONSTRAINT "jobs_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "jobs_claim_idx" ON "jobs"  ("queue", "status", "run_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."jobs_claim_idx"`);
    await queryRunner.query(`DROP TABLE "jobs"`);
  }
}
