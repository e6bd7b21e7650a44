import Ajv from 'ajv-draft-04';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, TestApp } from './support/test-app';

const OPENAPI_30_SCHEMA = require.resolve('@seriousme/openapi-schema-validator/schemas/v3.0/schema.json');
const COMMITTED_DOCUMENT = join(__dirname, '..', 'docs', 'openapi.json');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Operation = { operationId?: string; responses: Record<string, unknown> };

function operations(document: { paths: Record<string, Record<string, Operation>> }): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as [string, Operation]),
  );
}

describe('OpenAPI document and docs page', () => {
  let testApp: TestApp;
  let document: { openapi: string; paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    testApp = await startTestApp();
    const response = await fetch(`${testApp.baseUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as typeof document;
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('is a valid OpenAPI 3.0 document', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(JSON.parse(readFileSync(OPENAPI_30_SCHEMA, 'utf8')) as object);
    const valid = validate(document);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.0\./);
  });

  it('gives every operation a unique operationId and documented error responses', () => {
    const all = operations(document);
    expect(all.length).toBeGreaterThan(0);
    const ids = all.map(([, operation]) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [name, operation] of all) {
      const errorStatuses = Object.keys(operation.responses).filter((status) => /^[45]\d\d$/.test(status));
      expect({ name, errorStatuses: errorStatuses.length > 0 }).toEqual({ name, errorStatuses: true });
    }
  });

  it('matches the committed docs/openapi.json (run "npm run openapi:write" after changing the API)', () => {
    const committed = JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as unknown;
    expect(document).toEqual(committed);
  });

  it('serves the docs page and all its assets from the app itself', async () => {
    const page = await fetch(`${testApp.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const response = await fetch(new URL(asset, `${testApp.baseUrl}/docs`));
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
    }
    const init = await (await fetch(`${testApp.baseUrl}/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('"validatorUrl": null');
  });
});

describe('platform OpenAPI document (GET /api/schema/)', () => {
  const COMMITTED_PLATFORM_DOCUMENT = join(__dirname, '..', 'docs', 'platform-openapi.json');
  let testApp: TestApp;
  let document: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

  beforeAll(async () => {
    testApp = await startTestApp();
    const response = await fetch(`${testApp.baseUrl}/api/schema/`);
    expect(response.status).toBe(200);
    document = (await response.json()) as typeof document;
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('is a valid OpenAPI 3.0 document with unique operation ids and documented errors', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(JSON.parse(readFileSync(OPENAPI_30_SCHEMA, 'utf8')) as object);
    validate(document);
    expect(validate.errors ?? []).toEqual([]);
    const all = operations(document);
    const ids = all.map(([, operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [name, operation] of all) {
      expect({ name, has403: '403' in operation.responses }).toEqual({ name, has403: true });
    }
  });

  it('describes every declared resource: list, bulk and detail operations with full, brief and writable schemas', () => {
    expect(Object.keys(document.paths['/api/dcim/sites/']).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
    expect(Object.keys(document.paths['/api/dcim/sites/{id}/']).sort()).toEqual(['delete', 'get', 'patch', 'put']);
    expect(Object.keys(document.paths['/api/core/object-changes/'])).toEqual(['get']);
    expect(document.components.schemas).toHaveProperty('DcimSite');
    expect(document.components.schemas).toHaveProperty('BriefDcimSite');
    expect(document.components.schemas).toHaveProperty('WritableDcimSiteRequest');
    const parameters = (document.paths['/api/dcim/sites/'].get as unknown as { parameters: Array<{ name: string }> }).parameters.map((p) => p.name);
    expect(parameters).toEqual(expect.arrayContaining(['limit', 'offset', 'q', 'tag', 'status', 'status__n', 'name__ic', 'tenant_id', 'created__gte']));
  });

  it('matches the committed docs/platform-openapi.json (run "npm run openapi:write" after changing a declaration)', () => {
    expect(document).toEqual(JSON.parse(readFileSync(COMMITTED_PLATFORM_DOCUMENT, 'utf8')) as unknown);
  });
});

describe('OpenAPI location', () => {
  it('follows API_V1_STR', async () => {
    const testApp = await startTestApp({ env: { API_V1_STR: '/pki/v2' } });
    try {
      expect((await fetch(`${testApp.baseUrl}/pki/v2/openapi.json`)).status).toBe(200);
      expect((await fetch(`${testApp.baseUrl}/api/v1/openapi.json`)).status).toBe(404);
    } finally {
      await testApp.close();
    }
  });
});
