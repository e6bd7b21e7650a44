import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_OPERATIONS, ApiClient, ApiError, NetworkError } from './api-client';

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId?: string }>>;
}

/** operationId → [METHOD, path] as the committed OpenAPI document declares it. */
function documentedOperations(): Map<string, [string, string]> {
  const document = JSON.parse(readFileSync(join(__dirname, '../../docs/openapi.json'), 'utf8')) as OpenApiDocument;
  const operations = new Map<string, [string, string]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (operation.operationId) operations.set(operation.operationId, [method.toUpperCase(), path]);
    }
  }
  return operations;
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('API_OPERATIONS', () => {
  const documented = documentedOperations();

  it.each(Object.entries(API_OPERATIONS))('%s matches docs/openapi.json', (operationId, [method, path]) => {
    expect(documented.get(operationId)).toEqual([method, path]);
  });
});

describe('ApiClient', () => {
  let fetchMock: jest.SpiedFunction<typeof fetch>;

  beforeEach(() => {
    fetchMock = jest.spyOn(globalThis, 'fetch');
  });

  afterEach(() => fetchMock.mockRestore());

  function requestOf(call: number): { url: string; method?: string; authorization?: string; body?: unknown } {
    const [url, init] = fetchMock.mock.calls[call];
    const headers = (init?.headers ?? {}) as Record<string, string>;
    return { url: String(url), method: init?.method, authorization: headers.authorization, body: init?.body };
  }

  it('fills path parameters, drops undefined query values and keeps a base-URL path prefix', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, []));
    const client = new ApiClient({ baseUrl: 'http://pki.test/prefix/', accessToken: 'access' });
    await client.call('listOrganizationUsers', { params: { organization_id: 7 }, query: { skip: 0, limit: undefined } });
    expect(requestOf(0)).toEqual({
      url: 'http://pki.test/prefix/api/v1/organizations/7/users?skip=0',
      method: 'GET',
      authorization: 'Bearer access',
      body: undefined,
    });
  });

  it('reports the detail of an error body', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(404, { detail: 'Certificate Authority with ID 9 not found' }));
    const client = new ApiClient({ baseUrl: 'http://pki.test' });
    await expect(client.call('getCa', { params: { ca_id: 9 } })).rejects.toEqual(
      new ApiError(404, 'Certificate Authority with ID 9 not found'),
    );
  });

  it('refreshes once on 401, hands the new pair over and retries with it', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(401, { detail: 'Could not validate credentials' }))
      .mockResolvedValueOnce(jsonResponse(200, { access_token: 'new-access', refresh_token: 'new-refresh', token_type: 'bearer' }))
      .mockResolvedValueOnce(jsonResponse(200, { username: 'root' }));
    const refreshed = jest.fn();
    const client = new ApiClient({
      baseUrl: 'http://pki.test',
      accessToken: 'old-access',
      refreshToken: 'old-refresh',
      onTokensRefreshed: refreshed,
    });
    await expect(client.call('getCurrentUser', {})).resolves.toEqual({ username: 'root' });
    expect(requestOf(1)).toMatchObject({
      url: 'http://pki.test/api/v1/auth/refresh',
      method: 'POST',
      body: JSON.stringify({ refresh_token: 'old-refresh' }),
    });
    expect(requestOf(2).authorization).toBe('Bearer new-access');
    expect(refreshed).toHaveBeenCalledWith(expect.objectContaining({ access_token: 'new-access', refresh_token: 'new-refresh' }));
  });

  it('reports the original 401 when the refresh is refused', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(401, { detail: 'Could not validate credentials' }))
      .mockResolvedValueOnce(jsonResponse(401, { detail: 'Invalid refresh token' }));
    const client = new ApiClient({ baseUrl: 'http://pki.test', accessToken: 'old', refreshToken: 'stale' });
    await expect(client.call('listCas', {})).rejects.toEqual(new ApiError(401, 'Could not validate credentials'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('never refreshes around a failed login', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { detail: 'Incorrect username or password' }));
    const client = new ApiClient({ baseUrl: 'http://pki.test', refreshToken: 'stored' });
    await expect(client.call('login', { form: { username: 'root', password: 'wrong' } })).rejects.toEqual(
      new ApiError(401, 'Incorrect username or password'),
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('turns a connection failure into a NetworkError naming the server and the cause', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }));
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9' });
    await expect(client.call('listCas', {})).rejects.toEqual(new NetworkError('http://127.0.0.1:9', 'connect ECONNREFUSED 127.0.0.1:9'));
  });
});
