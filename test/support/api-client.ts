/** A small HTTP client for end-to-end tests of the versioned API. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

/** A response with its body parsed as JSON when it is JSON, else kept as text. */
export async function readResponse<T = any>(response: Response): Promise<ApiResponse<T>> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed as T, text, headers: response.headers };
}

export class ApiClient {
  /** Every response body this client has seen, for scans such as "no password hash ever leaves". */
  readonly seenBodies: string[] = [];

  constructor(
    readonly baseUrl: string,
    readonly prefix = '/api/v1',
  ) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const url = path.startsWith('/api/') || path.startsWith('/health') ? path : `${this.prefix}${path}`;
    const result = await readResponse<T>(await fetch(`${this.baseUrl}${url}`, { method, headers, body }));
    this.seenBodies.push(result.text);
    return result;
  }

  get<T = any>(path: string, token?: string) {
    return this.request<T>('GET', path, { token });
  }

  post<T = any>(path: string, json?: unknown, token?: string) {
    return this.request<T>('POST', path, { json, token });
  }

  patch<T = any>(path: string, json: unknown, token?: string) {
    return this.request<T>('PATCH', path, { json, token });
  }

  put<T = any>(path: string, json: unknown, token?: string) {
    return this.request<T>('PUT', path, { json, token });
  }

  delete<T = any>(path: string, token?: string) {
    return this.request<T>('DELETE', path, { token });
  }

  login(username: string, password: string, headers?: Record<string, string>) {
    return this.request<TokenPair>('POST', '/auth/token', { form: { username, password }, headers });
  }

  /** Logs in and returns the token pair, failing the test on anything but 200. */
  async tokens(username: string, password: string): Promise<TokenPair> {
    const response = await this.login(username, password);
    if (response.status !== 200) throw new Error(`login of ${username} answered ${response.status}: ${response.text}`);
    return response.body;
  }

  async token(username: string, password: string): Promise<string> {
    return (await this.tokens(username, password)).access_token;
  }
}

export const PASSWORD = 'correct-horse-battery';

export interface Fixture {
  id: number;
  username: string;
  token: string;
}

/**
 * A populated identity world: a superuser (the bootstrap user), two organizations, and in each an
 * admin and a plain user; plus a user without organization. Everything is created through the API.
 */
export async function seedIdentities(api: ApiClient) {
  const root = await createBootstrapSuperuser(api);
  const org1 = (await api.post('/organizations/', { name: 'Org One', description: 'first' }, root.token)).body;
  const org2 = (await api.post('/organizations/', { name: 'Org Two' }, root.token)).body;
  const make = async (username: string, role: string, organization_id: number | null, extra: object = {}) => {
    const created = await api.post(
      '/users/',
      { username, email: `${username}@example.com`, password: PASSWORD, role, organization_id, ...extra },
      root.token,
    );
    if (created.status !== 201) throw new Error(`creating ${username}: ${created.status} ${created.text}`);
    return { id: created.body.id as number, username, token: await api.token(username, PASSWORD) };
  };
  return {
    root,
    org1: org1 as { id: number; name: string },
    org2: org2 as { id: number; name: string },
    admin1: await make('admin1', 'admin', org1.id),
    user1: await make('user1', 'user', org1.id),
    admin2: await make('admin2', 'admin', org2.id),
    user2: await make('user2', 'user', org2.id),
    loner: await make('loner', 'user', null),
  };
}

export async function createBootstrapSuperuser(api: ApiClient): Promise<Fixture> {
  const created = await api.post('/users/', { username: 'root', email: 'root@example.com', password: PASSWORD, role: 'superuser' });
  if (created.status !== 201) throw new Error(`bootstrap failed: ${created.status} ${created.text}`);
  return { id: created.body.id, username: 'root', token: await api.token('root', PASSWORD) };
}
