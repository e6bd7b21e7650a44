'use strict';
// The floor under an authenticated request, for bench/request-floor.js: a bare node:http server, no
// framework, one process, that per request does what the product cannot do without and nothing more,
// and answers with the bytes the product sends. Not part of the product.
//
//   GET /users/me        Authorization: Bearer <JWT>: the signature checked with the product's own
//                        HMAC JWT code, then the product's one statement (the user row and both session
//                        checks, prepared), the user's JSON built from the row.
//   GET /tenants/<id>/   Authorization: Token <key>: the key's HMAC digest, then the product's three
//                        statements for one tenant (the token with its user; the row; its custom
//                        fields and tags), the tenant's JSON built from them.
//
// Started as a child process with DATABASE_URL, PORT and SECRET_KEY (the product's; it also peppers
// API token digests). The statements are the product's, copied from its statement log; the bench
// checks that both answers are byte-identical to the product's before it measures.
const http = require('node:http');
const { createHmac, createSecretKey } = require('node:crypto');
const { Pool } = require('pg');
const { HmacJwt } = require('../dist/src/modules/auth/hmac-jwt');

const USER_COLUMNS = `u.id, u.username, u.email, u.role, u.is_active, u.organization_id, u.tokens_invalidated_at,
  u.can_create_ca, u.can_create_cert, u.can_revoke_cert, u.can_export_private_key, u.can_delete_ca, u.created_at, u.updated_at`;
const USER = `
  SELECT ${USER_COLUMNS},
         EXISTS (SELECT 1 FROM auth_sessions s WHERE s.id = $2 AND s.user_id = u.id AND s.revoked_at IS NULL) AS session_live,
         EXISTS (SELECT 1 FROM token_blocklist b WHERE b.jti = $3) AS blocklisted
    FROM users u
   WHERE u.id = $1`;
const TOKEN = `SELECT t.id AS token_id, t.expires, t.last_used, t.write_enabled, ${USER_COLUMNS}
         FROM users_token t JOIN users u ON u.id = t.user_id
        WHERE t.key_digest = $1`;
const UTC = (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const TENANT = `SELECT "o"."id" AS id, ${UTC('o."created"')} AS "created", ${UTC('o."last_updated"')} AS "last_updated", "o"."custom_field_data" AS custom_field_data, o."name" AS "name", o."slug" AS "slug", o."description" AS "description", o."group_id" AS "group_id", o."comments" AS "comments" FROM "tenancy_tenant" "o" WHERE 1=1 AND o."id" = $1`;
const REFERENCES = `SELECT (SELECT coalesce(json_agg(x.name ORDER BY x.weight, x.name), '[]'::json) FROM (SELECT cf.name, cf.weight FROM extras_customfield cf JOIN extras_customfield_object_types j ON j.customfield_id = cf.id
	              WHERE j.objecttype_id = $1) x) AS c0, (SELECT coalesce(json_agg(x ORDER BY x.name), '[]'::json) FROM (SELECT ti.object_id AS tagged_object_id, t.id AS id, ${UTC('t."created"')} AS "created", ${UTC('t."last_updated"')} AS "last_updated", t."name" AS "name", t."slug" AS "slug", t."color" AS "color", t."description" AS "description"
	               FROM extras_taggeditem ti JOIN extras_tag t ON t.id = ti.tag_id
	              WHERE ti.object_type_id = $2 AND ti.object_id = ANY((SELECT $3::int[])::int[])) x) AS c1`;

const secretKey = process.env.SECRET_KEY;
const jwt = new HmacJwt(createSecretKey(Buffer.from(secretKey)), 'HS256');
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
let tenantTypeId;

function send(response, status, body) {
  const bytes = Buffer.from(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  response.end(bytes);
}

async function usersMe(request, response) {
  const claims = jwt.verify(/^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? '', Math.floor(Date.now() / 1000));
  if (!claims) return send(response, 401, '{"detail":"Could not validate credentials"}');
  const [row] = (await pool.query({ name: 'bare_user', text: USER, values: [claims.id, claims.sid, claims.jti] })).rows;
  if (!row?.is_active || !row.session_live || row.blocklisted) return send(response, 401, '{"detail":"Could not validate credentials"}');
  if (row.tokens_invalidated_at && claims.iat < Math.floor(row.tokens_invalidated_at.getTime() / 1000))
    return send(response, 401, '{"detail":"Could not validate credentials"}');
  send(
    response,
    200,
    JSON.stringify({
      id: row.id,
      username: row.username,
      email: row.email,
      role: row.role,
      is_active: row.is_active,
      organization_id: row.organization_id,
      can_create_ca: row.can_create_ca,
      can_create_cert: row.can_create_cert,
      can_revoke_cert: row.can_revoke_cert,
      can_export_private_key: row.can_export_private_key,
      can_delete_ca: row.can_delete_ca,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }),
  );
}

async function tenant(request, response, id) {
  const key = /^Token\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!key || !/^[0-9a-f]{40}$/.test(key)) return send(response, 403, '{"detail":"Invalid token"}');
  const digest = createHmac('sha256', secretKey).update(key, 'utf8').digest('hex');
  const [token] = (await pool.query({ name: 'bare_token', text: TOKEN, values: [digest] })).rows;
  if (!token?.is_active || (token.expires && token.expires.getTime() <= Date.now()))
    return send(response, 403, '{"detail":"Invalid token"}');
  const [row] = (await pool.query({ text: TENANT, values: [id] })).rows;
  if (!row) return send(response, 404, '{"detail":"Not found."}');
  const [{ c0: customFields, c1: tags }] = (
    await pool.query({ name: 'bare_references', text: REFERENCES, values: [tenantTypeId, tenantTypeId, [row.id]] })
  ).rows;
  const base = `http://${request.headers.host}`;
  const customFieldData = row.custom_field_data ?? {};
  send(
    response,
    200,
    JSON.stringify({
      id: row.id,
      url: `${base}/api/tenancy/tenants/${row.id}/`,
      display: row.name,
      name: row.name,
      slug: row.slug,
      description: row.description,
      group: null,
      comments: row.comments,
      tags: tags.map(({ id, name, slug, color, description }) => ({
        id,
        url: `${base}/api/extras/tags/${id}/`,
        display: name,
        name,
        slug,
        color,
        description,
      })),
      custom_fields: Object.fromEntries(customFields.map((name) => [name, customFieldData[name] ?? null])),
      created: row.created,
      last_updated: row.last_updated,
    }),
  );
}

async function answer(request, response) {
  const path = request.url.split('?')[0];
  if (path === '/users/me') return usersMe(request, response);
  const tenantId = /^\/tenants\/(\d+)\/$/.exec(path)?.[1];
  if (tenantId) return tenant(request, response, Number(tenantId));
  send(response, 404, '{"detail":"Not found."}');
}

pool.query("SELECT id FROM core_objecttype WHERE app_label = 'tenancy' AND model = 'tenant'").then(({ rows }) => {
  tenantTypeId = rows[0].id;
  http
    .createServer((request, response) => {
      answer(request, response).catch((error) => {
        console.error(error);
        response.writeHead(500).end();
      });
    })
    .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
});
