import { MigrationInterface, QueryRunner } from 'typeorm';

export class NoticesModels1795800000200 implements MigrationInterface {
  name = 'NoticesModels1795800000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "notices_maintenance" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "summary" character varying(200) NOT NULL DEFAULT '', "provider_id" integer NOT NULL, "status" character varying(50) NOT NULL DEFAULT '', "original_timezone" character varying(63) NOT NULL DEFAULT '', "internal_ticket" character varying(100) NOT NULL DEFAULT '', "acknowledged" boolean NOT NULL DEFAULT false, "comments" text NOT NULL DEFAULT '', "impact" text NOT NULL DEFAULT '', "start" TIMESTAMP WITH TIME ZONE NOT NULL, "end" TIMESTAMP WITH TIME ZONE NOT NULL, "replaces_id" integer, CONSTRAINT "notices_maintenance_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "notices_maintenance_provider_id_idx" ON "notices_maintenance"  ("provider_id") `);
    await queryRunner.query(`CREATE INDEX "notices_maintenance_replaces_id_idx" ON "notices_maintenance"  ("replaces_id") `);
    await queryRunner.query(`CREATE TABLE "notices_outage" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "summary" character varying(200) NOT NULL DEFAULT '', "provider_id" integer NOT NULL, "status" character varying(50) NOT NULL DEFAULT 'REPORTED', "original_timezone" character varying(63) NOT NULL DEFAULT '', "internal_ticket" character varying(100) NOT NULL DEFAULT '', "acknowledged" boolean NOT NULL DEFAULT false, "comments" text NOT NULL DEFAULT '', "impact" text NOT NULL DEFAULT '', "start" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "end" TIMESTAMP WITH TIME ZONE, "reported_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "estimated_time_to_repair" TIMESTAMP WITH TIME ZONE, CONSTRAINT "notices_outage_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "notices_outage_provider_id_idx" ON "notices_outage"  ("provider_id") `);
    await queryRunner.query(`CREATE TABLE "notices_impact" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "event_content_type_id" integer NOT NULL, "event_object_id" integer NOT NULL, "target_content_type_id" integer NOT NULL, "target_object_id" integer NOT NULL, "impact" character varying(50) NOT NULL DEFAULT 'OUTAGE', CONSTRAINT "notices_impact_event_content_type_id_event_object__3519909b_key" UNIQUE ("event_content_type_id", "event_object_id", "target_content_type_id", "target_object_id"), CONSTRAINT "notices_impact_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "notices_impact_event_content_type_id_idx" ON "notices_impact"  ("event_content_type_id") `);
    await queryRunner.query(`CREATE INDEX "notices_impact_target_content_type_id_idx" ON "notices_impact"  ("target_content_type_id") `);
    await queryRunner.query(`CREATE TABLE "notices_eventnotification" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "event_content_type_id" integer NOT NULL, "event_object_id" integer NOT NULL, "subject" character varying(255) NOT NULL DEFAULT '', "email_from" character varying(254) NOT NULL DEFAULT '', "email_received" TIMESTAMP WITH TIME ZONE NOT NULL, "email_body" text NOT NULL DEFAULT '', "email" text NOT NULL DEFAULT '', CONSTRAINT "notices_eventnotification_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "notices_eventnotification_event_content_type_id_idx" ON "notices_eventnotification"  ("event_content_type_id") `);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" ADD CONSTRAINT "notices_maintenance_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "circuits_provider"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" ADD CONSTRAINT "notices_maintenance_replaces_id_fkey" FOREIGN KEY ("replaces_id") REFERENCES "notices_maintenance"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_outage" ADD CONSTRAINT "notices_outage_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "circuits_provider"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_impact" ADD CONSTRAINT "notices_impact_event_content_type_id_fkey" FOREIGN KEY ("event_content_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_impact" ADD CONSTRAINT "notices_impact_target_content_type_id_fkey" FOREIGN KEY ("target_content_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_eventnotification" ADD CONSTRAINT "notices_eventnotification_event_content_type_id_fkey" FOREIGN KEY ("event_content_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_eventnotification" DROP CONSTRAINT "notices_eventnotification_event_content_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_impact" DROP CONSTRAINT "notices_impact_target_content_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_impact" DROP CONSTRAINT "notices_impact_event_content_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_outage" DROP CONSTRAINT "notices_outage_provider_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" DROP CONSTRAINT "notices_maintenance_replaces_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" DROP CONSTRAINT "notices_maintenance_provider_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."notices_eventnotification_event_content_type_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_eventnotification"`);
    await queryRunner.query(`DROP INDEX "public"."notices_impact_target_content_type_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notices_impact_event_content_type_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_impact"`);
    await queryRunner.query(`DROP INDEX "public"."notices_outage_provider_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_outage"`);
    await queryRunner.query(`DROP INDEX "public"."notices_maintenance_replaces_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notices_maintenance_provider_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_maintenance"`);
  }
}
