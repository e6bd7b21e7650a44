#!/usr/bin/env node
// Serves docs/map/pathways.html with Leaflet (from node_modules) and forwards /api/ to the platform
// server, so the page loads the layers from the same origin: no CORS setting needed.
//
//   PATHWAYS_API=http://127.0.0.1:8000 MAP_PORT=8090 npm run map:pathways   # then open http://127.0.0.1:8090/
//
// No base map unless MAP_TILE_URL names a tile server ({z}/{x}/{y} template, e.g.
// https://tile.openstreetmap.org/{z}/{x}/{y}.png), with MAP_TILE_ATTRIBUTION its credit line.
'use strict';
const http = require('node:http');
const { readFile } = require('node:fs/promises');
const { join, normalize } = require('node:path');

const API = new URL(process.env.PATHWAYS_API ?? 'http://127.0.0.1:8000');
const PORT = Number(process.env.MAP_PORT ?? 8090);
const LEAFLET = join(__dirname, '..', '..', 'node_modules', 'leaflet', 'dist');
const MAP_CONFIG = JSON.stringify({
  tileUrl: process.env.MAP_TILE_URL || null,
  tileAttribution: process.env.MAP_TILE_ATTRIBUTION || '',
});
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png' };

const server = http.createServer(async (request, response) => {
  if (request.url.startsWith('/api/')) {
    const upstream = http.request(
      { host: API.hostname, port: API.port, path: request.url, method: request.method, headers: { ...request.headers, host: API.host } },
      (answer) => {
        response.writeHead(answer.statusCode, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => response.writeHead(502).end(String(error)));
    request.pipe(upstream);
    return;
  }
  if (request.url === '/map-config.json') return response.writeHead(200, { 'content-type': 'application/json' }).end(MAP_CONFIG);
  const path =
    request.url === '/'
      ? join(__dirname, 'pathways.html')
      : request.url.startsWith('/leaflet/')
        ? join(LEAFLET, normalize(request.url.slice('/leaflet/'.length).split('?')[0]).replace(/^(\.\.[/\\])+/, ''))
        : null;
  if (!path) return response.writeHead(404).end();
  try {
    const body = await readFile(path);
    response.writeHead(200, { 'content-type': TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(body);
  } catch {
    response.writeHead(404).end();
  }
});
server.listen(PORT, '127.0.0.1', () => console.log(`pathways map on http://127.0.0.1:${PORT}/ (API ${API.origin})`));
