import { readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from './app-config';
import { InvalidConfigurationError } from './env-reader';

function problemsOf(env: Record<string, string>): string[] {
  try {
    readConfig(env);
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.lines();
    throw error;
  }
  return [];
}

const KEY_B64 = Buffer.alloc(32, 7).toString('base64');

describe('readConfig', () => {
  it('applies the documented defaults', () => {
    const { config } = readConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 8000,
      host: '0.0.0.0',
      apiV1Str: '/api/v1',
      algorithm: 'HS256',
      accessTokenExpireMinutes: 15,
      refreshTokenExpireMinutes: 1440,
      caKeySize: 4096,
      caCertDays: 3650,
      certKeySize: 2048,
      certDays: 365,
      issuerExpiryBehavior: 'truncate',
      allowUnauthenticatedRegistration: false,
      bootstrapToken: undefined,
      apiTokenDefaultExpiryDays: 90,
      authRateLimit: { limit: 5, windowSeconds: 60 },
      authAddressRateLimit: { limit: 20, windowSeconds: 60 },
      authUsernameRateLimit: { limit: 100, windowSeconds: 3600 },
      authHashConcurrency: 4,
      authHashQueue: 16,
      backendCorsOrigins: [],
      databaseUrl: undefined,
      dataDir: './data',
      migrateOnStart: true,
      logLevel: 'info',
      trustProxy: false,
    });
  });

  it('without a key store (no data directory), gives an unset SECRET_KEY a strong random key for that read', () => {
    const a = readConfig({}).config;
    const b = readConfig({}).config;
    expect(a.secretKeyFile).toBeUndefined();
    expect(a.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(a.secretKey).not.toBe(b.secretKey);
  });

  it('refuses production without SECRET_KEY, and short keys anywhere', () => {
    expect(problemsOf({ NODE_ENV: 'production', PRIVATE_KEY_ENCRYPTION_KEY: KEY_B64 })).toEqual([
      'Invalid configuration: SECRET_KEY is required when NODE_ENV=production (use at least 32 random characters)',
    ]);
    const short = problemsOf({ SECRET_KEY: 'too-short-secret' });
    expect(short).toHaveLength(1);
    expect(short[0]).toContain('SECRET_KEY must be at least 32 characters long (got 16)');
    expect(short[0]).not.toContain('too-short-secret');
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer from 1 to 65535 (got "abc")'],
    ['PORT', '0', 'PORT must be an integer from 1 to 65535 (got "0")'],
    ['PORT', '8000.5', 'PORT must be an integer'],
    ['ACCESS_TOKEN_EXPIRE_MINUTES', '-1', 'ACCESS_TOKEN_EXPIRE_MINUTES must be an integer'],
    ['CA_KEY_SIZE', '1024', 'CA_KEY_SIZE must be one of 2048, 3072, 4096, 8192'],
    ['CERT_DAYS', '0', 'CERT_DAYS must be an integer from 1 to 36500'],
    ['ISSUER_EXPIRY_BEHAVIOR', 'clamp', 'ISSUER_EXPIRY_BEHAVIOR must be one of truncate, err (got "clamp")'],
    ['ALGORITHM', 'RS256', 'ALGORITHM must be one of HS256, HS384, HS512'],
    ['ALLOW_UNAUTHENTICATED_REGISTRATION', 'maybe', 'ALLOW_UNAUTHENTICATED_REGISTRATION must be true or false'],
    ['API_V1_STR', 'api/v1/', 'API_V1_STR must be a path such as /api/v1'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL must be one of'],
    ['NODE_ENV', 'staging', 'NODE_ENV must be one of development, production, test'],
    ['BACKEND_CORS_ORIGINS', 'not a url', 'BACKEND_CORS_ORIGINS must list origins'],
    ['BACKEND_CORS_ORIGINS', '["https://a.example", 3]', 'BACKEND_CORS_ORIGINS must be a comma-separated list or a JSON array'],
    ['TRUST_PROXY', '10.0.0.0/33', 'TRUST_PROXY must be true, false, a hop count'],
    ['DATABASE_URL', 'mysql://root@db/x', 'DATABASE_URL must be a postgres:// or postgresql:// URL with a host'],
    ['AUTH_ADDRESS_RATE_LIMIT', '20', 'AUTH_ADDRESS_RATE_LIMIT must look like 5/minute'],
    ['AUTH_USERNAME_RATE_LIMIT', '0/hour', 'AUTH_USERNAME_RATE_LIMIT must look like 5/minute'],
    ['BOOTSTRAP_TOKEN', 'too-short', 'BOOTSTRAP_TOKEN must be at least 16 characters long (got 9)'],
    ['EGRESS_ALLOW', '10.0.0.0/33', 'EGRESS_ALLOW must list addresses, CIDRs and host names: "10.0.0.0/33" is not an address or CIDR'],
    ['EGRESS_ALLOW', 'http://hooks.example', 'EGRESS_ALLOW must list addresses, CIDRs and host names'],
    ['ACME_DNS_RESOLVERS', 'dns.example', 'ACME_DNS_RESOLVERS "dns.example": must be an IP address, optionally with :port'],
    ['ACME_DNS_RESOLVERS', '10.0.0.53:70000', 'ACME_DNS_RESOLVERS "10.0.0.53:70000": the port must be 1-65535'],
    ['WEBHOOK_CA_DIR', 'relative/cas', 'WEBHOOK_CA_DIR must be an absolute path'],
    ['WEBHOOK_CA_DIR', '/nonexistent/cas', 'WEBHOOK_CA_DIR /nonexistent/cas does not exist or cannot be read'],
  ])('rejects %s=%s naming the variable', (name, value, expected) => {
    const lines = problemsOf({ [name]: value });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Invalid configuration: ${expected}`);
  });

  it('requires a private-key encryption key in production and reads base64 or hex keys', () => {
    const lines = problemsOf({ NODE_ENV: 'production', SECRET_KEY: 'x'.repeat(40) });
    expect(lines).toEqual([
      'Invalid configuration: PRIVATE_KEY_ENCRYPTION_KEY is required when NODE_ENV=production (32 random bytes, base64: openssl rand -base64 32)',
    ]);
    expect(readConfig({ PRIVATE_KEY_ENCRYPTION_KEY: KEY_B64 }).config.privateKeyEncryptionKey).toEqual(Buffer.alloc(32, 7));
    const hex = 'ab'.repeat(32);
    expect(readConfig({ PRIVATE_KEY_ENCRYPTION_KEY: hex }).config.privateKeyEncryptionKey).toEqual(Buffer.from(hex, 'hex'));
    expect(readConfig({ PRIVATE_KEY_ENCRYPTION_OLD_KEYS: `${KEY_B64},${hex}` }).config.privateKeyEncryptionOldKeys).toHaveLength(2);
    for (const bad of ['short', Buffer.alloc(16).toString('base64'), 'zz'.repeat(32)]) {
      const problems = problemsOf({ PRIVATE_KEY_ENCRYPTION_KEY: bad });
      expect(problems).toEqual([
        'Invalid configuration: PRIVATE_KEY_ENCRYPTION_KEY must be 32 bytes as base64 (openssl rand -base64 32) or 64 hex characters',
      ]);
    }
  });

  it('reads PUBLIC_BASE_URL without its trailing slash and rejects other schemes', () => {
    expect(readConfig({ PUBLIC_BASE_URL: 'https://pki.example.com/' }).config.publicBaseUrl).toBe('https://pki.example.com');
    expect(problemsOf({ PUBLIC_BASE_URL: 'ftp://pki.example.com' })[0]).toContain('PUBLIC_BASE_URL must be an http(s) URL');
  });

  it('reads the database timeouts, with defaults that end a hung request in seconds', () => {
    expect(readConfig({}).config.databaseTimeouts).toEqual({ statementMs: 5000, lockMs: 3000, connectMs: 5000 });
    expect(readConfig({ DATABASE_LOCK_TIMEOUT_MS: '250' }).config.databaseTimeouts.lockMs).toBe(250);
    expect(problemsOf({ DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_CONNECT_TIMEOUT_MS: 'soon' })).toHaveLength(2);
  });

  it('reports every bad variable at once', () => {
    expect(problemsOf({ PORT: 'x', CERT_DAYS: 'y', ALGORITHM: 'z' })).toHaveLength(3);
  });

  it('parses booleans, lists and proxy settings in their usual spellings', () => {
    const { config } = readConfig({
      ALLOW_UNAUTHENTICATED_REGISTRATION: 'TRUE',
      MIGRATE_ON_START: '0',
      BACKEND_CORS_ORIGINS: '["https://a.example", "http://localhost:3000/"]',
      TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::1',
      LOG_LEVEL: 'WARNING',
      ALGORITHM: 'hs512',
      DATABASE_URL: 'postgresql://app:pw@db.internal:5433/pki',
    });
    expect(config.allowUnauthenticatedRegistration).toBe(true);
    expect(config.migrateOnStart).toBe(false);
    expect(config.backendCorsOrigins).toEqual(['https://a.example', 'http://localhost:3000']);
    expect(config.trustProxy).toEqual(['loopback', '10.0.0.0/8', 'fd00::1']);
    expect(config.logLevel).toBe('warn');
    expect(config.algorithm).toBe('HS512');
    expect(config.databaseUrl).toBe('postgresql://app:pw@db.internal:5433/pki');
    expect(readConfig({ TRUST_PROXY: '2' }).config.trustProxy).toBe(2);
    expect(readConfig({ BACKEND_CORS_ORIGINS: 'https://a.example,https://b.example' }).config.backendCorsOrigins).toHaveLength(2);
  });

  it('reads the EST client-certificate header with its trusted proxies, and refuses either without the other', () => {
    expect(readConfig({}).config.est).toEqual({ clientCertHeader: undefined, trustedProxies: [] });
    const { config } = readConfig({ EST_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', EST_TRUSTED_PROXIES: '10.0.0.5, fd00::/8' });
    expect(config.est).toEqual({ clientCertHeader: 'x-ssl-client-cert', trustedProxies: ['10.0.0.5', 'fd00::/8'] });
    expect(problemsOf({ EST_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert' })[0]).toContain('EST_TRUSTED_PROXIES must list the ingress addresses');
    expect(problemsOf({ EST_TRUSTED_PROXIES: '10.0.0.5' })[0]).toContain('EST_CLIENT_CERT_HEADER must name the client-certificate header');
    expect(problemsOf({ EST_CLIENT_CERT_HEADER: 'X Cert', EST_TRUSTED_PROXIES: '10.0.0.5' })[0]).toContain(
      'EST_CLIENT_CERT_HEADER must be an HTTP header name',
    );
    expect(problemsOf({ EST_CLIENT_CERT_HEADER: 'X-Cert', EST_TRUSTED_PROXIES: 'loopback' })[0]).toContain(
      'EST_TRUSTED_PROXIES must list addresses and CIDRs (got "loopback")',
    );
  });

  it('reads EGRESS_ALLOW and WEBHOOK_CA_DIR, denying everything internal and every CA file by default', () => {
    expect(readConfig({}).config.egress).toEqual({ allow: [], caDirectory: undefined });
    const { config } = readConfig({ EGRESS_ALLOW: '10.0.0.0/8, mail-worker,::1', WEBHOOK_CA_DIR: tmpdir() });
    expect(config.egress).toEqual({ allow: ['10.0.0.0/8', 'mail-worker', '::1'], caDirectory: realpathSync(tmpdir()) });
  });

  it('reads ACME_DNS_RESOLVERS as addresses with optional ports, the system resolvers by default', () => {
    expect(readConfig({}).config.acme.dnsResolvers).toEqual([]);
    const { config } = readConfig({ ACME_DNS_RESOLVERS: '10.0.0.53, 127.0.0.1:5353,[::1]:53,fd00::53' });
    expect(config.acme.dnsResolvers).toEqual(['10.0.0.53', '127.0.0.1:5353', '[::1]:53', 'fd00::53']);
  });

  it('treats empty values as unset', () => {
    expect(readConfig({ PORT: '', DATABASE_URL: '  ' }).config).toMatchObject({ port: 8000, databaseUrl: undefined });
  });

  it('reads MAX_BODY_SIZE in bytes within its bounds, 2.5 MB by default', () => {
    expect(readConfig({}).config.maxBodySize).toBe(2_621_440);
    expect(readConfig({ MAX_BODY_SIZE: '10485760' }).config.maxBodySize).toBe(10_485_760);
    expect(problemsOf({ MAX_BODY_SIZE: '100' })[0]).toContain('MAX_BODY_SIZE must be an integer from 1024 to 104857600');
  });

  it('reads the GraphQL limits, with defaults that refuse a document of more than 100 root fields', () => {
    expect(readConfig({}).config.graphqlLimits).toEqual({
      maxCost: 100_000,
      maxRootFields: 100,
      maxResponseBytes: 16_777_216,
      rootFieldConcurrency: 4,
    });
    const set = readConfig({
      GRAPHQL_MAX_COST: '5000',
      GRAPHQL_MAX_ROOT_FIELDS: '20',
      GRAPHQL_MAX_RESPONSE_BYTES: '1048576',
      GRAPHQL_ROOT_FIELD_CONCURRENCY: '2',
    }).config.graphqlLimits;
    expect(set).toEqual({ maxCost: 5000, maxRootFields: 20, maxResponseBytes: 1_048_576, rootFieldConcurrency: 2 });
    expect(problemsOf({ GRAPHQL_MAX_ROOT_FIELDS: '0' })[0]).toContain('GRAPHQL_MAX_ROOT_FIELDS must be an integer from 1 to 10000');
  });

  it('reads WEB_CONCURRENCY as a process count, unset meaning one per CPU', () => {
    expect(readConfig({}).config.webConcurrency).toBeUndefined();
    expect(readConfig({ WEB_CONCURRENCY: '1' }).config.webConcurrency).toBe(1);
    expect(readConfig({ WEB_CONCURRENCY: '4' }).config.webConcurrency).toBe(4);
    for (const bad of ['0', 'auto', '1.5']) {
      expect(problemsOf({ WEB_CONCURRENCY: bad })).toEqual([
        `Invalid configuration: WEB_CONCURRENCY must be an integer from 1 to 256 (got "${bad}")`,
      ]);
    }
  });

  it('reads PLUGINS: unset means every available plugin, empty means none', () => {
    expect(readConfig({}).config.plugins).toBeUndefined();
    expect(readConfig({ PLUGINS: '' }).config.plugins).toEqual([]);
    expect(readConfig({ PLUGINS: 'routing, fms,routing' }).config.plugins).toEqual(['routing', 'fms']);
    expect(readConfig({ PLUGINS: '["routing"]' }).config.plugins).toEqual(['routing']);
    expect(problemsOf({ PLUGINS: 'Routing' })).toEqual([
      'Invalid configuration: PLUGINS must name plugins in lowercase letters and digits, comma-separated (got "Routing")',
    ]);
  });

  it('keeps the PLUGIN_<NAME>_<SETTING> variables for the plugins to read', () => {
    const { config } = readConfig({ PLUGIN_FMS_MAX_STRANDS: '864', PLUGINS_EXTRA: 'x', PLUGIN_: 'y' });
    expect(config.pluginVariables).toEqual({ PLUGIN_FMS_MAX_STRANDS: '864' });
  });

  it('is frozen', () => {
    const { config } = readConfig({});
    expect(() => Object.assign(config, { port: 1 })).toThrow(TypeError);
  });

  it('has every variable it reads documented in docs/configuration.md', () => {
    const docs = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'configuration.md'), 'utf8');
    const { variables } = readConfig({});
    expect(variables.length).toBeGreaterThan(15);
    expect(variables.filter((name) => !docs.includes(`\`${name}\``))).toEqual([]);
  });
});
