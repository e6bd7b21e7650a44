import Ajv from 'ajv-draft-04';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient, createBootstrapSuperuser, PASSWORD } from './support/api-client';
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
    const parameters = (document.paths['/api/dcim/sites/'].get as unknown as { parameters: Array<{ name: string }> }).parameters.map(
      (p) => p.name,
    );
    expect(parameters).toEqual(
      expect.arrayContaining(['limit', 'offset', 'q', 'tag', 'status', 'status__n', 'name__ic', 'tenant_id', 'created__gte']),
    );
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

describe('OpenAPI details a generated SDK relies on', () => {
  let testApp: TestApp;
  let document: {
    info: { license?: { name: string } };
    paths: Record<string, Record<string, Operation & { security?: unknown; requestBody?: { required?: boolean } }>>;
  };
  const operation = (id: string) =>
    operations(document).find(([, op]) => op.operationId === id)![1] as (typeof document)['paths'][string][string];
  const okContent = (id: string) => (operation(id).responses['200'] as { content: Record<string, { schema: unknown }> }).content;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { CA_KEY_SIZE: '2048' } });
    document = (await (await fetch(`${testApp.baseUrl}/api/v1/openapi.json`)).json()) as typeof document;
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('marks public operations with security: [], optional authentication with an empty alternative, the rest with bearer', () => {
    const publicIds = [
      'getHealth',
      'getLiveness',
      'getMetrics',
      'login',
      'refreshToken',
      'getCrl',
      'getPublicCaCertificate',
      'postOcspRequest',
      'getOcspRequest',
      'estCaCerts',
      'estCsrAttrs',
      'getAcmeDirectory',
      'headAcmeNonce',
      'getAcmeNonce',
      'createAcmeAccount',
      'updateAcmeAccount',
      'createAcmeOrder',
      'getAcmeOrder',
      'finalizeAcmeOrder',
      'getAcmeAuthorization',
      'respondToAcmeChallenge',
      'getAcmeCertificate',
      'getAcmeRenewalInfo',
      'listAcmeAccountOrders',
      'changeAcmeAccountKey',
      'revokeAcmeCertificate',
    ];
    // EST authenticates with HTTP Basic (a service account's name and token); re-enrollment also by client certificate.
    const basicIds = ['estSimpleEnroll', 'estServerKeyGen'];
    const special: Record<string, unknown[]> = { createUser: [{ bearer: [] }, {}], estSimpleReenroll: [{ basic: [] }, {}] };
    for (const [name, op] of operations(document)) {
      const expected = publicIds.includes(op.operationId!)
        ? []
        : basicIds.includes(op.operationId!)
          ? [{ basic: [] }]
          : (special[op.operationId!] ?? [{ bearer: [] }]);
      expect({ name, security: (op as { security?: unknown }).security }).toEqual({ name, security: expected });
    }
  });

  it('declares PEM, DER certificate and DER CRL bodies with their media types and string/binary schemas; errors stay JSON', () => {
    for (const id of [
      'exportCaCertificate',
      'exportCaPrivateKey',
      'exportCertificate',
      'exportCertificatePrivateKey',
      'exportCertificateChain',
    ]) {
      expect({ id, content: okContent(id) }).toEqual({ id, content: { 'application/x-pem-file': { schema: { type: 'string' } } } });
      expect(Object.keys((operation(id).responses['404'] as { content: object }).content)).toEqual(['application/json']);
    }
    expect(okContent('getCrl')).toEqual({
      'application/pkix-crl': { schema: { type: 'string', format: 'binary' } },
      'application/x-pem-file': { schema: { type: 'string' } },
    });
    expect(okContent('getPublicCaCertificate')).toEqual({
      'application/pkix-cert': { schema: { type: 'string', format: 'binary' } },
      'application/x-pem-file': { schema: { type: 'string' } },
    });
  });

  it('declares the media types the server actually sends', async () => {
    const api = new ApiClient(testApp.baseUrl);
    const root = await createBootstrapSuperuser(api);
    const ca = (await api.post('/cas/', { name: 'Media CA', subject_dn: 'CN=Media CA', key_type: 'ecdsa-p256' }, root.token)).body;
    const cert = (
      await api.post(
        `/certificates/?ca_id=${ca.id}`,
        { common_name: 'media.test', subject_dn: 'CN=media.test', certificate_type: 'server', key_type: 'ecdsa-p256' },
        root.token,
      )
    ).body;
    const sent = async (path: string, token?: string): Promise<string> => {
      const response = await fetch(`${testApp.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      return response.headers.get('content-type')!.split(';')[0];
    };
    const checks: Array<[string, string, string?]> = [
      ['exportCaCertificate', `/api/v1/export/ca/${ca.id}/certificate`, root.token],
      ['exportCaPrivateKey', `/api/v1/export/ca/${ca.id}/private-key`, root.token],
      ['exportCertificate', `/api/v1/export/certificate/${cert.id}`, root.token],
      ['exportCertificatePrivateKey', `/api/v1/export/certificate/${cert.id}/private-key`, root.token],
      ['exportCertificateChain', `/api/v1/export/certificate/${cert.id}/chain`, root.token],
      ['getCrl', `/crl/${ca.slug}`],
      ['getCrl', `/crl/${ca.slug}.pem`],
      ['getPublicCaCertificate', `/ca/${ca.slug}.crt`],
      ['getPublicCaCertificate', `/ca/${ca.slug}.pem`],
    ];
    for (const [id, path, token] of checks) {
      expect({ path, declared: Object.keys(okContent(id)).includes(await sent(path, token)) }).toEqual({ path, declared: true });
    }
  });

  it('declares the revoke body optional, and a revoke without any body works', async () => {
    expect(operation('revokeCertificate').requestBody?.required).toBe(false);
    const api = new ApiClient(testApp.baseUrl);
    const token = await api.token('root', PASSWORD);
    const ca = (await api.post('/cas/', { name: 'Revoke CA', subject_dn: 'CN=Revoke CA', key_type: 'ecdsa-p256' }, token)).body;
    const cert = (
      await api.post(
        `/certificates/?ca_id=${ca.id}`,
        { common_name: 'bodiless.test', subject_dn: 'CN=bodiless.test', certificate_type: 'server', key_type: 'ecdsa-p256' },
        token,
      )
    ).body;
    const response = await fetch(`${testApp.baseUrl}/api/v1/certificates/${cert.id}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: cert.id, status: 'revoked' });
  });

  it('names the license (package.json: UNLICENSED) in both documents', async () => {
    expect(document.info.license).toEqual({ name: 'UNLICENSED' });
    const platform = (await (await fetch(`${testApp.baseUrl}/api/schema/`)).json()) as { info: { license?: unknown } };
    expect(platform.info.license).toEqual({ name: 'UNLICENSED' });
  });

  it('/docs offers both documents; the inventory one brings the platform Token scheme to Authorize', async () => {
    const init = await (await fetch(`${testApp.baseUrl}/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('"urls": [');
    expect(init).toMatch(/"url": "\/api\/v1\/openapi\.json",\s*"name": "PKI API"/);
    expect(init).toMatch(/"url": "\/api\/schema\/",\s*"name": "Inventory platform API"/);
    const platform = (await (await fetch(`${testApp.baseUrl}/api/schema/`)).json()) as {
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(platform.components.securitySchemes.tokenAuth).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: '`Token <key>`',
    });
  });

  it('serves the inventory document at /api/docs/?format=openapi (pynetbox) and sends /api/docs/ to the Swagger UI on it', async () => {
    // pynetbox 7.0's request, Content-Type header included.
    const viaDocs = await fetch(`${testApp.baseUrl}/api/docs/?format=openapi`, { headers: { 'Content-Type': 'application/json;' } });
    expect(viaDocs.status).toBe(200);
    // The same bytes: comparing the parsed documents deeply takes longer than the server keeps the idle connection open.
    expect(await viaDocs.text()).toBe(await (await fetch(`${testApp.baseUrl}/api/schema/`)).text());
    const page = await fetch(`${testApp.baseUrl}/api/docs/`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/docs/?urls.primaryName=Inventory%20platform%20API');
  });
});
