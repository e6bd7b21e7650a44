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
    await queryRunner.query(`CREATE TABLE "notices_notificationtemplate" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "slug" character varying(100) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', "event_type" character varying(50) NOT NULL DEFAULT 'both', "granularity" character varying(50) NOT NULL DEFAULT 'per_tenant', "subject_template" text NOT NULL DEFAULT '', "body_template" text NOT NULL DEFAULT '', "body_format" character varying(50) NOT NULL DEFAULT 'markdown', "css_template" text NOT NULL DEFAULT '', "headers_template" jsonb, "include_ical" boolean NOT NULL DEFAULT false, "ical_template" text NOT NULL DEFAULT '', "contact_priorities" text array NOT NULL DEFAULT '{}', "is_base_template" boolean NOT NULL DEFAULT false, "extends_id" integer, "weight" integer NOT NULL DEFAULT '1000', CONSTRAINT "notices_notificationtemplate_slug_key" UNIQUE ("slug"), CONSTRAINT "notices_notificationtemplate_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "notices_notificationtemplate_extends_id_idx" ON "notices_notificationtemplate"  ("extends_id") `);
    await queryRunner.query(`CREATE TABLE "notices_notificationtemplate_contact_roles" ("notificationtemplate_id" integer NOT NULL, "contactrole_id" integer NOT NULL, CONSTRAINT "notices_notificationtemplate_contact_roles_pkey" PRIMARY KEY ("notificationtemplate_id", "contactrole_id"))`);
    await queryRunner.query(`CREATE INDEX "notices_notificationtemplate_contact_roles_contactrole_id_idx" ON "notices_notificationtemplate_contact_roles"  ("contactrole_id") `);
    await queryRunner.query(`CREATE TABLE "notices_templatescope" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "template_id" integer NOT NULL, "content_type_id" integer NOT NULL, "object_id" integer, "event_type" character varying(50) NOT NULL DEFAULT '', "event_status" character varying(30) NOT NULL DEFAULT '', "weight" integer NOT NULL DEFAULT '1000', CONSTRAINT "notices_templatescope_template_id_content_type_id__60a30b46_key" UNIQUE ("template_id", "content_type_id", "object_id", "event_type", "event_status"), CONSTRAINT "notices_templatescope_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "notices_templatescope_template_id_idx" ON "notices_templatescope"  ("template_id") `);
    await queryRunner.query(`CREATE INDEX "notices_templatescope_content_type_id_idx" ON "notices_templatescope"  ("content_type_id") `);
    await queryRunner.query(`CREATE TABLE "notices_preparednotification" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "template_id" integer NOT NULL, "event_content_type_id" integer, "event_id" integer, "status" character varying(50) NOT NULL DEFAULT 'draft', "recipients" jsonb, "subject" character varying(255) NOT NULL DEFAULT '', "body_text" text NOT NULL DEFAULT '', "body_html" text NOT NULL DEFAULT '', "headers" jsonb, "css" text NOT NULL DEFAULT '', "ical_content" text NOT NULL DEFAULT '', "approved_by_id" integer, "approved_at" TIMESTAMP WITH TIME ZONE, "sent_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, "message" text NOT NULL DEFAULT '', "timestamp" TIMESTAMP WITH TIME ZONE, CONSTRAINT "notices_preparednotification_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "notices_preparednotification_template_id_idx" ON "notices_preparednotification"  ("template_id") `);
    await queryRunner.query(`CREATE INDEX "notices_preparednotification_event_content_type_id_idx" ON "notices_preparednotification"  ("event_content_type_id") `);
    await queryRunner.query(`CREATE INDEX "notices_preparednotification_approved_by_id_idx" ON "notices_preparednotification"  ("approved_by_id") `);
    await queryRunner.query(`CREATE TABLE "notices_preparednotification_contacts" ("preparednotification_id" integer NOT NULL, "contact_id" integer NOT NULL, CONSTRAINT "notices_preparednotification_contacts_pkey" PRIMARY KEY ("preparednotification_id", "contact_id"))`);
    await queryRunner.query(`CREATE INDEX "notices_preparednotification_contacts_contact_id_idx" ON "notices_preparednotification_contacts"  ("contact_id") `);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" ADD CONSTRAINT "notices_maintenance_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "circuits_provider"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" ADD CONSTRAINT "notices_maintenance_replaces_id_fkey" FOREIGN KEY ("replaces_id") REFERENCES "notices_maintenance"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_outage" ADD CONSTRAINT "notices_outage_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "circuits_provider"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_impact" ADD CONSTRAINT "notices_impact_event_content_type_id_fkey" FOREIGN KEY ("event_content_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_impact" ADD CONSTRAINT "notices_impact_target_content_type_id_fkey" FOREIGN KEY ("target_content_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_eventnotification" ADD CONSTRAINT "notices_eventnotification_event_content_type_id_fkey" FOREIGN KEY ("event_content_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_notificationtemplate" ADD CONSTRAINT "notices_notificationtemplate_extends_id_fkey" FOREIGN KEY ("extends_id") REFERENCES "notices_notificationtemplate"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_notificationtemplate_contact_roles" ADD CONSTRAINT "notices_notificationtemplate_contact_roles_notifi_1551e04d_fkey" FOREIGN KEY ("notificationtemplate_id") REFERENCES "notices_notificationtemplate"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_notificationtemplate_contact_roles" ADD CONSTRAINT "notices_notificationtemplate_contact_roles_contactrole_id_fkey" FOREIGN KEY ("contactrole_id") REFERENCES "tenancy_contactrole"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_templatescope" ADD CONSTRAINT "notices_templatescope_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "notices_notificationtemplate"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_templatescope" ADD CONSTRAINT "notices_templatescope_content_type_id_fkey" FOREIGN KEY ("content_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD CONSTRAINT "notices_preparednotification_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "notices_notificationtemplate"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD CONSTRAINT "notices_preparednotification_event_content_type_id_fkey" FOREIGN KEY ("event_content_type_id") REFERENCES "core_objecttype"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" ADD CONSTRAINT "notices_preparednotification_approved_by_id_fkey" FOREIGN KEY ("approved_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification_contacts" ADD CONSTRAINT "notices_preparednotification_contacts_preparednot_1c0a64a0_fkey" FOREIGN KEY ("preparednotification_id") REFERENCES "notices_preparednotification"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification_contacts" ADD CONSTRAINT "notices_preparednotification_contacts_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "tenancy_contact"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notices_preparednotification_contacts" DROP CONSTRAINT "notices_preparednotification_contacts_contact_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification_contacts" DROP CONSTRAINT "notices_preparednotification_contacts_preparednot_1c0a64a0_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP CONSTRAINT "notices_preparednotification_approved_by_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP CONSTRAINT "notices_preparednotification_event_content_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_preparednotification" DROP CONSTRAINT "notices_preparednotification_template_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_templatescope" DROP CONSTRAINT "notices_templatescope_content_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_templatescope" DROP CONSTRAINT "notices_templatescope_template_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_notificationtemplate_contact_roles" DROP CONSTRAINT "notices_notificationtemplate_contact_roles_contactrole_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_notificationtemplate_contact_roles" DROP CONSTRAINT "notices_notificationtemplate_contact_roles_notifi_1551e04d_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_notificationtemplate" DROP CONSTRAINT "notices_notificationtemplate_extends_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_eventnotification" DROP CONSTRAINT "notices_eventnotification_event_content_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_impact" DROP CONSTRAINT "notices_impact_target_content_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_impact" DROP CONSTRAINT "notices_impact_event_content_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_outage" DROP CONSTRAINT "notices_outage_provider_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" DROP CONSTRAINT "notices_maintenance_replaces_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notices_maintenance" DROP CONSTRAINT "notices_maintenance_provider_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."notices_preparednotification_contacts_contact_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_preparednotification_contacts"`);
    await queryRunner.query(`DROP INDEX "public"."notices_preparednotification_approved_by_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notices_preparednotification_event_content_type_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notices_preparednotification_template_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_preparednotification"`);
    await queryRunner.query(`DROP INDEX "public"."notices_templatescope_content_type_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notices_templatescope_template_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_templatescope"`);
    await queryRunner.query(`DROP INDEX "public"."notices_notificationtemplate_contact_roles_contactrole_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_notificationtemplate_contact_roles"`);
    await queryRunner.query(`DROP INDEX "public"."notices_notificationtemplate_extends_id_idx"`);
    await queryRunner.query(`DROP TABLE "notices_notificationtemplate"`);
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
