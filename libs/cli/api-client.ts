/**
 * The one place the CLI talks HTTP. Every operation is declared in {@link API_OPERATIONS}, keyed by
 * the OpenAPI operationId; `api-client.spec.ts` checks the table against docs/openapi.json.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const API_OPERATIONS = {
  login: ['POST', '/api/v1/auth/token'],
  refreshToken: ['POST', '/api/v1/auth/refresh'],
  logout: ['POST', '/api/v1/auth/logout'],

  createUser: ['POST', '/api/v1/users'],
  listUsers: ['GET', '/api/v1/users'],
  getCurrentUser: ['GET', '/api/v1/users/me'],
  getUser: ['GET', '/api/v1/users/{user_id}'],
  updateUser: ['PATCH', '/api/v1/users/{user_id}'],
  deleteUser: ['DELETE', '/api/v1/users/{user_id}'],

  createOrganization: ['POST', '/api/v1/organizations'],
  listOrganizations: ['GET', '/api/v1/organizations'],
  getOrganization: ['GET', '/api/v1/organizations/{organization_id}'],
  updateOrganization: ['PUT', '/api/v1/organizations/{organization_id}'],
  deleteOrganization: ['DELETE', '/api/v1/organizations/{organization_id}'],
  addOrganizationUser: ['POST', '/api/v1/organizations/{organization_id}/users/{user_id}'],
  removeOrganizationUser: ['DELETE', '/api/v1/organizations/{organization_id}/users/{user_id}'],
  listOrganizationUsers: ['GET', '/api/v1/organizations/{organization_id}/users'],

  listAuditLogs: ['GET', '/api/v1/audit-logs'],

  createCa: ['POST', '/api/v1/cas'],
  listCas: ['GET', '/api/v1/cas'],
  getCa: ['GET', '/api/v1/cas/{ca_id}'],
  updateCa: ['PATCH', '/api/v1/cas/{ca_id}'],
  deleteCa: ['DELETE', '/api/v1/cas/{ca_id}'],
  getCaPrivateKey: ['GET', '/api/v1/cas/{ca_id}/private-key'],
  getCaChain: ['GET', '/api/v1/cas/{ca_id}/chain'],
  listCaChildren: ['GET', '/api/v1/cas/{ca_id}/children'],

  issueCertificate: ['POST', '/api/v1/certificates'],
  listCertificates: ['GET', '/api/v1/certificates'],
  signCsr: ['POST', '/api/v1/certificates/sign-csr'],
  getCertificateBySerial: ['GET', '/api/v1/certificates/by-serial/{serial}'],
  getCertificate: ['GET', '/api/v1/certificates/{cert_id}'],
  getCertificatePrivateKey: ['GET', '/api/v1/certificates/{cert_id}/private-key'],
  revokeCertificate: ['POST', '/api/v1/certificates/{cert_id}/revoke'],
  renewCertificate: ['POST', '/api/v1/certificates/{cert_id}/renew'],

  exportCaCertificate: ['GET', '/api/v1/export/ca/{ca_id}/certificate'],
  exportCaPrivateKey: ['GET', '/api/v1/export/ca/{ca_id}/private-key'],
  exportCertificate: ['GET', '/api/v1/export/certificate/{cert_id}'],
  exportCertificatePrivateKey: ['GET', '/api/v1/export/certificate/{cert_id}/private-key'],
  exportCertificateChain: ['GET', '/api/v1/export/certificate/{cert_id}/chain'],

  createServiceAccount: ['POST', '/api/v1/service-accounts'],
  listServiceAccounts: ['GET', '/api/v1/service-accounts'],
  getServiceAccount: ['GET', '/api/v1/service-accounts/{id}'],
  updateServiceAccount: ['PATCH', '/api/v1/service-accounts/{id}'],
  deleteServiceAccount: ['DELETE', '/api/v1/service-accounts/{id}'],
  createServiceAccountToken: ['POST', '/api/v1/service-accounts/{id}/tokens'],
  listServiceAccountTokens: ['GET', '/api/v1/service-accounts/{id}/tokens'],
  revokeServiceAccountToken: ['DELETE', '/api/v1/service-accounts/{id}/tokens/{token_id}'],
  putServiceAccountPolicy: ['PUT', '/api/v1/service-accounts/{id}/policy'],
  getServiceAccountPolicy: ['GET', '/api/v1/service-accounts/{id}/policy'],
  deleteServiceAccountPolicy: ['DELETE', '/api/v1/service-accounts/{id}/policy'],

  getCrl: ['GET', '/crl/{file}'],
} as const satisfies Record<string, readonly [HttpMethod, string]>;

export type OperationId = keyof typeof API_OPERATIONS;

type PathParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;
type ParamNamesOf<Op extends OperationId> = PathParamNames<(typeof API_OPERATIONS)[Op][1]>;

export type QueryValue = string | number | boolean | undefined;

interface RequestParts {
  params?: Record<string, string | number>;
  query?: Record<string, QueryValue>;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Path parameters are required, and typed by name, exactly when the path template has placeholders. */
export type CallOptions<Op extends OperationId> = ([ParamNamesOf<Op>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamNamesOf<Op>, string | number> }) &
  Omit<RequestParts, 'params'>;

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

/** The server answered with a non-2xx status; `detail` is the body's `detail` (or the raw text). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(`Error ${status}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  }
}

/** No HTTP answer at all (connection refused, DNS failure, …). */
export class NetworkError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Error: cannot reach ${url}: ${reason}`);
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  accessToken?: string;
  /** When set, a 401 triggers one refresh (POST /auth/refresh) and a retry. */
  refreshToken?: string;
  onTokensRefreshed?: (tokens: TokenPair) => void;
}

/** Operations that must never trigger a refresh: they are either unauthenticated or the refresh itself. */
const NO_REFRESH: ReadonlySet<OperationId> = new Set<OperationId>(['login', 'refreshToken']);

export class ApiClient {
  private accessToken: string | undefined;
  private refreshToken: string | undefined;

  constructor(private readonly options: ApiClientOptions) {
    this.accessToken = options.accessToken;
    this.refreshToken = options.refreshToken;
  }

  /** Calls a JSON operation; resolves to the parsed body (undefined for 204). */
  async call<Op extends OperationId>(operation: Op, options: CallOptions<Op>): Promise<unknown> {
    const text = await this.callText(operation, options);
    return text === '' ? undefined : JSON.parse(text);
  }

  /** Calls an operation and resolves to the raw body text (used for PEM exports). */
  async callText<Op extends OperationId>(operation: Op, options: CallOptions<Op>): Promise<string> {
    let response = await this.send(operation, options);
    if (response.status === 401 && this.refreshToken && !NO_REFRESH.has(operation) && (await this.refresh())) {
      response = await this.send(operation, options);
    }
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, errorDetail(text, response.statusText));
    return text;
  }

  private async refresh(): Promise<boolean> {
    try {
      const tokens = (await this.call('refreshToken', { json: { refresh_token: this.refreshToken } })) as TokenPair;
      this.accessToken = tokens.access_token;
      this.refreshToken = tokens.refresh_token;
      this.options.onTokensRefreshed?.(tokens);
      return true;
    } catch (error) {
      // A failed refresh leaves the original 401 to be reported.
      if (error instanceof ApiError) return false;
      throw error;
    }
  }

  private async send(operation: OperationId, options: RequestParts): Promise<Response> {
    const [method, template] = API_OPERATIONS[operation];
    const params = options.params ?? {};
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
    let url: URL;
    try {
      // Concatenated rather than resolved, so a base URL with a path prefix keeps it.
      url = new URL(this.options.baseUrl.replace(/\/+$/, '') + path);
    } catch {
      throw new NetworkError(this.options.baseUrl, 'not a valid URL');
    }
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json, application/x-pem-file', ...options.headers };
    if (this.accessToken) headers.authorization = `Bearer ${this.accessToken}`;
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    try {
      return await fetch(url, { method, headers, body });
    } catch (error) {
      throw new NetworkError(this.options.baseUrl, networkFailureReason(error));
    }
  }
}

function errorDetail(text: string, statusText: string): unknown {
  if (!text) return statusText;
  try {
    const body = JSON.parse(text) as unknown;
    return body !== null && typeof body === 'object' && 'detail' in body ? body.detail : body;
  } catch {
    return text;
  }
}

/** fetch reports "fetch failed"; the useful part (e.g. "connect ECONNREFUSED …") is in `cause`. */
function networkFailureReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && cause.message) return cause.message;
  if (cause !== null && typeof cause === 'object' && 'code' in cause) return String(cause.code);
  return error instanceof Error ? error.message : String(error);
}
