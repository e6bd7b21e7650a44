'use strict';
// The floor under the structures layer, for bench/pathways.js: a bare node:http server, no framework,
// that per request runs what the layer cannot do without (the token lookup and the one statement in
// which PostgreSQL writes the kept features' JSON text, built by the layer's own code; both prepared, as the layer's are)
// and answers with the layer's own body and ETag. What the product spends beyond it is the
// framework's; what this spends beyond the SQL read is the layer's work itself. Not part of the product.
//
// Started as a child process with DATABASE_URL, PORT and TOKEN_DIGEST (a users_token key_digest);
// GET /?bbox=W,S,E,N answers the structures in the box, at most 2000 of them; a box crossing the
// antimeridian (two boxes for the layer) or a malformed one is a bare 400.
const http = require('node:http');
const { Pool } = require('pg');
const { GEO_LAYERS, MAX_FEATURES, featureCollectionBody, etagOf, featureSql } = require('../dist/src/plugins/pathways/geo-layers');
const { boxParts, parseBoundingBox } = require('../dist/src/plugins/pathways/geometry');

const source = GEO_LAYERS.find((layer) => layer.name === 'structures').sources[0];
const joins = (source.joins ?? []).map((join) => `LEFT JOIN "${join.table}" ${join.alias} ON ${join.on('o')}`).join(' ');
const FEATURES = `SELECT ${featureSql(source, 'o')} AS feature FROM "${source.definition.table}" o ${joins}
                   WHERE o.bbox && $1::box AND o."${source.geometryColumn}" IS NOT NULL
                   ORDER BY o.name, o.id LIMIT ${MAX_FEATURES + 1}`;
const COUNT = `SELECT count(*)::int AS n FROM "${source.definition.table}" o WHERE o.bbox && $1::box AND o."${source.geometryColumn}" IS NOT NULL`;
const TOKEN = 'SELECT t.id, t.expires, u.is_active FROM users_token t JOIN users u ON u.id = t.user_id WHERE t.key_digest = $1';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });

async function answer(request, response) {
  const [token] = (await pool.query({ name: 'bare_token', text: TOKEN, values: [process.env.TOKEN_DIGEST] })).rows;
  if (!token?.is_active) return response.writeHead(401).end();
  const parsed = parseBoundingBox(new URL(request.url, 'http://bare').searchParams.get('bbox') ?? '');
  const parts = 'problem' in parsed ? [] : boxParts(parsed);
  if (parts.length !== 1) return response.writeHead(400).end();
  const [[west, south, east, north]] = parts;
  const box = `(${east},${north}),(${west},${south})`;
  const rows = (await pool.query({ name: 'bare_features', text: FEATURES, values: [box], rowMode: 'array' })).rows;
  const features = rows.slice(0, MAX_FEATURES).map((row) => row[0]);
  const total = rows.length > MAX_FEATURES ? (await pool.query({ name: 'bare_count', text: COUNT, values: [box] })).rows[0].n : rows.length;
  const body = featureCollectionBody(features, { truncated: total > features.length, total_count: total });
  response.writeHead(200, { 'content-type': 'application/geo+json; charset=utf-8', 'content-length': body.length, etag: etagOf(body) });
  response.end(body);
}

http
  .createServer((request, response) => {
    answer(request, response).catch((error) => {
      console.error(error);
      response.writeHead(500).end();
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
