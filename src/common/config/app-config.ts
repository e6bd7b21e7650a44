import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { isIP } from 'node:net';
import { allowEntryProblem, caDirectoryProblem, type EgressSettings } from '../http/egress-policy';
import { readTracingSettings, type TracingSettings } from '../tracing/tracing-settings';
import { ConfigProblem, EnvReader } from './env-reader';
import { readOrCreateSecretKeyFile, SecretKeyFileError, StoredSecretKey } from './secret-key-file';

export const NODE_ENVIRONMENTS = ['development', 'production', 'test'] as const;
export type NodeEnvironment = (typeof NODE_ENVIRONMENTS)[number];
export const JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const RSA_KEY_SIZES = [2048, 3072, 4096, 8192] as const;
export type RsaKeySize = (typeof RSA_KEY_SIZES)[number];
export const ISSUER_EXPIRY_BEHAVIORS = ['truncate', 'err'] as const;
export type IssuerExpiryBehavior = (typeof ISSUER_EXPIRY_BEHAVIORS)[number];

/** At most `limit` events per sliding window of `windowSeconds`. */
export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface DatabaseTimeouts {
  statementMs: number;
  lockMs: number;
  /** Waiting for a free pool connection, and opening a new one. */
  connectMs: number;
}

/** Bounds on one GraphQL request (see docs/configuration.md#graphql). */
export interface GraphqlLimits {
  /** Largest estimated cost (fields × the items of the lists they are under) of an operation's data. */
  maxCost: number;
  /** Root fields an operation may select, each alias counted. */
  maxRootFields: number;
  /** Largest serialised answer, in bytes; a larger one is replaced by an error. */
  maxResponseBytes: number;
  /** Root fields of one request resolved at once. */
  rootFieldConcurrency: number;
}

/** EST client-certificate authentication behind a TLS-terminating ingress (see docs/pki.md#est-rfc-7030). */
export interface EstSettings {
  /** Lower-case name of the header carrying the client certificate as URL-encoded PEM; unset: certificate authentication is off. */
  clientCertHeader: string | undefined;
  /** Peer addresses and CIDRs whose client-certificate header is believed. */
  trustedProxies: string[];
}

/** Express's `trust proxy` value: off, on, a hop count, or a list of addresses/subnets/names. */
export type TrustProxy = boolean | number | string[];

const MIN_SECRET_KEY_LENGTH = 32;
const MIN_SECRET_TOKEN_LENGTH = 16;
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * The whole typed configuration of the process, built once from the environment at start.
 * Injected by class token; nothing else in the code reads `process.env`.
 */
export class AppConfig {
  readonly nodeEnv: NodeEnvironment;
  readonly host: string;
  readonly port: number;
  readonly apiV1Str: string;
  /** Serves the Swagger UI at /docs and the PKI OpenAPI document; the platform's /api/schema/ stays. */
  readonly enableDocs: boolean;
  readonly secretKey: string;
  /** Set when SECRET_KEY was unset: the key file in DATA_DIR it came from, and whether this process created it. */
  readonly secretKeyFile: { path: string; created: boolean } | undefined;
  readonly algorithm: JwtAlgorithm;
  readonly accessTokenExpireMinutes: number;
  readonly refreshTokenExpireMinutes: number;
  readonly caKeySize: RsaKeySize;
  readonly caCertDays: number;
  readonly certKeySize: RsaKeySize;
  readonly certDays: number;
  /** A validity reaching past the issuer's notAfter: cut at the issuer's notAfter, or refused (400). */
  readonly issuerExpiryBehavior: IssuerExpiryBehavior;
  /** Base of the CRL and CA-certificate URLs written into certificates; derived from the request when unset. */
  readonly publicBaseUrl: string | undefined;
  /** Appended to a device's name to make the DNS name a device bound to the inventory may have certified (`INVENTORY_DNS_SUFFIX`). */
  readonly inventoryDnsSuffix: string | undefined;
  /** How long a CRL is valid (its nextUpdate), in days. */
  readonly crlValidityDays: number;
  /** OCSP responses' validity (nextUpdate − thisUpdate), in hours. */
  readonly ocspValidityHours: number;
  readonly est: EstSettings;
  /** 32-byte AES-256-GCM key encrypting private keys at rest; generated into DATA_DIR outside production when unset. */
  readonly privateKeyEncryptionKey: Buffer | undefined;
  /** Earlier keys, accepted for decryption only (key rotation). */
  readonly privateKeyEncryptionOldKeys: Buffer[];
  readonly allowUnauthenticatedRegistration: boolean;
  /** When set, creating the very first user needs it in `X-Bootstrap-Token`. */
  readonly bootstrapToken: string | undefined;
  /** When set, `GET /metrics` needs it as a bearer token. */
  readonly metricsToken: string | undefined;
  /** Expiry, in days, of platform API tokens created without one; 0 allows tokens that never expire. */
  readonly apiTokenDefaultExpiryDays: number;
  /** HMAC key for service-account token digests; SECRET_KEY when unset. */
  readonly serviceAccountTokenPepper: string;
  /** Failed logins allowed per (client address, username) within the window. */
  readonly authRateLimit: RateLimit;
  /** Failed logins allowed per client address, whatever the usernames. */
  readonly authAddressRateLimit: RateLimit;
  /** Failed logins per username across addresses past which addresses that failed for it are refused. */
  readonly authUsernameRateLimit: RateLimit;
  /** Password hashes (argon2) run at once in this process. */
  readonly authHashConcurrency: number;
  /** Password hashes that may wait for a slot; one more is refused with 429. */
  readonly authHashQueue: number;
  readonly backendCorsOrigins: string[];
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  /** Limits on the app's database sessions (not migrations), so a hung database fails requests instead of hanging them. */
  readonly databaseTimeouts: DatabaseTimeouts;
  readonly dataDir: string;
  readonly migrateOnStart: boolean;
  readonly logLevel: LogLevel;
  /** LOG_FORMAT; undefined: pretty when stdout is a terminal, else JSON (resolveLogFormat). */
  readonly logFormat: LogFormat | undefined;
  readonly trustProxy: TrustProxy;
  readonly shutdownGraceSeconds: number;
  /**
   * HTTP server processes (a node:cluster of workers sharing the port) with a PostgreSQL server;
   * undefined: one per available CPU. The embedded database always serves from one process.
   */
  readonly webConcurrency: number | undefined;
  /** How often an idle job worker looks for due jobs; 0 turns the worker off in this process. */
  readonly jobPollIntervalMs: number;
  /** A failed job's n-th retry waits 2^n times this. */
  readonly jobBackoffBaseMs: number;
  /**
   * Config-template render processes: how many run at once (undefined: one per CPU, 2–8), how many
   * renders may wait, and how many one requester may have running or waiting (more: 429).
   */
  readonly templateRendering: { concurrency: number | undefined; queueSize: number; perRequester: number };
  /** Largest JSON or form request body accepted, in bytes; larger ones get 413. */
  readonly maxBodySize: number;
  /** Largest raw email (message/rfc822) the notices plugin's inbound-email/ takes, in bytes: at least the mail worker's SMTP size. */
  readonly maxInboundEmailSize: number;
  /** Requests one keep-alive connection carries before the server closes it (0: no limit). */
  readonly keepAliveMaxRequests: number;
  readonly graphqlLimits: GraphqlLimits;
  /**
   * The plugins to mount, by name (PLUGINS); undefined (unset) means every available plugin, an
   * empty list none. Checked against the available plugins when the platform is built.
   */
  readonly plugins: readonly string[] | undefined;
  /** Every `PLUGIN_<NAME>_<SETTING>` variable, raw: each plugin reads and validates its own settings at boot. */
  readonly pluginVariables: Readonly<Record<string, string>>;
  /** What the server's own requests to user-chosen URLs may reach (EGRESS_ALLOW) and which CA files webhooks may use (WEBHOOK_CA_DIR). */
  readonly egress: EgressSettings;
  /** OpenTelemetry trace export (OTEL_EXPORTER_OTLP_ENDPOINT and co.); undefined: off, the SDK is never loaded. */
  readonly tracing: TracingSettings | undefined;
  /** The ACME server (docs/pki.md, Protocols). */
  readonly acme: AcmeSettings;

  constructor(values: Omit<AppConfig, 'isProduction'>) {
    Object.assign(this, values);
    Object.freeze(this);
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }
}

/** A check of settings that only another part of the application can judge (e.g. PLUGINS against the available plugins). */
export type ConfigurationCheck = (config: AppConfig) => ConfigProblem[];

const configurationChecks = new Set<ConfigurationCheck>();

/**
 * Adds a check that `readConfig` runs on every configuration it reads, so its problems are reported
 * with those of the other variables, one line each, before the process opens its database. The
 * module that owns the rule registers it when it is loaded (the application's root module is
 * loaded before the configuration is read).
 */
export function registerConfigurationCheck(check: ConfigurationCheck): void {
  configurationChecks.add(check);
}

export interface LoadedConfig {
  config: AppConfig;
  /** Every variable name the loader reads. */
  variables: string[];
}

/** Supplies the key of a process started without SECRET_KEY, from its data directory. */
export type SecretKeyStore = (dataDir: string) => StoredSecretKey;

/** A process's configuration: an unset SECRET_KEY outside production is kept in DATA_DIR (secret-key-file.ts). */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  return readConfig(env, readOrCreateSecretKeyFile).config;
}

/**
 * Reads and validates the environment. Without a `secretKeyStore` (a configuration read in a unit
 * test, with no data directory to keep a key in) an unset SECRET_KEY gets a random key for this read.
 */
export function readConfig(env: Record<string, string | undefined>, secretKeyStore?: SecretKeyStore): LoadedConfig {
  const r = new EnvReader(env);
  const nodeEnv = r.oneOf('NODE_ENV', NODE_ENVIRONMENTS, 'development');
  const dataDir = r.string('DATA_DIR', './data');
  const { secretKey, file: secretKeyFile } = readSecretKey(r, nodeEnv, dataDir, secretKeyStore);
  const days = { min: 1, max: 36500 };
  const keySize = (name: string, fallback: RsaKeySize) => r.oneOf<RsaKeySize>(name, RSA_KEY_SIZES, fallback, (v) => v);

  const config = new AppConfig({
    nodeEnv,
    host: r.string('HOST', '0.0.0.0'),
    port: r.int('PORT', 8000, { min: 1, max: 65535 }),
    apiV1Str: r.string('API_V1_STR', '/api/v1', {
      pattern: /^(\/[A-Za-z0-9._~-]+)+$/,
      description: 'a path such as /api/v1 (leading slash, no trailing slash)',
    }),
    enableDocs: r.bool('ENABLE_DOCS', true),
    secretKey,
    secretKeyFile,
    algorithm: r.oneOf('ALGORITHM', JWT_ALGORITHMS, 'HS256', (v) => v.toUpperCase()),
    accessTokenExpireMinutes: r.int('ACCESS_TOKEN_EXPIRE_MINUTES', 15, { min: 1, max: 525600 }),
    refreshTokenExpireMinutes: r.int('REFRESH_TOKEN_EXPIRE_MINUTES', 1440, { min: 1, max: 5256000 }),
    caKeySize: keySize('CA_KEY_SIZE', 4096),
    caCertDays: r.int('CA_CERT_DAYS', 3650, days),
    certKeySize: keySize('CERT_KEY_SIZE', 2048),
    certDays: r.int('CERT_DAYS', 365, days),
    issuerExpiryBehavior: r.oneOf('ISSUER_EXPIRY_BEHAVIOR', ISSUER_EXPIRY_BEHAVIORS, 'truncate', (v) => v.toLowerCase()),
    publicBaseUrl: readPublicBaseUrl(r),
    inventoryDnsSuffix: readDnsSuffix(r),
    crlValidityDays: r.int('CRL_VALIDITY_DAYS', 7, { min: 1, max: 365 }),
    ocspValidityHours: r.int('OCSP_VALIDITY_HOURS', 24, { min: 1, max: 168 }),
    est: readEstSettings(r),
    privateKeyEncryptionKey: readEncryptionKey(r, 'PRIVATE_KEY_ENCRYPTION_KEY', nodeEnv),
    privateKeyEncryptionOldKeys: r
      .list('PRIVATE_KEY_ENCRYPTION_OLD_KEYS')
      .map((value) => decodeEncryptionKey(r, 'PRIVATE_KEY_ENCRYPTION_OLD_KEYS', value))
      .filter((key): key is Buffer => key !== undefined),
    allowUnauthenticatedRegistration: r.bool('ALLOW_UNAUTHENTICATED_REGISTRATION', false),
    bootstrapToken: readSecretToken(r, 'BOOTSTRAP_TOKEN'),
    metricsToken: readSecretToken(r, 'METRICS_TOKEN'),
    authRateLimit: readRateLimit(r, 'AUTH_RATE_LIMIT', { limit: 5, windowSeconds: 60 }),
    authAddressRateLimit: readRateLimit(r, 'AUTH_ADDRESS_RATE_LIMIT', { limit: 20, windowSeconds: 60 }),
    authUsernameRateLimit: readRateLimit(r, 'AUTH_USERNAME_RATE_LIMIT', { limit: 100, windowSeconds: 3600 }),
    authHashConcurrency: r.int('AUTH_HASH_CONCURRENCY', 4, { min: 1, max: 1024 }),
    authHashQueue: r.int('AUTH_HASH_QUEUE', 16, { min: 0, max: 100_000 }),
    serviceAccountTokenPepper: readPepper(r) ?? secretKey,
    apiTokenDefaultExpiryDays: r.int('API_TOKEN_DEFAULT_EXPIRY_DAYS', 90, { min: 0, max: 36500 }),
    backendCorsOrigins: readCorsOrigins(r),
    databaseUrl: readDatabaseUrl(r),
    databasePoolSize: r.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
    databaseTimeouts: {
      statementMs: r.int('DATABASE_STATEMENT_TIMEOUT_MS', 5000, { min: 100, max: 3_600_000 }),
      lockMs: r.int('DATABASE_LOCK_TIMEOUT_MS', 3000, { min: 100, max: 3_600_000 }),
      connectMs: r.int('DATABASE_CONNECT_TIMEOUT_MS', 5000, { min: 100, max: 600_000 }),
    },
    dataDir,
    migrateOnStart: r.bool('MIGRATE_ON_START', true),
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info', (v) => (v.toLowerCase() === 'warning' ? 'warn' : v.toLowerCase())),
    logFormat: r.raw('LOG_FORMAT') === undefined ? undefined : r.oneOf('LOG_FORMAT', LOG_FORMATS, 'json', (v) => v.toLowerCase()),
    trustProxy: readTrustProxy(r),
    shutdownGraceSeconds: r.int('SHUTDOWN_GRACE_SECONDS', 25, { min: 0, max: 3600 }),
    webConcurrency: r.optionalInt('WEB_CONCURRENCY', { min: 1, max: 256 }),
    jobPollIntervalMs: r.int('JOB_POLL_INTERVAL_MS', 1000, { min: 0, max: 600_000 }),
    jobBackoffBaseMs: r.int('JOB_BACKOFF_BASE_MS', 1000, { min: 1, max: 600_000 }),
    templateRendering: {
      concurrency: r.optionalInt('TEMPLATE_RENDER_CONCURRENCY', { min: 1, max: 64 }),
      queueSize: r.int('TEMPLATE_RENDER_QUEUE_SIZE', 32, { min: 1, max: 10_000 }),
      perRequester: r.int('TEMPLATE_RENDER_PER_REQUESTER', 4, { min: 1, max: 1000 }),
    },
    maxBodySize: r.int('MAX_BODY_SIZE', 2_621_440, { min: 1024, max: 104_857_600 }),
    maxInboundEmailSize: r.int('MAX_INBOUND_EMAIL_SIZE', 33_554_432, { min: 1024, max: 104_857_600 }),
    keepAliveMaxRequests: r.int('KEEPALIVE_MAX_REQUESTS', 1000, { min: 0, max: 1_000_000 }),
    graphqlLimits: {
      maxCost: r.int('GRAPHQL_MAX_COST', 100_000, { min: 1, max: 100_000_000 }),
      maxRootFields: r.int('GRAPHQL_MAX_ROOT_FIELDS', 100, { min: 1, max: 10_000 }),
      maxResponseBytes: r.int('GRAPHQL_MAX_RESPONSE_BYTES', 16_777_216, { min: 1024, max: 1_073_741_824 }),
      rootFieldConcurrency: r.int('GRAPHQL_ROOT_FIELD_CONCURRENCY', 4, { min: 1, max: 100 }),
    },
    plugins: readPluginSelection(r, env),
    pluginVariables: Object.freeze(
      Object.fromEntries(
        Object.entries(env).filter((entry): entry is [string, string] => PLUGIN_VARIABLE.test(entry[0]) && entry[1] !== undefined),
      ),
    ),
    egress: readEgressSettings(r),
    acme: readAcmeSettings(r),
    tracing: readTracingSettings(
      { value: (name) => r.raw(name), problem: (variable, message) => r.problem(variable, message) },
      'pki-inventory',
    ),
  });
  r.throwIfInvalid();
  for (const check of configurationChecks) for (const problem of check(config)) r.problem(problem.variable, problem.message);
  r.throwIfInvalid();
  return { config, variables: r.variables() };
}

/** A plugin setting's variable: `PLUGIN_<NAME>_<SETTING>`. */
const PLUGIN_VARIABLE = /^PLUGIN_[A-Z0-9]+_[A-Z0-9_]+$/;
const PLUGIN_NAME = /^[a-z][a-z0-9]*$/;

/** Unset: every available plugin; set, even to nothing: exactly those named (comma-separated or a JSON array). */
function readPluginSelection(r: EnvReader, env: Record<string, string | undefined>): string[] | undefined {
  const names = r.list('PLUGINS');
  if (env.PLUGINS === undefined) return undefined;
  const malformed = names.filter((name) => !PLUGIN_NAME.test(name));
  if (malformed.length > 0) {
    r.problem('PLUGINS', `must name plugins in lowercase letters and digits, comma-separated (got ${JSON.stringify(env.PLUGINS)})`);
  }
  return [...new Set(names)];
}

function readSecretKey(
  r: EnvReader,
  nodeEnv: NodeEnvironment,
  dataDir: string,
  store: SecretKeyStore | undefined,
): { secretKey: string; file: AppConfig['secretKeyFile'] } {
  const value = r.raw('SECRET_KEY');
  if (value === undefined) {
    if (nodeEnv === 'production') {
      r.problem('SECRET_KEY', 'is required when NODE_ENV=production (use at least 32 random characters)');
      return { secretKey: '', file: undefined };
    }
    if (!store) return { secretKey: randomBytes(32).toString('base64url'), file: undefined };
    try {
      const stored = store(dataDir);
      return { secretKey: stored.key, file: { path: stored.path, created: stored.created } };
    } catch (error) {
      if (!(error instanceof SecretKeyFileError)) throw error;
      r.problem('SECRET_KEY', error.message);
      return { secretKey: '', file: undefined };
    }
  }
  if (value.length < MIN_SECRET_KEY_LENGTH) {
    r.problem('SECRET_KEY', `must be at least ${MIN_SECRET_KEY_LENGTH} characters long (got ${value.length})`);
  }
  return { secretKey: value, file: undefined };
}

function readPepper(r: EnvReader): string | undefined {
  const value = r.raw('SERVICE_ACCOUNT_TOKEN_PEPPER');
  if (value !== undefined && value.length < MIN_SECRET_KEY_LENGTH) {
    r.problem('SERVICE_ACCOUNT_TOKEN_PEPPER', `must be at least ${MIN_SECRET_KEY_LENGTH} characters long (got ${value.length})`);
  }
  return value;
}

function readSecretToken(r: EnvReader, name: string): string | undefined {
  const value = r.raw(name);
  if (value !== undefined && value.length < MIN_SECRET_TOKEN_LENGTH) {
    r.problem(name, `must be at least ${MIN_SECRET_TOKEN_LENGTH} characters long (got ${value.length})`);
  }
  return value;
}

/** A DNS suffix such as `mgmt.example.net` (a leading dot is dropped), kept in lower case. */
function readDnsSuffix(r: EnvReader): string | undefined {
  const value = r.optionalString('INVENTORY_DNS_SUFFIX')?.replace(/^\./, '').toLowerCase();
  if (value === undefined) return undefined;
  if (/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(value)) return value;
  r.problem('INVENTORY_DNS_SUFFIX', `must be a DNS name such as mgmt.example.net (got ${JSON.stringify(value)})`);
  return undefined;
}

function readPublicBaseUrl(r: EnvReader): string | undefined {
  const value = r.optionalString('PUBLIC_BASE_URL');
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (['http:', 'https:'].includes(url.protocol) && !url.search && !url.hash) return value.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  r.problem('PUBLIC_BASE_URL', `must be an http(s) URL such as https://pki.example.com (got ${JSON.stringify(value)})`);
  return undefined;
}

function readEncryptionKey(r: EnvReader, name: string, nodeEnv: NodeEnvironment): Buffer | undefined {
  const value = r.raw(name);
  if (value === undefined) {
    if (nodeEnv === 'production') {
      r.problem(name, 'is required when NODE_ENV=production (32 random bytes, base64: openssl rand -base64 32)');
    }
    return undefined;
  }
  return decodeEncryptionKey(r, name, value);
}

/** A 32-byte key given as base64 (44 characters) or hex (64 characters); never echoed. */
function decodeEncryptionKey(r: EnvReader, name: string, value: string): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(value) && key.toString('base64') !== value)) {
    r.problem(name, 'must be 32 bytes as base64 (openssl rand -base64 32) or 64 hex characters');
    return undefined;
  }
  return key;
}

const RATE_WINDOWS: Record<string, number> = { second: 1, minute: 60, hour: 3600 };

function readRateLimit(r: EnvReader, name: string, fallback: RateLimit): RateLimit {
  const value = r.raw(name);
  if (value === undefined) return fallback;
  const match = /^(\d+)\s*\/\s*(second|minute|hour)$/i.exec(value);
  const limit = match ? Number(match[1]) : 0;
  if (!match || limit < 1 || limit > 1_000_000) {
    r.problem(name, `must look like 5/minute (a count from 1, per second, minute or hour; got ${JSON.stringify(value)})`);
    return fallback;
  }
  return { limit, windowSeconds: RATE_WINDOWS[match[2].toLowerCase()] };
}

function readDatabaseUrl(r: EnvReader): string | undefined {
  const value = r.optionalString('DATABASE_URL');
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['postgres:', 'postgresql:'].includes(url.protocol) || url.hostname === '') {
    // The value may hold a password, so it is not echoed.
    r.problem('DATABASE_URL', 'must be a postgres:// or postgresql:// URL with a host');
    return undefined;
  }
  return value;
}

function readCorsOrigins(r: EnvReader): string[] {
  const origins = r.list('BACKEND_CORS_ORIGINS');
  for (const origin of origins) {
    if (origin === '*') continue;
    let valid: boolean;
    try {
      const url = new URL(origin);
      valid = ['http:', 'https:'].includes(url.protocol) && url.origin === origin.replace(/\/$/, '');
    } catch {
      valid = false;
    }
    if (!valid) {
      r.problem('BACKEND_CORS_ORIGINS', `must list origins such as https://app.example.com or * (got ${JSON.stringify(origin)})`);
    }
  }
  return origins.map((origin) => origin.replace(/\/$/, ''));
}

function readEgressSettings(r: EnvReader): EgressSettings {
  const allow = r.list('EGRESS_ALLOW');
  for (const entry of allow) {
    const problem = allowEntryProblem(entry);
    if (problem !== undefined) r.problem('EGRESS_ALLOW', `must list addresses, CIDRs and host names: ${problem}`);
  }
  const caDirectory = r.optionalString('WEBHOOK_CA_DIR');
  const problem = caDirectory === undefined ? undefined : caDirectoryProblem(caDirectory);
  if (problem !== undefined) r.problem('WEBHOOK_CA_DIR', problem);
  return {
    allow,
    // Resolved once, so that ca_file_path is compared with the folder's real path.
    caDirectory: caDirectory === undefined || problem !== undefined ? undefined : realpathSync(caDirectory),
  };
}

/** The header and the proxies go together: a header believed from nobody, or proxies with no header, is a mistake. */
function readEstSettings(r: EnvReader): EstSettings {
  const header = r.optionalString('EST_CLIENT_CERT_HEADER');
  const trustedProxies = r.list('EST_TRUSTED_PROXIES');
  if (header !== undefined && !/^[A-Za-z0-9-]+$/.test(header)) {
    r.problem('EST_CLIENT_CERT_HEADER', `must be an HTTP header name such as X-SSL-Client-Cert (got ${JSON.stringify(header)})`);
  }
  const bad = trustedProxies.find((entry) => TRUST_PROXY_NAMES.has(entry) || !isTrustProxyEntry(entry));
  if (bad !== undefined) r.problem('EST_TRUSTED_PROXIES', `must list addresses and CIDRs (got ${JSON.stringify(bad)})`);
  if (header !== undefined && trustedProxies.length === 0) {
    r.problem('EST_TRUSTED_PROXIES', 'must list the ingress addresses when EST_CLIENT_CERT_HEADER is set');
  }
  if (header === undefined && trustedProxies.length > 0) {
    r.problem('EST_CLIENT_CERT_HEADER', 'must name the client-certificate header when EST_TRUSTED_PROXIES is set');
  }
  return { clientCertHeader: header?.toLowerCase(), trustedProxies };
}

export interface AcmeSettings {
  /** ACME_EAB_REQUIRED: new accounts must carry an External Account Binding (a key issued to a service account). */
  readonly eabRequired: boolean;
  /** ACME_DEFAULT_SERVICE_ACCOUNT_ID: the service account accounts without a binding issue as (only without ACME_EAB_REQUIRED). */
  readonly defaultServiceAccountId: number | undefined;
  /** ACME_HTTP01_PORT: the port http-01 validations connect to (80 in the RFC; another for test rigs). */
  readonly http01Port: number;
  /** ACME_VALIDATION_ADDRESS: connect validations to this address instead of the identifier's (test rigs only). */
  readonly validationAddress: string | undefined;
  /** ACME_DNS_RESOLVERS: the resolvers dns-01 asks (`address` or `address:port`, `[v6]:port`); empty: the system's. */
  readonly dnsResolvers: readonly string[];
}

function readAcmeSettings(r: EnvReader): AcmeSettings {
  const eabRequired = r.bool('ACME_EAB_REQUIRED', true);
  const defaultServiceAccountId = r.optionalInt('ACME_DEFAULT_SERVICE_ACCOUNT_ID', { min: 1, max: 2_147_483_647 });
  if (!eabRequired && defaultServiceAccountId === undefined) {
    r.problem('ACME_DEFAULT_SERVICE_ACCOUNT_ID', 'must name the service account ACME accounts issue as when ACME_EAB_REQUIRED is false');
  }
  const validationAddress = r.optionalString('ACME_VALIDATION_ADDRESS');
  if (validationAddress !== undefined && isIP(validationAddress) === 0) {
    r.problem('ACME_VALIDATION_ADDRESS', `must be an IPv4 or IPv6 address (got ${JSON.stringify(validationAddress)})`);
  }
  const dnsResolvers = r.list('ACME_DNS_RESOLVERS');
  for (const resolver of dnsResolvers) {
    if (resolverAddressProblem(resolver) !== undefined) {
      r.problem('ACME_DNS_RESOLVERS', `${JSON.stringify(resolver)}: ${resolverAddressProblem(resolver)}`);
    }
  }
  return {
    eabRequired,
    defaultServiceAccountId,
    http01Port: r.int('ACME_HTTP01_PORT', 80, { min: 1, max: 65535 }),
    validationAddress,
    dnsResolvers,
  };
}

/** Why a resolver entry is not an IP address with an optional port (as node:dns setServers takes it). */
function resolverAddressProblem(entry: string): string | undefined {
  const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? /^([^:]+)(?::(\d+))?$/.exec(entry) ?? /^([^[\]]+)()$/.exec(entry);
  if (!match || isIP(match[1]) === 0) return 'must be an IP address, optionally with :port (IPv6 with a port as [address]:port)';
  const port = match[2] ? Number(match[2]) : 53;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return 'the port must be 1-65535';
  return undefined;
}

function readTrustProxy(r: EnvReader): TrustProxy {
  const value = r.raw('TRUST_PROXY');
  if (value === undefined) return false;
  const word = value.toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isTrustProxyEntry(entry));
  if (bad !== undefined) {
    r.problem(
      'TRUST_PROXY',
      `must be true, false, a hop count, or addresses/CIDRs/loopback,linklocal,uniquelocal (got ${JSON.stringify(bad)})`,
    );
    return false;
  }
  return entries;
}

function isTrustProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}
