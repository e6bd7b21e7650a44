'use strict';
// The floor under two DCIM reads, for bench/dcim.js: a bare node:http server, no framework, one
// process, that per request runs the product's statements for that request (copied from its
// statement log, prepared where the product's are) and builds the product's answer bytes from the rows.
//
//   GET /api/dcim/devices/?limit=L&offset=O   the token with its user; the page with the total; the
//                                             page's nested device types, roles, tenants, sites,
//                                             locations, racks, manufacturers, the device custom
//                                             fields and tags in one statement; the config contexts.
//   GET /api/dcim/interfaces/<id>/trace/      the token; the interface; its stored path; per object
//                                             type on the path its rows, and for ports their devices
//                                             and cables (the types at once, as the product reads them).
//
// It serves what bench/dcim.js loads: nested references it does not read (platform, virtual
// chassis, config template), a device face, airflow or position, and config context data answer
// 500 rather than a guess. The bench checks the answers byte for byte against the product's (same
// Host header) before it measures. Started as a child process with DATABASE_URL, PORT and
// SECRET_KEY (the product's, which peppers API token digests). Not part of the product.
const http = require('node:http');
const { createHmac } = require('node:crypto');
const { Pool } = require('pg');
const { DEVICE_STATUS_CHOICES } = require('../dist/src/platform/dcim/dcim.choices');

const TOKEN = `SELECT t.id AS token_id, t.expires, t.last_used, t.write_enabled, u.id, u.username, u.email, u.role, u.is_active, u.organization_id, u.tokens_invalidated_at,
  u.can_create_ca, u.can_create_cert, u.can_revoke_cert, u.can_export_private_key, u.can_delete_ca, u.created_at, u.updated_at
         FROM users_token t JOIN users u ON u.id = t.user_id
        WHERE t.key_digest = $1`;
const DEVICE_PAGE = `SELECT o.id AS id, to_char(o."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(o."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", o.custom_field_data AS custom_field_data, o."name" AS "name", o."device_type_id" AS "device_type_id", o."role_id" AS "role_id", o."tenant_id" AS "tenant_id", o."platform_id" AS "platform_id", o."serial" AS "serial", o."asset_tag" AS "asset_tag", o."site_id" AS "site_id", o."location_id" AS "location_id", o."rack_id" AS "rack_id", o."position"::text AS "position", o."face" AS "face", o."airflow" AS "airflow", o."status" AS "status", o."virtual_chassis_id" AS "virtual_chassis_id", o."vc_position" AS "vc_position", o."vc_priority" AS "vc_priority", o."config_template_id" AS "config_template_id", o."local_context_data" AS "local_context_data", o."description" AS "description", o."comments" AS "comments", (SELECT COUNT(*)::int AS "count" FROM "dcim_device" "o") AS "__list_total" FROM (SELECT o.* FROM "dcim_device" "o" ORDER BY o."name" ASC, o."id" ASC LIMIT $1 OFFSET $2) "o" ORDER BY o."name" ASC, o."id" ASC`;
const DEVICE_REFERENCES = `SELECT (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."manufacturer_id" AS "manufacturer_id", t."model" AS "model", t."slug" AS "slug", t."part_number" AS "part_number", t."u_height"::text AS "u_height", t."is_full_depth" AS "is_full_depth", t."description" AS "description", t."comments" AS "comments" FROM "dcim_devicetype" t WHERE t.id = ANY((SELECT $1::int[])::int[])) x) AS c0, (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."name" AS "name", t."slug" AS "slug", t."description" AS "description", t."color" AS "color", t."vm_role" AS "vm_role" FROM "dcim_devicerole" t WHERE t.id = ANY((SELECT $2::int[])::int[])) x) AS c1, (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."name" AS "name", t."slug" AS "slug", t."description" AS "description", t."group_id" AS "group_id", t."comments" AS "comments" FROM "tenancy_tenant" t WHERE t.id = ANY((SELECT $3::int[])::int[])) x) AS c2, (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."name" AS "name", t."slug" AS "slug", t."status" AS "status", t."region_id" AS "region_id", t."group_id" AS "group_id", t."tenant_id" AS "tenant_id", t."facility" AS "facility", t."time_zone" AS "time_zone", t."physical_address" AS "physical_address", t."shipping_address" AS "shipping_address", t."latitude"::text AS "latitude", t."longitude"::text AS "longitude", t."description" AS "description", t."comments" AS "comments" FROM "dcim_site" t WHERE t.id = ANY((SELECT $4::int[])::int[])) x) AS c3, (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."name" AS "name", t."slug" AS "slug", t."site_id" AS "site_id", t."parent_id" AS "parent_id", t."status" AS "status", t."tenant_id" AS "tenant_id", t."facility" AS "facility", t."description" AS "description" FROM "dcim_location" t WHERE t.id = ANY((SELECT $5::int[])::int[])) x) AS c4, (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."name" AS "name", t."facility_id" AS "facility_id", t."site_id" AS "site_id", t."location_id" AS "location_id", t."tenant_id" AS "tenant_id", t."status" AS "status", t."role_id" AS "role_id", t."serial" AS "serial", t."asset_tag" AS "asset_tag", t."rack_type_id" AS "rack_type_id", t."form_factor" AS "form_factor", t."width" AS "width", t."u_height" AS "u_height", t."starting_unit" AS "starting_unit", t."desc_units" AS "desc_units", t."outer_width" AS "outer_width", t."outer_height" AS "outer_height", t."outer_depth" AS "outer_depth", t."outer_unit" AS "outer_unit", t."mounting_depth" AS "mounting_depth", t."weight"::text AS "weight", t."max_weight" AS "max_weight", t."weight_unit" AS "weight_unit", t."airflow" AS "airflow", t."description" AS "description", t."comments" AS "comments" FROM "dcim_rack" t WHERE t.id = ANY((SELECT $6::int[])::int[])) x) AS c5, (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."name" AS "name", t."slug" AS "slug", t."description" AS "description" FROM "dcim_manufacturer" t WHERE t.id IN (SELECT n."manufacturer_id" FROM "dcim_devicetype" n WHERE n.id = ANY((SELECT $1::int[])::int[]))) x) AS c6, (SELECT coalesce(json_agg(x.name ORDER BY x.weight, x.name), '[]'::json) FROM (SELECT cf.name, cf.weight FROM extras_customfield cf JOIN extras_customfield_object_types j ON j.customfield_id = cf.id
              WHERE j.objecttype_id = $7) x) AS c7, (SELECT coalesce(json_agg(x ORDER BY x.name), '[]'::json) FROM (SELECT ti.object_id AS tagged_object_id, t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t."name" AS "name", t."slug" AS "slug", t."color" AS "color", t."description" AS "description"
               FROM extras_taggeditem ti JOIN extras_tag t ON t.id = ti.tag_id
              WHERE ti.object_type_id = $8 AND ti.object_id = ANY((SELECT $9::int[])::int[])) x) AS c8`;
const CONFIG_CONTEXTS = `SELECT o.id AS object_id, jsonb_agg(c.data ORDER BY c.weight, c.name, c.id) AS contexts
      FROM dcim_device o
      LEFT JOIN dcim_site s ON s.id = o.site_id
      LEFT JOIN virtualization_cluster cl ON cl.id = NULL::int
      LEFT JOIN tenancy_tenant tn ON tn.id = o.tenant_id
      JOIN extras_configcontext c ON c.is_active
     WHERE o.id = ANY($1)
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_regions j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_regions j WHERE j.configcontext_id = c.id AND j.region_id IN (WITH RECURSIVE up(id, parent_id) AS (SELECT id, parent_id FROM dcim_region WHERE id = s.region_id
      UNION SELECT t.id, t.parent_id FROM dcim_region t JOIN up ON t.id = up.parent_id) SELECT id FROM up)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_site_groups j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_site_groups j WHERE j.configcontext_id = c.id AND j.sitegroup_id IN (WITH RECURSIVE up(id, parent_id) AS (SELECT id, parent_id FROM dcim_sitegroup WHERE id = s.group_id
      UNION SELECT t.id, t.parent_id FROM dcim_sitegroup t JOIN up ON t.id = up.parent_id) SELECT id FROM up)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_sites j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_sites j WHERE j.configcontext_id = c.id AND j.site_id IN (SELECT o.site_id)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_locations j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_locations j WHERE j.configcontext_id = c.id AND j.location_id IN (WITH RECURSIVE up(id, parent_id) AS (SELECT id, parent_id FROM dcim_location WHERE id = o.location_id
      UNION SELECT t.id, t.parent_id FROM dcim_location t JOIN up ON t.id = up.parent_id) SELECT id FROM up)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_device_types j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_device_types j WHERE j.configcontext_id = c.id AND j.devicetype_id IN (SELECT o.device_type_id)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_roles j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_roles j WHERE j.configcontext_id = c.id AND j.devicerole_id IN (SELECT o.role_id)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_platforms j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_platforms j WHERE j.configcontext_id = c.id AND j.platform_id IN (SELECT o.platform_id)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_cluster_types j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_cluster_types j WHERE j.configcontext_id = c.id AND j.clustertype_id IN (SELECT cl.type_id)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_cluster_groups j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_cluster_groups j WHERE j.configcontext_id = c.id AND j.clustergroup_id IN (SELECT cl.group_id)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_clusters j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_clusters j WHERE j.configcontext_id = c.id AND j.cluster_id IN (SELECT cl.id)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_tenant_groups j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_tenant_groups j WHERE j.configcontext_id = c.id AND j.tenantgroup_id IN (WITH RECURSIVE up(id, parent_id) AS (SELECT id, parent_id FROM tenancy_tenantgroup WHERE id = tn.group_id
      UNION SELECT t.id, t.parent_id FROM tenancy_tenantgroup t JOIN up ON t.id = up.parent_id) SELECT id FROM up)))
       AND (NOT EXISTS (SELECT 1 FROM extras_configcontext_tenants j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM extras_configcontext_tenants j WHERE j.configcontext_id = c.id AND j.tenant_id IN (SELECT o.tenant_id)))
       AND (cardinality(c.tags) = 0 OR EXISTS (
             SELECT 1 FROM extras_taggeditem ti JOIN extras_tag tg ON tg.id = ti.tag_id JOIN core_objecttype ot ON ot.id = ti.object_type_id
              WHERE ti.object_id = o.id AND ot.app_label = 'dcim' AND ot.model = 'device'
                AND tg.slug = ANY(c.tags)))
     GROUP BY o.id`;
const INTERFACE = `SELECT "o"."id" AS id, to_char(o."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(o."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", "o"."custom_field_data" AS custom_field_data, o."device_id" AS "device_id", o."module_id" AS "module_id", o."name" AS "name", o."label" AS "label", o."type" AS "type", o."enabled" AS "enabled", o."mtu" AS "mtu", o."mgmt_only" AS "mgmt_only", o."mark_connected" AS "mark_connected", o."description" AS "description", o."primary_mac_address_id" AS "primary_mac_address_id", o."cable_id" AS "cable_id", o."cable_end" AS "cable_end" FROM "dcim_interface" "o" WHERE 1=1 AND o."id" = $1`;
const CABLE_PATH = `SELECT path FROM dcim_cablepath WHERE origin_type = $1 AND origin_id = $2`;
const INTERFACES = `SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."device_id" AS "device_id", t."module_id" AS "module_id", t."name" AS "name", t."label" AS "label", t."type" AS "type", t."enabled" AS "enabled", t."mtu" AS "mtu", t."mgmt_only" AS "mgmt_only", t."mark_connected" AS "mark_connected", t."description" AS "description", t."primary_mac_address_id" AS "primary_mac_address_id", t."cable_id" AS "cable_id", t."cable_end" AS "cable_end" FROM "dcim_interface" t WHERE t.id = ANY($1)`;
const PORT_REFERENCES = `SELECT (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."name" AS "name", t."device_type_id" AS "device_type_id", t."role_id" AS "role_id", t."tenant_id" AS "tenant_id", t."platform_id" AS "platform_id", t."serial" AS "serial", t."asset_tag" AS "asset_tag", t."site_id" AS "site_id", t."location_id" AS "location_id", t."rack_id" AS "rack_id", t."position"::text AS "position", t."face" AS "face", t."airflow" AS "airflow", t."status" AS "status", t."virtual_chassis_id" AS "virtual_chassis_id", t."vc_position" AS "vc_position", t."vc_priority" AS "vc_priority", t."config_template_id" AS "config_template_id", t."local_context_data" AS "local_context_data", t."description" AS "description", t."comments" AS "comments" FROM "dcim_device" t WHERE t.id = ANY((SELECT $1::int[])::int[])) x) AS c0, (SELECT coalesce(json_agg(x), '[]'::json) FROM (SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."type" AS "type", t."status" AS "status", t."tenant_id" AS "tenant_id", t."label" AS "label", t."color" AS "color", t."length"::text AS "length", t."length_unit" AS "length_unit", t."description" AS "description", t."comments" AS "comments" FROM "dcim_cable" t WHERE t.id = ANY((SELECT $2::int[])::int[])) x) AS c1`;
const CABLES = `SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."type" AS "type", t."status" AS "status", t."tenant_id" AS "tenant_id", t."label" AS "label", t."color" AS "color", t."length"::text AS "length", t."length_unit" AS "length_unit", t."description" AS "description", t."comments" AS "comments" FROM "dcim_cable" t WHERE t.id = ANY($1)`;
const FRONT_PORTS = `SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."device_id" AS "device_id", t."module_id" AS "module_id", t."name" AS "name", t."label" AS "label", t."type" AS "type", t."color" AS "color", t."positions" AS "positions", t."mark_connected" AS "mark_connected", t."description" AS "description", t."cable_id" AS "cable_id", t."cable_end" AS "cable_end" FROM "dcim_frontport" t WHERE t.id = ANY($1)`;
const REAR_PORTS = `SELECT t.id AS id, to_char(t."created" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created", to_char(t."last_updated" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "last_updated", t.custom_field_data AS custom_field_data, t."device_id" AS "device_id", t."module_id" AS "module_id", t."name" AS "name", t."label" AS "label", t."type" AS "type", t."color" AS "color", t."positions" AS "positions", t."mark_connected" AS "mark_connected", t."description" AS "description", t."cable_id" AS "cable_id", t."cable_end" AS "cable_end" FROM "dcim_rearport" t WHERE t.id = ANY($1)`;

const STATUS_LABELS = new Map(DEVICE_STATUS_CHOICES);
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
// Prepared where the product prepares (the token, the nested references); the others go unnamed, as the product's do.
const PREPARED = new Set(['token', 'device_references', 'port_references']);
const query = async (name, text, values) =>
  (await pool.query({ name: PREPARED.has(name) ? `bare_${name}` : undefined, text, values })).rows;
let deviceTypeId;

class Unsupported extends Error {}

function send(response, status, body) {
  const bytes = Buffer.from(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  response.end(bytes);
}

/** The API token's user, as the product checks it (the digest, active user, not expired). */
async function authorized(request) {
  const key = /^Token\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!key || !/^[0-9a-f]{40}$/.test(key)) return false;
  const digest = createHmac('sha256', process.env.SECRET_KEY).update(key, 'utf8').digest('hex');
  const [token] = await query('token', TOKEN, [digest]);
  return Boolean(token?.is_active && !(token.expires && token.expires.getTime() <= Date.now()));
}

const distinct = (values) => [...new Set(values.filter((value) => value !== null))];
const byId = (rows) => new Map(rows.map((row) => [row.id, row]));
/** A column the bench leaves empty (null, or a blank choice the product shows as null). */
const none = (row, column) => {
  if (row[column] !== null && row[column] !== '') throw new Unsupported(column);
  return null;
};

async function devices(request, response, base, params) {
  const limit = Number(params.get('limit') ?? 50);
  const offset = Number(params.get('offset') ?? 0);
  const rows = await query('device_page', DEVICE_PAGE, [limit, offset]);
  const ids = rows.map((row) => row.id);
  const [references] = await query('device_references', DEVICE_REFERENCES, [
    distinct(rows.map((row) => row.device_type_id)),
    distinct(rows.map((row) => row.role_id)),
    distinct(rows.map((row) => row.tenant_id)),
    distinct(rows.map((row) => row.site_id)),
    distinct(rows.map((row) => row.location_id)),
    distinct(rows.map((row) => row.rack_id)),
    deviceTypeId,
    deviceTypeId,
    ids,
  ]);
  const contexts = await query('config_contexts', CONFIG_CONTEXTS, [ids]);
  if (contexts.length > 0) throw new Unsupported('config_context');
  const [types, roles, tenants, sites, locations, racks, manufacturers] = [0, 1, 2, 3, 4, 5, 6].map((c) => byId(references[`c${c}`]));
  const customFields = references.c7;
  const tags = references.c8;
  const named = (path, row) =>
    row
      ? {
          id: row.id,
          url: `${base}/api/${path}/${row.id}/`,
          display: row.name,
          name: row.name,
          slug: row.slug,
          description: row.description,
        }
      : null;
  const results = rows.map((row) => {
    const type = types.get(row.device_type_id);
    const rack = racks.get(row.rack_id);
    if (row.local_context_data !== null) throw new Unsupported('local_context_data');
    return {
      id: row.id,
      url: `${base}/api/dcim/devices/${row.id}/`,
      display: row.name,
      name: row.name,
      device_type: {
        id: type.id,
        url: `${base}/api/dcim/device-types/${type.id}/`,
        display: type.model,
        manufacturer: named('dcim/manufacturers', manufacturers.get(type.manufacturer_id)),
        model: type.model,
        slug: type.slug,
        description: type.description,
      },
      role: named('dcim/device-roles', roles.get(row.role_id)),
      tenant: named('tenancy/tenants', tenants.get(row.tenant_id) ?? null),
      platform: none(row, 'platform_id'),
      serial: row.serial,
      asset_tag: row.asset_tag,
      site: named('dcim/sites', sites.get(row.site_id)),
      location: named('dcim/locations', locations.get(row.location_id) ?? null),
      rack: rack
        ? { id: rack.id, url: `${base}/api/dcim/racks/${rack.id}/`, display: rack.name, name: rack.name, description: rack.description }
        : null,
      position: none(row, 'position'),
      face: none(row, 'face'),
      airflow: none(row, 'airflow'),
      status: { value: row.status, label: STATUS_LABELS.get(row.status) },
      virtual_chassis: none(row, 'virtual_chassis_id'),
      vc_position: row.vc_position,
      vc_priority: row.vc_priority,
      config_template: none(row, 'config_template_id'),
      local_context_data: null,
      description: row.description,
      comments: row.comments,
      tags: tags
        .filter((tag) => tag.tagged_object_id === row.id)
        .map(({ id, name, slug, color, description }) => ({
          id,
          url: `${base}/api/extras/tags/${id}/`,
          display: name,
          name,
          slug,
          color,
          description,
        })),
      custom_fields: Object.fromEntries(customFields.map((name) => [name, row.custom_field_data?.[name] ?? null])),
      created: row.created,
      last_updated: row.last_updated,
      config_context: {},
    };
  });
  const count = rows[0]?.__list_total ?? 0;
  const page = (at) => `${base}/api/dcim/devices/?limit=${limit}${at > 0 ? `&offset=${at}` : ''}`;
  send(
    response,
    200,
    JSON.stringify({
      count,
      next: offset + limit < count ? page(offset + limit) : null,
      previous: offset > 0 ? page(Math.max(0, offset - limit)) : null,
      results,
    }),
  );
}

const PORTS = {
  'dcim.interface': { statement: INTERFACES, path: 'interfaces' },
  'dcim.frontport': { statement: FRONT_PORTS, path: 'front-ports' },
  'dcim.rearport': { statement: REAR_PORTS, path: 'rear-ports' },
};
const CABLE = 'dcim.cable';

async function trace(request, response, base, id) {
  const [origin] = await query('interface', INTERFACE, [id]);
  if (!origin) return send(response, 404, '{"detail":"Not found."}');
  const [stored] = await query('cable_path', CABLE_PATH, ['dcim.interface', id]);
  const levels = stored?.path ?? [];
  const byType = new Map();
  for (const [type, nodeId] of levels.flat()) {
    if (!byType.has(type)) byType.set(type, new Set());
    byType.get(type).add(nodeId);
  }
  const cableBrief = (cable) =>
    cable
      ? {
          id: cable.id,
          url: `${base}/api/dcim/cables/${cable.id}/`,
          display: cable.label || `#${cable.id}`,
          label: cable.label,
          description: cable.description,
        }
      : null;
  const shown = new Map();
  // Each type's rows and references at once with the others', as the product reads them.
  const represent = async (type, ids) => {
    if (type === CABLE) {
      for (const cable of await query('cables', CABLES, [[...ids]])) shown.set(`${type}:${cable.id}`, cableBrief(cable));
      return;
    }
    const port = PORTS[type];
    if (!port) throw new Unsupported(type);
    const rows = await query(port.path, port.statement, [[...ids]]);
    const [{ c0, c1 }] = await query('port_references', PORT_REFERENCES, [
      distinct(rows.map((row) => row.device_id)),
      distinct(rows.map((row) => row.cable_id)),
    ]);
    const devicesById = byId(c0);
    const cables = byId(c1);
    for (const row of rows) {
      const device = devicesById.get(row.device_id);
      shown.set(`${type}:${row.id}`, {
        id: row.id,
        url: `${base}/api/dcim/${port.path}/${row.id}/`,
        display: row.name,
        device: {
          id: device.id,
          url: `${base}/api/dcim/devices/${device.id}/`,
          display: device.name,
          name: device.name,
          description: device.description,
        },
        name: row.name,
        cable: cableBrief(cables.get(row.cable_id)),
        description: row.description,
      });
    }
  };
  await Promise.all([...byType].map(([type, ids]) => represent(type, ids)));
  // NetBox's trace: [near ends, cable, far ends] per cable; an end point's path ending on a port
  // without a cable ends with [[that port], [], []].
  const objects = (nodes) => (nodes ?? []).map(([type, nodeId]) => shown.get(`${type}:${nodeId}`) ?? null);
  const segments = [];
  let lastFar = 0;
  levels.forEach((nodes, index) => {
    if (nodes[0]?.[0] !== CABLE || index === 0) return;
    segments.push([objects(levels[index - 1]), objects(nodes)[0] ?? null, objects(levels[index + 1])]);
    lastFar = index + 1;
  });
  if (segments.length > 0 && levels.length - 1 > lastFar) segments.push([objects(levels.at(-1)), [], []]);
  send(response, 200, JSON.stringify(segments));
}

async function answer(request, response) {
  if (!(await authorized(request))) return send(response, 403, '{"detail":"Invalid token"}');
  const url = new URL(request.url, 'http://bare');
  const base = `http://${request.headers.host}`;
  if (url.pathname === '/api/dcim/devices/') return devices(request, response, base, url.searchParams);
  const interfaceId = /^\/api\/dcim\/interfaces\/(\d+)\/trace\/$/.exec(url.pathname)?.[1];
  if (interfaceId) return trace(request, response, base, Number(interfaceId));
  send(response, 404, '{"detail":"Not found."}');
}

pool.query("SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'device'").then(({ rows }) => {
  deviceTypeId = rows[0].id;
  http
    .createServer((request, response) => {
      answer(request, response).catch((error) => {
        if (!(error instanceof Unsupported)) console.error(error);
        send(
          response,
          500,
          JSON.stringify({ detail: error instanceof Unsupported ? `not served by the bare server: ${error.message}` : 'error' }),
        );
      });
    })
    .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
});
