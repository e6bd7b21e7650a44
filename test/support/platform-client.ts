import type { Client } from 'pg';
import { ApiClient, ApiResponse, PASSWORD, readResponse } from './api-client';
import { SeededApp, startSeededApp } from './seeded-app';
import type { TestAppOptions } from './test-app';

/**
 * A client of the NetBox-style platform API (`/api/…`), authenticating with a platform token
 * (`Authorization: Token <key>`), or with nothing when no token is given.
 */
export class PlatformClient {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  /** The same client with another token (or none). */
  as(token: string | undefined, extraHeaders: Record<string, string> = {}): PlatformClient {
    return new PlatformClient(this.baseUrl, token, extraHeaders);
  }

  async request<T = any>(method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const all: Record<string, string> = { ...this.extraHeaders, ...headers };
    if (this.token) all.authorization = `Token ${this.token}`;
    let body: string | undefined;
    if (json !== undefined) {
      all['content-type'] = 'application/json';
      body = JSON.stringify(json);
    }
    return readResponse<T>(await fetch(`${this.baseUrl}${path}`, { method, headers: all, body }));
  }

  /** POST that must answer 201; its body. */
  async created(path: string, body: unknown): Promise<any> {
    const response = await this.post(path, body);
    if (response.status !== 201) throw new Error(`POST ${path} ${JSON.stringify(body)}: ${response.status} ${response.text}`);
    return response.body;
  }

  /** One attribute of every result of a list request that must answer 200 with its whole count on one page. */
  async listed(path: string, attribute: string): Promise<unknown[]> {
    const response = await this.get(path);
    expect({ path, status: response.status, body: response.status === 200 ? 'ok' : response.body }).toEqual({
      path,
      status: 200,
      body: 'ok',
    });
    expect(response.body.count).toBe(response.body.results.length);
    return (response.body.results as Array<Record<string, unknown>>).map((result) => result[attribute]);
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, json, headers);
  }
  patch<T = any>(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, json, headers);
  }
  put<T = any>(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, json, headers);
  }
  delete<T = any>(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, json, headers);
  }
}

/** `POST /api/users/tokens/provision/`: a new platform token for a user, e.g. `{ write_enabled: false }`. */
export async function provisionToken(
  api: ApiClient,
  username: string,
  password: string,
  options: Record<string, unknown> = {},
): Promise<string> {
  const response = await api.post('/api/users/tokens/provision/', { username, password, ...options });
  if (response.status !== 201) throw new Error(`provisioning a token for ${username}: ${response.status} ${response.text}`);
  return response.body.key as string;
}

/** A seeded app with a platform client acting as its superuser, as the platform e2e files use it. */
export async function startPlatformApp(
  env: Record<string, string> = {},
  options: Omit<TestAppOptions, 'env'> = {},
): Promise<{ seeded: SeededApp; api: PlatformClient; base: string }> {
  const seeded = await startSeededApp(env, options);
  const base = seeded.testApp.baseUrl;
  const api = new PlatformClient(base, await provisionToken(seeded.api, seeded.w.root.username, PASSWORD));
  return { seeded, api, base };
}

/** Rows of a table (optionally matching a WHERE clause), read directly from the app's database. */
export async function countRows(db: Client, table: string, where = '', params: unknown[] = []): Promise<number> {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} ${where}`, params)).rows[0].n;
}
