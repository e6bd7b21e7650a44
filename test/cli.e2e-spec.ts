import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, createBootstrapSuperuser, PASSWORD } from './support/api-client';
import { OpensslWorkspace } from './support/openssl';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The built `pki` binary (dist/libs/cli/main.js, so `nest build` must have run) against a live app,
 * one child process per command, with its own config directory. Tests run in order and build on
 * each other: login, then organizations, CAs, certificates, …, logout.
 */

const CLI_ENTRY = join(__dirname, '..', 'dist', 'libs', 'cli', 'main.js');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('pki command-line client', () => {
  let testApp: TestApp;
  let configHome: string;
  let ssl: OpensslWorkspace;
  let baseEnv: NodeJS.ProcessEnv;

  /** Runs `pki …` with stdin closed (so never a TTY) and resolves with its exit status and output. */
  function pki(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [CLI_ENTRY, ...args],
        { env: { ...baseEnv, ...env }, cwd: ssl.dir },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
      child.stdin?.end();
    });
  }

  /** Runs a command that must succeed and parses its `-o json` output. */
  async function pkiJson(args: string[]): Promise<any> {
    const result = await pki([...args, '-o', 'json']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(result.stdout);
  }

  function storedConfig(): any {
    return JSON.parse(readFileSync(join(configHome, 'pki', 'config.json'), 'utf8'));
  }

  beforeAll(async () => {
    if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run "npx nest build" first`);
    testApp = await startTestApp({ env: { AUTH_RATE_LIMIT: '1000/minute', AUTH_ADDRESS_RATE_LIMIT: '1000/minute', CA_KEY_SIZE: '2048' } });
    await createBootstrapSuperuser(new ApiClient(testApp.baseUrl));
    configHome = mkdtempSync(join(tmpdir(), 'pki-cli-config-'));
    ssl = new OpensslWorkspace();
    const inherited = { ...process.env };
    delete inherited.PKI_TOKEN;
    baseEnv = { ...inherited, XDG_CONFIG_HOME: configHome, PKI_SERVER_URL: testApp.baseUrl };
  });

  afterAll(async () => {
    ssl?.dispose();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
    await testApp?.close();
  });

  let orgId: number;
  let rootCaId: number;
  let issuingCaId: number;
  let leafId: number;

  it('rejects a wrong password with the API message and exit status 1', async () => {
    expect(await pki(['auth', 'login', '-u', 'root', '-p', 'wrong-password'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error 401: Incorrect username or password\n',
    });
    expect(existsSync(join(configHome, 'pki', 'config.json'))).toBe(false);
  });

  it('logs in and stores both tokens in a 0600 file', async () => {
    const result = await pki(['auth', 'login', '-u', 'root', '-p', PASSWORD]);
    expect(result).toEqual({ code: 0, stdout: `Logged in to ${testApp.baseUrl} as root.\n`, stderr: '' });
    const path = join(configHome, 'pki', 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(storedConfig().auth).toEqual({ token: expect.stringMatching(/^ey/), refresh_token: expect.any(String) });
  });

  it('shows the auth status: server, user and token expiry', async () => {
    const result = await pki(['auth', 'status']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^Server:  ${testApp.baseUrl}\nUser:    root \\(superuser\\)\nExpires: \\d{4}-\\d\\d-\\d\\dT.*\\(in \\d+ min\\)\n$`),
    );
  });

  it('creates an organization and a user in it', async () => {
    const org = await pkiJson(['org', 'create', '--name', 'CLI Org', '--description', 'made by the CLI']);
    expect(org).toMatchObject({ name: 'CLI Org', description: 'made by the CLI' });
    orgId = org.id;
    const user = await pkiJson([
      'user',
      'create',
      '--username',
      'alice',
      '--email',
      'alice@example.com',
      '--password',
      PASSWORD,
      '--org',
      String(orgId),
      '--can-create-cert',
    ]);
    expect(user).toMatchObject({ username: 'alice', organization_id: orgId, role: 'user', can_create_cert: true, can_create_ca: false });
    const members = await pkiJson(['org', 'users', String(orgId)]);
    expect(members.map((member: any) => member.username)).toEqual(['alice']);
  });

  it('prints aligned tables by default', async () => {
    const result = await pki(['org', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `ID  NAME     DESCRIPTION      CREATED_AT\n${String(orgId).padEnd(2)}  CLI Org  made by the CLI  ${(await pkiJson(['org', 'show', String(orgId)])).created_at}\n`,
    );
  });

  it('creates a root and an intermediate CA', async () => {
    const root = await pkiJson(['ca', 'create', '--name', 'CLI Root', '--subject-dn', 'CN=CLI Root,O=Test', '--key-type', 'ecdsa-p256']);
    expect(root).toMatchObject({ name: 'CLI Root', is_root: true, key_type: 'ecdsa-p256' });
    rootCaId = root.id;
    const issuing = await pkiJson([
      'ca',
      'create',
      '--name',
      'CLI Issuing',
      '--subject-dn',
      'CN=CLI Issuing,O=Test',
      '--key-type',
      'ecdsa-p256',
      '--parent',
      String(rootCaId),
      '--valid-days',
      '1000',
    ]);
    expect(issuing).toMatchObject({ name: 'CLI Issuing', is_root: false, parent_ca_id: rootCaId });
    issuingCaId = issuing.id;
    const chain = await pkiJson(['ca', 'chain', String(issuingCaId)]);
    expect(chain.map((ca: any) => ca.id)).toEqual([issuingCaId, rootCaId]);
  });

  it('issues a certificate with repeated SAN options', async () => {
    const leaf = await pkiJson([
      'cert',
      'create',
      '--ca',
      String(issuingCaId),
      '--cn',
      'www.cli.test',
      '--type',
      'server',
      '--key-type',
      'ecdsa-p256',
      '--san-dns',
      'www.cli.test',
      '--san-dns',
      'cli.test',
      '--san-ip',
      '192.0.2.7',
      '--valid-days',
      '30',
    ]);
    expect(leaf).toMatchObject({
      common_name: 'www.cli.test',
      certificate_type: 'server',
      issuer_id: issuingCaId,
      san_dns_names: ['www.cli.test', 'cli.test'],
      san_ip_addresses: ['192.0.2.7'],
      private_key: expect.stringContaining('PRIVATE KEY'),
    });
    leafId = leaf.id;
  });

  it('signs a CSR made by openssl', async () => {
    const made = ssl.run(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'csr-key.pem',
      '-out',
      'request.csr',
      '-subj',
      '/CN=csr.cli.test',
    );
    expect(made.status).toBe(0);
    const signed = await pkiJson(['cert', 'sign-csr', join(ssl.dir, 'request.csr'), '--ca', 'CLI Issuing', '--type', 'server']);
    expect(signed).toMatchObject({ common_name: 'csr.cli.test', issuer_id: issuingCaId, origin: 'csr', san_dns_names: ['csr.cli.test'] });
    expect(signed.private_key).toBeUndefined();
  });

  it('exports the certificate chain to a file that openssl verifies against the root', async () => {
    expect(await pki(['export', 'cert-chain', String(leafId), '--file', 'chain.pem'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Wrote chain.pem\n',
    });
    const root = await pki(['export', 'ca-cert', String(rootCaId)]);
    expect(root.code).toBe(0);
    ssl.write('root.pem', root.stdout);
    expect(ssl.run('verify', '-CAfile', 'root.pem', '-untrusted', 'chain.pem', 'chain.pem')).toEqual({
      status: 0,
      output: 'chain.pem: OK\n',
    });
  });

  it('refuses to revoke without --force when stdin is not a terminal', async () => {
    const result = await pki(['cert', 'revoke', String(leafId)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/use --force/);
    expect((await pkiJson(['cert', 'show', String(leafId)])).status).not.toBe('revoked');
  });

  it('revokes with --force and a reason', async () => {
    const revoked = await pkiJson(['cert', 'revoke', String(leafId), '--force', '-r', 'keyCompromise']);
    expect(revoked).toMatchObject({ id: leafId, status: 'revoked', revocation_reason: 'keyCompromise' });
  });

  it('lists audit entries as JSON, filtered', async () => {
    const entries = await pkiJson(['audit', 'list', '--action', 'cert_revoke']);
    expect(entries).toEqual([
      expect.objectContaining({ action: 'cert_revoke', resource_type: 'certificate', resource_id: leafId, username: 'root' }),
    ]);
    const failures = await pkiJson(['audit', 'list', '--action', 'login_failure', '--limit', '5']);
    expect(failures).toEqual([expect.objectContaining({ action: 'login_failure', username: 'root' })]);
  });

  it('creates a service account with a token and an issuance policy', async () => {
    const account = await pkiJson(['service-account', 'create', '--name', 'ci-bot', '--org', String(orgId), '--can-create-cert']);
    expect(account).toMatchObject({ name: 'ci-bot', organization_id: orgId, can_create_cert: true, disabled: false });
    const token = await pkiJson(['service-account', 'token', 'create', String(account.id), '--name', 'deploy']);
    expect(token).toMatchObject({ name: 'deploy', token: expect.stringMatching(/^pki_sa_/) });
    const policy = await pkiJson([
      'service-account',
      'policy',
      'set',
      String(account.id),
      '--max-validity-days',
      '30',
      '--cn-pattern',
      '*.cli.test',
      '--allowed-ca',
      String(issuingCaId),
      '--allowed-type',
      'server',
    ]);
    expect(policy).toMatchObject({
      service_account_id: account.id,
      cn_patterns: ['*.cli.test'],
      allowed_ca_ids: [issuingCaId],
      allowed_certificate_types: ['server'],
      max_validity_days: 30,
    });
    const tokens = await pkiJson(['service-account', 'token', 'list', String(account.id)]);
    expect(tokens).toEqual([expect.not.objectContaining({ token: expect.anything() })]);
  });

  it('reports an unknown ID as the API 404 with exit status 1', async () => {
    expect(await pki(['ca', 'show', '999999'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error 404: Certificate Authority with ID 999999 not found\n',
    });
  });

  it('refreshes an access token the server refuses, saves the new pair and retries', async () => {
    const before = storedConfig().auth;
    expect((await pki(['config', 'set', 'auth.token', 'not-a-valid-token'])).code).toBe(0);
    expect((await pkiJson(['user', 'me'])).username).toBe('root');
    const after = storedConfig().auth;
    expect(after.token).toMatch(/^ey/);
    expect(after.refresh_token).not.toBe(before.refresh_token);
  });

  it('manages the configuration file: set, get, unset, path', async () => {
    expect(await pki(['config', 'path'])).toEqual({ code: 0, stdout: `${join(configHome, 'pki', 'config.json')}\n`, stderr: '' });
    expect((await pki(['config', 'set', 'defaults.cert_valid_days', '45'])).code).toBe(0);
    expect(storedConfig().defaults).toEqual({ cert_valid_days: 45 });
    expect(await pki(['config', 'get', 'defaults.cert_valid_days'])).toEqual({ code: 0, stdout: '45\n', stderr: '' });
    expect(await pki(['config', 'set', 'defaults.cert_valid_days', 'soon'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/positive integer/),
    });
    expect(await pki(['config', 'set', 'colour', 'blue'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown configuration key 'colour'/),
    });
    expect((await pki(['config', 'unset', 'defaults.cert_valid_days'])).code).toBe(0);
    expect(await pki(['config', 'get', 'defaults.cert_valid_days'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: defaults.cert_valid_days is not set\n',
    });
    // The environment wins over the file.
    expect(await pki(['config', 'get', 'server.url'])).toEqual({ code: 0, stdout: `${testApp.baseUrl}\n`, stderr: '' });
  });

  it('takes the output format default from the configuration', async () => {
    expect((await pki(['config', 'set', 'defaults.output_format', 'json'])).code).toBe(0);
    const result = await pki(['ca', 'list']);
    expect(JSON.parse(result.stdout).map((ca: any) => ca.name)).toEqual(expect.arrayContaining(['CLI Root', 'CLI Issuing']));
    expect((await pki(['config', 'unset', 'defaults.output_format'])).code).toBe(0);
  });

  it('exits with status 2 on usage errors', async () => {
    const missing = await pki(['cert', 'create', '--ca', String(issuingCaId)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option '--cn <common_name>' not specified/);
    expect((await pki(['ca', 'show', 'abc'])).code).toBe(2);
    expect((await pki(['no-such-command'])).code).toBe(2);
    expect((await pki(['ca', 'list', '-o', 'yaml'])).code).toBe(2);
  });

  it('lists the options in --help', async () => {
    const result = await pki(['ca', 'create', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual(expect.stringContaining('--key-type <type>'));
    expect(result.stdout).toEqual(expect.stringContaining('-o, --output <format>'));
  });

  it('says which server it cannot reach', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const url = `http://127.0.0.1:${closedPort}`;
    const result = await pki(['ca', 'list'], { PKI_SERVER_URL: url });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^Error: cannot reach ${url}: .*ECONNREFUSED.*\n$`));
  });

  it('logs out: the server session ends and the stored tokens are gone', async () => {
    const { token } = storedConfig().auth;
    expect(await pki(['auth', 'logout'])).toEqual({ code: 0, stdout: 'Logged out.\n', stderr: '' });
    expect(storedConfig().auth).toBeUndefined();
    expect((await new ApiClient(testApp.baseUrl).get('/users/me', token)).status).toBe(401);
    expect(await pki(['user', 'me'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Error 401: /) });
  });
});
