import { MigrationInterface, QueryRunner } from 'typeorm';

export class PeeringModels1795800000100 implements MigrationInterface {
  name = 'PeeringModels1795800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "peering_relationship" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "slug" character varying(100) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', "color" character varying(6) NOT NULL DEFAULT '9e9e9e', "comments" text NOT NULL DEFAULT '', CONSTRAINT "peering_relationship_name_key" UNIQUE ("name"), CONSTRAINT "peering_relationship_slug_key" UNIQUE ("slug"), CONSTRAINT "peering_relationship_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "peering_peerasn" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "asn_id" integer NOT NULL, "affiliated" boolean NOT NULL DEFAULT false, "irr_as_set" character varying(100) NOT NULL DEFAULT '', "ipv4_max_prefixes" integer, "ipv6_max_prefixes" integer, "peeringdb_id" integer, "peeringdb_last_sync" TIMESTAMP WITH TIME ZONE, "comments" text NOT NULL DEFAULT '', CONSTRAINT "peering_peerasn_asn_id_key" UNIQUE ("asn_id"), CONSTRAINT "peering_peerasn_peeringdb_id_key" UNIQUE ("peeringdb_id"), CONSTRAINT "peering_peerasn_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "peering_peerasn_asn_id_idx" ON "peering_peerasn"  ("asn_id") `);
    await queryRunner.query(`CREATE TABLE "peering_peeringsession" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "bgp_peer_id" integer NOT NULL, "relationship_id" integer, "peering_network_id" integer, "service_reference" character varying(100) NOT NULL DEFAULT '', CONSTRAINT "peering_peeringsession_bgp_peer_id_key" UNIQUE ("bgp_peer_id"), CONSTRAINT "peering_peeringsession_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "peering_peeringsession_bgp_peer_id_idx" ON "peering_peeringsession"  ("bgp_peer_id") `);
    await queryRunner.query(`CREATE INDEX "peering_peeringsession_relationship_id_idx" ON "peering_peeringsession"  ("relationship_id") `);
    await queryRunner.query(`CREATE INDEX "peering_peeringsession_peering_network_id_idx" ON "peering_peeringsession"  ("peering_network_id") `);
    await queryRunner.query(`CREATE TABLE "peering_peeringfabrictype" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "slug" character varying(100) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', "color" character varying(6) NOT NULL DEFAULT '9e9e9e', CONSTRAINT "peering_peeringfabrictype_name_key" UNIQUE ("name"), CONSTRAINT "peering_peeringfabrictype_slug_key" UNIQUE ("slug"), CONSTRAINT "peering_peeringfabrictype_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "peering_peeringfabric" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "slug" character varying(100) NOT NULL DEFAULT '', "description" character varying(200) NOT NULL DEFAULT '', "type_id" integer, "status" character varying(50) NOT NULL DEFAULT 'active', "site_id" integer, "tenant_id" integer, "peer_group_id" integer, "comments" text NOT NULL DEFAULT '', CONSTRAINT "peering_peeringfabric_site_id_name_key" UNIQUE ("site_id", "name"), CONSTRAINT "peering_peeringfabric_site_id_slug_key" UNIQUE ("site_id", "slug"), CONSTRAINT "peering_peeringfabric_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "peering_peeringfabric_type_id_idx" ON "peering_peeringfabric"  ("type_id") `);
    await queryRunner.query(`CREATE INDEX "peering_peeringfabric_site_id_idx" ON "peering_peeringfabric"  ("site_id") `);
    await queryRunner.query(`CREATE INDEX "peering_peeringfabric_tenant_id_idx" ON "peering_peeringfabric"  ("tenant_id") `);
    await queryRunner.query(`CREATE INDEX "peering_peeringfabric_peer_group_id_idx" ON "peering_peeringfabric"  ("peer_group_id") `);
    await queryRunner.query(`CREATE TABLE "peering_peeringnetwork" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "fabric_id" integer NOT NULL, "name" character varying(100) NOT NULL DEFAULT '', "prefix_id" integer NOT NULL, "vlan_id" integer, "status" character varying(50) NOT NULL DEFAULT 'active', "description" character varying(200) NOT NULL DEFAULT '', "comments" text NOT NULL DEFAULT '', CONSTRAINT "peering_peeringnetwork_fabric_id_name_key" UNIQUE ("fabric_id", "name"), CONSTRAINT "peering_peeringnetwork_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "peering_peeringnetwork_fabric_id_idx" ON "peering_peeringnetwork"  ("fabric_id") `);
    await queryRunner.query(`CREATE INDEX "peering_peeringnetwork_prefix_id_idx" ON "peering_peeringnetwork"  ("prefix_id") `);
    await queryRunner.query(`CREATE INDEX "peering_peeringnetwork_vlan_id_idx" ON "peering_peeringnetwork"  ("vlan_id") `);
    await queryRunner.query(`CREATE TABLE "peering_peeringconnection" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "peering_network_id" integer NOT NULL, "interface_id" integer NOT NULL, "status" character varying(50) NOT NULL DEFAULT 'active', "description" character varying(200) NOT NULL DEFAULT '', CONSTRAINT "peering_peeringconnection_peering_network_id_interface_id_key" UNIQUE ("peering_network_id", "interface_id"), CONSTRAINT "peering_peeringconnection_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "peering_peeringconnection_peering_network_id_idx" ON "peering_peeringconnection"  ("peering_network_id") `);
    await queryRunner.query(`CREATE INDEX "peering_peeringconnection_interface_id_idx" ON "peering_peeringconnection"  ("interface_id") `);
    await queryRunner.query(`CREATE TABLE "peering_irrsource" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "name" character varying(100) NOT NULL DEFAULT '', "slug" character varying(100) NOT NULL DEFAULT '', "url" character varying(200) NOT NULL DEFAULT '', "sources" character varying(100) NOT NULL DEFAULT '', "cache_ttl" integer, "sync_interval" integer NOT NULL DEFAULT '1440', "enabled" boolean NOT NULL DEFAULT true, "description" character varying(200) NOT NULL DEFAULT '', "comments" text NOT NULL DEFAULT '', CONSTRAINT "peering_irrsource_name_key" UNIQUE ("name"), CONSTRAINT "peering_irrsource_slug_key" UNIQUE ("slug"), CONSTRAINT "peering_irrsource_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "peering_irrprefixlistconfig" ("id" SERIAL NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "custom_field_data" jsonb NOT NULL DEFAULT '{}', "prefix_list_id" integer NOT NULL, "irr_source_id" integer, "source_as_set" character varying(100) NOT NULL DEFAULT '', "sync_interval" integer NOT NULL DEFAULT '1440', "last_synced" TIMESTAMP WITH TIME ZONE, CONSTRAINT "peering_irrprefixlistconfig_prefix_list_id_key" UNIQUE ("prefix_list_id"), CONSTRAINT "peering_irrprefixlistconfig_pkey" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "peering_irrprefixlistconfig_prefix_list_id_idx" ON "peering_irrprefixlistconfig"  ("prefix_list_id") `);
    await queryRunner.query(`CREATE INDEX "peering_irrprefixlistconfig_irr_source_id_idx" ON "peering_irrprefixlistconfig"  ("irr_source_id") `);
    await queryRunner.query(`ALTER TABLE "peering_peerasn" ADD CONSTRAINT "peering_peerasn_asn_id_fkey" FOREIGN KEY ("asn_id") REFERENCES "ipam_asn"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringsession" ADD CONSTRAINT "peering_peeringsession_bgp_peer_id_fkey" FOREIGN KEY ("bgp_peer_id") REFERENCES "routing_bgppeer"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringsession" ADD CONSTRAINT "peering_peeringsession_relationship_id_fkey" FOREIGN KEY ("relationship_id") REFERENCES "peering_relationship"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringsession" ADD CONSTRAINT "peering_peeringsession_peering_network_id_fkey" FOREIGN KEY ("peering_network_id") REFERENCES "peering_peeringnetwork"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringfabric" ADD CONSTRAINT "peering_peeringfabric_type_id_fkey" FOREIGN KEY ("type_id") REFERENCES "peering_peeringfabrictype"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringfabric" ADD CONSTRAINT "peering_peeringfabric_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "dcim_site"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringfabric" ADD CONSTRAINT "peering_peeringfabric_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenancy_tenant"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringfabric" ADD CONSTRAINT "peering_peeringfabric_peer_group_id_fkey" FOREIGN KEY ("peer_group_id") REFERENCES "routing_bgppeertemplate"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringnetwork" ADD CONSTRAINT "peering_peeringnetwork_fabric_id_fkey" FOREIGN KEY ("fabric_id") REFERENCES "peering_peeringfabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringnetwork" ADD CONSTRAINT "peering_peeringnetwork_prefix_id_fkey" FOREIGN KEY ("prefix_id") REFERENCES "ipam_prefix"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringnetwork" ADD CONSTRAINT "peering_peeringnetwork_vlan_id_fkey" FOREIGN KEY ("vlan_id") REFERENCES "ipam_vlan"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringconnection" ADD CONSTRAINT "peering_peeringconnection_peering_network_id_fkey" FOREIGN KEY ("peering_network_id") REFERENCES "peering_peeringnetwork"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_peeringconnection" ADD CONSTRAINT "peering_peeringconnection_interface_id_fkey" FOREIGN KEY ("interface_id") REFERENCES "dcim_interface"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_irrprefixlistconfig" ADD CONSTRAINT "peering_irrprefixlistconfig_prefix_list_id_fkey" FOREIGN KEY ("prefix_list_id") REFERENCES "routing_prefixlist"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "peering_irrprefixlistconfig" ADD CONSTRAINT "peering_irrprefixlistconfig_irr_source_id_fkey" FOREIGN KEY ("irr_source_id") REFERENCES "peering_irrsource"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    // The PeeringDB caches (./peeringdb-cache.ts): no entity, no API; their rows go with their fabric or network.
    await queryRunner.query(`CREATE TABLE "peering_peeringdbfabric" ("id" SERIAL PRIMARY KEY, "fabric_id" integer NOT NULL UNIQUE REFERENCES "peering_peeringfabric" ("id") ON DELETE CASCADE, "ix_id" integer NOT NULL UNIQUE, "name" character varying(255) NOT NULL DEFAULT '', "city" character varying(255) NOT NULL DEFAULT '', "country" character varying(255) NOT NULL DEFAULT '', "website" character varying(255) NOT NULL DEFAULT '', "tech_email" character varying(255) NOT NULL DEFAULT '', "last_sync" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now())`);
    await queryRunner.query(`CREATE TABLE "peering_peeringdbnetwork" ("id" SERIAL PRIMARY KEY, "network_id" integer NOT NULL UNIQUE REFERENCES "peering_peeringnetwork" ("id") ON DELETE CASCADE, "ixlan_id" integer NOT NULL UNIQUE, "name" character varying(255) NOT NULL DEFAULT '', "mtu" integer, "rs_asn" bigint, "dot1q_support" boolean NOT NULL DEFAULT false)`);
    await queryRunner.query(`CREATE TABLE "peering_peeringdbpeer" ("id" SERIAL PRIMARY KEY, "fabric_id" integer NOT NULL REFERENCES "peering_peeringfabric" ("id") ON DELETE CASCADE, "netixlan_id" integer NOT NULL UNIQUE, "asn" bigint NOT NULL, "name" character varying(255) NOT NULL DEFAULT '', "ipv4_addr" inet, "ipv6_addr" inet, "is_rs_peer" boolean NOT NULL DEFAULT false, "speed" integer NOT NULL DEFAULT 0, CONSTRAINT "peering_peeringdbpeer_address_check" CHECK (num_nonnulls("ipv4_addr", "ipv6_addr") >= 1))`);
    await queryRunner.query(`CREATE INDEX "peering_peeringdbpeer_fabric_id_idx" ON "peering_peeringdbpeer" ("fabric_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "peering_peeringdbpeer"`);
    await queryRunner.query(`DROP TABLE "peering_peeringdbnetwork"`);
    await queryRunner.query(`DROP TABLE "peering_peeringdbfabric"`);
    await queryRunner.query(`ALTER TABLE "peering_irrprefixlistconfig" DROP CONSTRAINT "peering_irrprefixlistconfig_irr_source_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_irrprefixlistconfig" DROP CONSTRAINT "peering_irrprefixlistconfig_prefix_list_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringconnection" DROP CONSTRAINT "peering_peeringconnection_interface_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringconnection" DROP CONSTRAINT "peering_peeringconnection_peering_network_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringnetwork" DROP CONSTRAINT "peering_peeringnetwork_vlan_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringnetwork" DROP CONSTRAINT "peering_peeringnetwork_prefix_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringnetwork" DROP CONSTRAINT "peering_peeringnetwork_fabric_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringfabric" DROP CONSTRAINT "peering_peeringfabric_peer_group_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringfabric" DROP CONSTRAINT "peering_peeringfabric_tenant_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringfabric" DROP CONSTRAINT "peering_peeringfabric_site_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringfabric" DROP CONSTRAINT "peering_peeringfabric_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringsession" DROP CONSTRAINT "peering_peeringsession_peering_network_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringsession" DROP CONSTRAINT "peering_peeringsession_relationship_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peeringsession" DROP CONSTRAINT "peering_peeringsession_bgp_peer_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "peering_peerasn" DROP CONSTRAINT "peering_peerasn_asn_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."peering_irrprefixlistconfig_irr_source_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_irrprefixlistconfig_prefix_list_id_idx"`);
    await queryRunner.query(`DROP TABLE "peering_irrprefixlistconfig"`);
    await queryRunner.query(`DROP TABLE "peering_irrsource"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringconnection_interface_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringconnection_peering_network_id_idx"`);
    await queryRunner.query(`DROP TABLE "peering_peeringconnection"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringnetwork_vlan_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringnetwork_prefix_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringnetwork_fabric_id_idx"`);
    await queryRunner.query(`DROP TABLE "peering_peeringnetwork"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringfabric_peer_group_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringfabric_tenant_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringfabric_site_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringfabric_type_id_idx"`);
    await queryRunner.query(`DROP TABLE "peering_peeringfabric"`);
    await queryRunner.query(`DROP TABLE "peering_peeringfabrictype"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringsession_peering_network_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringsession_relationship_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peeringsession_bgp_peer_id_idx"`);
    await queryRunner.query(`DROP TABLE "peering_peeringsession"`);
    await queryRunner.query(`DROP INDEX "public"."peering_peerasn_asn_id_idx"`);
    await queryRunner.query(`DROP TABLE "peering_peerasn"`);
    await queryRunner.query(`DROP TABLE "peering_relationship"`);
  }
}
