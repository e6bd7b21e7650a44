import { MigrationInterface, QueryRunner } from 'typeorm';

export class MailIntegration1795800000500 implements MigrationInterface {
  name = 'MailIntegration1795800000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "notices_inboundemail" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "message_id" character varying(255) NOT NULL DEFAULT '', "email_from" character varying(254) NOT NULL DEFAULT '', "subject" character varying(255) NOT NULL DEFAULT '', "email_received" TIMESTAMP WITH TIME ZONE, "parser" character varying(50) NOT NULL DEFAULT '', "status" character varying(50) NOT NULL DEFAULT 'unparsed', "reason" character varying(50) NOT NULL DEFAULT '', "detail" text NOT NULL DEFAULT '', "attempts" integer NOT NULL DEFAULT '1', "results" jsonb, "raw" text NOT NULL DEFAULT '', CONSTRAINT "notices_inboundemail_message_id_key" UNIQUE ("message_id"), CONSTRAINT "notices_inboundemail_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" ADD "notice_stamp" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" ADD "notice_sequence" integer`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD "send_attempts" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD "claimed_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD "claim_token" character varying(64) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD "next_attempt_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD "last_error" text NOT NULL DEFAULT ''`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP COLUMN "last_error"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP COLUMN "next_attempt_at"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP COLUMN "claim_token"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP COLUMN "claimed_until"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP COLUMN "send_attempts"`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" DROP COLUMN "notice_sequence"`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" DROP COLUMN "notice_stamp"`);
    await queryRunner.query(`DROP TABLE "notices_inboundemail"`);
  }
}
