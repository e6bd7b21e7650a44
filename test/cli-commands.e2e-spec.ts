import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, createBootstrapSuperuser, Fixture, PASSWORD } from './support/api-client';
import { OpensslWorkspace } from './support/openssl';
import { startTestApp, TestApp } from './support/test-app';
import { expectPkcs8PrivateKey } from './support/private-key';

/**
 * The commands of the built `pki` binary that test/cli.e2e-spec.ts does not run: deletions, organization
 * membership, CA children/private key/assignment, certificate private key/renewal/serial lookup/listing,
 * exports, and the service-account lifecycle. Each command runs as its own child process against a live
 * app; results are checked in the output (mostly `-o json`) and in the server state through the API.
 * Tests run in order and build on each other.
 */

const CLI_ENTRY = join(__dirname, '..', 'dist', 'libs', 'cli', 'main.js');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('pki command-line client: the remaining commands', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let root: Fixture;
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
  async function pkiJson(args: string[], env: NodeJS.ProcessEnv = {}): Promise<any> {
    const result = await pki([...args, '-o', 'json'], env);
    expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
    return JSON.parse(result.stdout);
  }

  /** The public key of a PEM private key or certificate, as openssl prints it. */
  function publicKeyOf(pem: string, kind: 'key' | 'cert'): string {
    const file = ssl.write(`pub-${Math.random().toString(36).slice(2)}.pem`, pem);
    const result = kind === 'key' ? ssl.run('pkey', '-in', file, '-pubout') : ssl.run('x509', '-in', file, '-noout', '-pubkey');
    expect(result.status).toBe(0);
    return result.output;
  }

  function makeCsr(name: string, commonName: string): { csrFile: string; keyFile: string } {
    const made = ssl.run(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${commonName}`,
    );
    expect(made.status).toBe(0);
    return { csrFile: join(ssl.dir, `${name}.csr`), keyFile: join(ssl.dir, `${name}.key`) };
  }

  beforeAll(async () => {
    if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run "npx nest build" first`);
    testApp = await startTestApp({ env: { AUTH_RATE_LIMIT: '1000/minute', AUTH_ADDRESS_RATE_LIMIT: '1000/minute', CA_KEY_SIZE: '2048' } });
    api = new ApiClient(testApp.baseUrl);
    root = await createBootstrapSuperuser(api);
    configHome = mkdtempSync(join(tmpdir(), 'pki-cli-config-'));
    ssl = new OpensslWorkspace();
    const inherited = { ...process.env };
    delete inherited.PKI_TOKEN;
    baseEnv = { ...inherited, XDG_CONFIG_HOME: configHome, PKI_SERVER_URL: testApp.baseUrl };
    const login = await pki(['auth', 'login', '-u', 'root', '-p', PASSWORD]);
    if (login.code !== 0) throw new Error(`pki auth login failed: ${login.code} ${login.stderr}`);
  });

  afterAll(async () => {
    ssl?.dispose();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
    await testApp?.close();
  });

  describe('capability flags of a superuser', () => {
    it('user me in table output says what a bootstrapped superuser may do; -o json keeps the stored flags', async () => {
      const stored = await pkiJson(['user', 'me']);
      expect(stored).toMatchObject({ role: 'superuser', can_create_ca: false, can_delete_ca: false });
      const table = await pki(['user', 'me']);
      expect(table.code).toBe(0);
      for (const flag of ['can_create_ca', 'can_create_cert', 'can_revoke_cert', 'can_export_private_key', 'can_delete_ca']) {
        expect(table.stdout).toMatch(new RegExp(`^${flag}: +true \\(superusers bypass capability flags; flag: false\\)$`, 'm'));
      }
    });
  });

  describe('users and organizations', () => {
    let orgId: number;
    let bobId: number;

    it('org add-user puts an organization-less user into the organization', async () => {
      orgId = (await pkiJson(['org', 'create', '--name', 'Membership Org'])).id;
      const bob = await pkiJson(['user', 'create', '--username', 'bob', '--email', 'bob@example.com', '--password', PASSWORD]);
      expect(bob.organization_id).toBeNull();
      bobId = bob.id;

      const added = await pkiJson(['org', 'add-user', String(orgId), String(bobId)]);
      expect(added).toMatchObject({ id: bobId, username: 'bob', organization_id: orgId });
      expect((await api.get(`/users/${bobId}`, root.token)).body.organization_id).toBe(orgId);
      expect((await pkiJson(['org', 'users', String(orgId)])).map((user: any) => user.id)).toEqual([bobId]);
    });

    it('org remove-user takes the user out again', async () => {
      const removed = await pkiJson(['org', 'remove-user', String(orgId), String(bobId)]);
      expect(removed).toMatchObject({ id: bobId, organization_id: null });
      expect((await api.get(`/users/${bobId}`, root.token)).body.organization_id).toBeNull();
      expect(await pkiJson(['org', 'users', String(orgId)])).toEqual([]);
      // A second removal: the user is no longer a member.
      expect(await pki(['org', 'remove-user', String(orgId), String(bobId)])).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(/^Error 404: /),
      });
    });

    it('org delete refuses without --force on a non-terminal, then deletes the (now empty) organization with --force', async () => {
      const refused = await pki(['org', 'delete', String(orgId)]);
      expect(refused).toMatchObject({ code: 2, stdout: '' });
      expect(refused.stderr).toMatch(/use --force/);
      expect((await api.get(`/organizations/${orgId}`, root.token)).status).toBe(200);

      expect(await pki(['org', 'delete', String(orgId), '--force'])).toEqual({
        code: 0,
        stdout: `Deleted organization ${orgId}.\n`,
        stderr: '',
      });
      expect((await api.get(`/organizations/${orgId}`, root.token)).status).toBe(404);
      expect(await pki(['org', 'show', String(orgId)])).toEqual({ code: 1, stdout: '', stderr: 'Error 404: Organization not found\n' });
    });

    it('user delete refuses without --force on a non-terminal (exit 2) and keeps the user', async () => {
      const refused = await pki(['user', 'delete', String(bobId)]);
      expect(refused).toMatchObject({ code: 2, stdout: '' });
      expect(refused.stderr).toMatch(/refusing to delete user \d+ without confirmation: use --force/);
      expect((await api.get(`/users/${bobId}`, root.token)).status).toBe(200);
    });

    it('user delete --force deletes the user (table output: a note; -o json: nothing)', async () => {
      const bobToken = await api.token('bob', PASSWORD);
      expect(await pki(['user', 'delete', String(bobId), '--force'])).toEqual({ code: 0, stdout: `Deleted user ${bobId}.\n`, stderr: '' });
      expect((await api.get(`/users/${bobId}`, root.token)).status).toBe(404);
      expect((await api.get('/users/me', bobToken)).status).toBe(401);
      expect(await pki(['user', 'show', String(bobId)])).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(/^Error 404: /),
      });

      const carol = await pkiJson(['user', 'create', '--username', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
      expect(await pki(['user', 'delete', String(carol.id), '--force', '-o', 'json'])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect((await api.get(`/users/${carol.id}`, root.token)).status).toBe(404);
    });
  });

  describe('CAs and certificates', () => {
    let rootCa: any;
    let childCa: any;
    let leaf: any;
    let renewedLeaf: any;
    let csrCert: any;
    let renewedCsrCert: any;

    it('ca children lists the direct child CAs', async () => {
      rootCa = await pkiJson(['ca', 'create', '--name', 'Cmd Root', '--subject-dn', 'CN=Cmd Root,O=Test', '--key-type', 'ecdsa-p256']);
      childCa = await pkiJson([
        'ca',
        'create',
        '--name',
        'Cmd Child',
        '--subject-dn',
        'CN=Cmd Child,O=Test',
        '--key-type',
        'ecdsa-p256',
        '--parent',
        String(rootCa.id),
        '--valid-days',
        '1000',
      ]);
      const children = await pkiJson(['ca', 'children', String(rootCa.id)]);
      expect(children).toEqual([expect.objectContaining({ id: childCa.id, name: 'Cmd Child', parent_ca_id: rootCa.id })]);
      expect(await pkiJson(['ca', 'children', String(childCa.id)])).toEqual([]);
    });

    it('ca private-key shows the CA with a private key matching its certificate, audit-logged', async () => {
      const withKey = await pkiJson(['ca', 'private-key', String(rootCa.id)]);
      expect(withKey).toMatchObject({ id: rootCa.id, name: 'Cmd Root' });
      expectPkcs8PrivateKey(withKey.private_key);
      expect(publicKeyOf(withKey.private_key, 'key')).toBe(publicKeyOf(rootCa.certificate, 'cert'));
      const audit = await pkiJson(['audit', 'list', '--action', 'ca_export_private_key']);
      expect(audit).toEqual([expect.objectContaining({ resource_type: expect.any(String), resource_id: rootCa.id, username: 'root' })]);
    });

    it('export ca-key --file writes a 0600 PEM that openssl parses', async () => {
      expect(await pki(['export', 'ca-key', String(rootCa.id), '--file', 'root-ca.key'])).toEqual({
        code: 0,
        stdout: '',
        stderr: 'Wrote root-ca.key\n',
      });
      const path = join(ssl.dir, 'root-ca.key');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(ssl.run('pkey', '-in', path, '-noout').status).toBe(0);
      expect(publicKeyOf(readFileSync(path, 'utf8'), 'key')).toBe(publicKeyOf(rootCa.certificate, 'cert'));
    });

    it('ca delete refuses a CA with a child: Error 409, exit 1, and the CA stays', async () => {
      const refused = await pki(['ca', 'delete', String(rootCa.id)]);
      expect(refused).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/use --force/) });

      const conflict = await pki(['ca', 'delete', String(rootCa.id), '--force']);
      expect(conflict.code).toBe(1);
      expect(conflict.stdout).toBe('');
      expect(conflict.stderr).toMatch(/^Error 409: .+\n$/);
      expect((await api.get(`/cas/${rootCa.id}`, root.token)).status).toBe(200);
    });

    it('cert private-key shows the certificate with its stored private key', async () => {
      leaf = await pkiJson([
        'cert',
        'create',
        '--ca',
        String(childCa.id),
        '--cn',
        'leaf.cmd.test',
        '--type',
        'server',
        '--key-type',
        'ecdsa-p256',
      ]);
      expect(leaf.private_key).toMatch(/PRIVATE KEY/);
      const withKey = await pkiJson(['cert', 'private-key', String(leaf.id)]);
      expect(withKey).toMatchObject({ id: leaf.id, common_name: 'leaf.cmd.test', private_key: leaf.private_key });
      expect(publicKeyOf(withKey.private_key, 'key')).toBe(publicKeyOf(leaf.certificate, 'cert'));
    });

    it('cert renew issues a successor of a server-key certificate with a fresh key', async () => {
      renewedLeaf = await pkiJson(['cert', 'renew', String(leaf.id)]);
      expect(renewedLeaf).toMatchObject({
        renewed_from_id: leaf.id,
        common_name: 'leaf.cmd.test',
        issuer_id: childCa.id,
        certificate_type: 'server',
        status: 'valid',
        private_key: expect.stringMatching(/PRIVATE KEY/),
      });
      expect(renewedLeaf.id).not.toBe(leaf.id);
      expect(renewedLeaf.serial_number).not.toBe(leaf.serial_number);
      expect(renewedLeaf.private_key).not.toBe(leaf.private_key);
      expect(publicKeyOf(renewedLeaf.private_key, 'key')).toBe(publicKeyOf(renewedLeaf.certificate, 'cert'));
      expect((await pkiJson(['cert', 'show', String(leaf.id)])).renewed_to_ids).toEqual([renewedLeaf.id]);
    });

    it('cert renew --csr renews a CSR-origin certificate with the new key (and without --csr is refused)', async () => {
      const first = makeCsr('first', 'csr.cmd.test');
      csrCert = await pkiJson(['cert', 'sign-csr', first.csrFile, '--ca', String(childCa.id), '--type', 'server']);
      expect(csrCert).toMatchObject({ origin: 'csr', common_name: 'csr.cmd.test' });

      const missing = await pki(['cert', 'renew', String(csrCert.id)]);
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toMatch(/^Error 400: .*csr_required_for_csr_origin_cert.*\n$/);

      const second = makeCsr('second', 'csr.cmd.test');
      renewedCsrCert = await pkiJson(['cert', 'renew', String(csrCert.id), '--csr', second.csrFile]);
      expect(renewedCsrCert).toMatchObject({
        renewed_from_id: csrCert.id,
        origin: 'csr',
        common_name: 'csr.cmd.test',
        issuer_id: childCa.id,
        private_key: null,
      });
      expect(publicKeyOf(renewedCsrCert.certificate, 'cert')).toBe(publicKeyOf(readFileSync(second.keyFile, 'utf8'), 'key'));
      expect(publicKeyOf(renewedCsrCert.certificate, 'cert')).not.toBe(publicKeyOf(readFileSync(first.keyFile, 'utf8'), 'key'));

      const unreadable = await pki(['cert', 'renew', String(csrCert.id), '--csr', 'no-such-file.csr']);
      expect(unreadable).toMatchObject({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(/^Error: cannot read CSR file no-such-file\.csr: /),
      });
    });

    it('cert by-serial finds a certificate by its serial, also written upper-case with colons', async () => {
      const serial: string = leaf.serial_number;
      expect((await pkiJson(['cert', 'by-serial', serial])).id).toBe(leaf.id);
      const padded = serial.length % 2 ? `0${serial}` : serial;
      const colons = padded.toUpperCase().match(/../g)!.join(':');
      expect((await pkiJson(['cert', 'by-serial', colons])).id).toBe(leaf.id);
      expect(await pki(['cert', 'by-serial', 'abcdef0123456789'])).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(/^Error 404: /),
      });
    });

    it('cert list --ca lists only the certificates of that CA', async () => {
      const other = await pkiJson(['ca', 'create', '--name', 'Cmd Other', '--subject-dn', 'CN=Cmd Other', '--key-type', 'ecdsa-p256']);
      const otherCert = await pkiJson([
        'cert',
        'create',
        '--ca',
        String(other.id),
        '--cn',
        'other.cmd.test',
        '--type',
        'client',
        '--key-type',
        'ecdsa-p256',
      ]);

      const ofChild = await pkiJson(['cert', 'list', '--ca', String(childCa.id)]);
      expect(ofChild.map((cert: any) => cert.id).sort((a: number, b: number) => a - b)).toEqual(
        [leaf.id, renewedLeaf.id, csrCert.id, renewedCsrCert.id].sort((a, b) => a - b),
      );
      expect(ofChild.every((cert: any) => cert.issuer_id === childCa.id)).toBe(true);
      expect((await pkiJson(['cert', 'list', '--ca', String(other.id)])).map((cert: any) => cert.id)).toEqual([otherCert.id]);
      expect(await pkiJson(['cert', 'list', '--ca', String(rootCa.id)])).toEqual([]);
      const all = (await pkiJson(['cert', 'list'])).map((cert: any) => cert.id);
      expect(all).toEqual(expect.arrayContaining([leaf.id, otherCert.id]));
    });

    it('export cert writes the certificate PEM to stdout', async () => {
      const result = await pki(['export', 'cert', String(leaf.id)]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n?$/);
      expect(result.stdout.trim()).toBe(leaf.certificate.trim());
      const file = ssl.write('leaf.pem', result.stdout);
      expect(ssl.run('x509', '-in', file, '-noout', '-subject').output).toMatch(/CN ?= ?leaf\.cmd\.test/);
    });

    it("crl get prints a CA's current CRL (by ID or name, to stdout or --file), and ca show gives its CRL URL", async () => {
      expect(await pki(['cert', 'revoke', String(renewedLeaf.id), '--reason', 'keyCompromise', '--force', '-o', 'json'])).toMatchObject({
        code: 0,
      });
      const byId = await pki(['crl', 'get', String(childCa.id)]);
      expect(byId).toMatchObject({
        code: 0,
        stderr: '',
        stdout: expect.stringMatching(/^-----BEGIN X509 CRL-----\n[\s\S]+-----END X509 CRL-----\n?$/),
      });
      const crlFile = join(ssl.dir, 'child.crl.pem');
      expect(await pki(['crl', 'get', 'cmd child', '--file', crlFile])).toEqual({ code: 0, stdout: '', stderr: `Wrote ${crlFile}\n` });
      expect(readFileSync(crlFile, 'utf8')).toBe(byId.stdout);
      const text = ssl.run('crl', '-in', crlFile, '-noout', '-text');
      expect(text.status).toBe(0);
      expect(text.output).toMatch(/Issuer: .*CN ?= ?Cmd Child/);
      const serial = BigInt(`0x${renewedLeaf.serial_number}`).toString(16).toUpperCase();
      expect(text.output.replace(/:/g, '').toUpperCase()).toContain(serial);
      expect(text.output).toContain('Key Compromise');
      // The CRL a relying party fetches at the URL certificates carry is the one printed.
      const slug = `cmd-child-${childCa.id}`;
      expect((await pkiJson(['ca', 'show', String(childCa.id)])).crl_url).toBe(`${testApp.baseUrl}/crl/${slug}`);
      expect((await pki(['ca', 'show', String(childCa.id)])).stdout).toContain(`crl_url`);
      const published = await fetch(`${testApp.baseUrl}/crl/${slug}.pem`);
      expect(await published.text()).toBe(byId.stdout);
      expect(await pki(['crl', 'get', 'No Such CA'])).toEqual({
        code: 1,
        stdout: '',
        stderr: "Error: no CA named 'No Such CA' is visible to you\n",
      });
    });

    it('ca delete --force deletes a CA without children (and its certificates), after which its parent can go', async () => {
      expect(await pki(['ca', 'delete', String(childCa.id), '--force'])).toEqual({
        code: 0,
        stdout: `Deleted CA ${childCa.id}.\n`,
        stderr: '',
      });
      expect((await api.get(`/cas/${childCa.id}`, root.token)).status).toBe(404);
      expect((await api.get(`/certificates/${leaf.id}`, root.token)).status).toBe(404);
      expect(await pkiJson(['ca', 'children', String(rootCa.id)])).toEqual([]);
      expect(await pki(['ca', 'delete', String(rootCa.id), '--force', '-o', 'json'])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(await pki(['ca', 'show', String(rootCa.id)])).toEqual({
        code: 1,
        stdout: '',
        stderr: `Error 404: Certificate Authority with ID ${rootCa.id} not found\n`,
      });
    });
  });

  describe('CA organization assignment and service accounts', () => {
    let orgId: number;
    let treeRoot: any;
    let treeChild: any;
    let account: any;
    let token: any;

    it('ca assign-org --cascade moves an organization-less CA with its subtree and certificates', async () => {
      orgId = (await pkiJson(['org', 'create', '--name', 'Owning Org'])).id;
      treeRoot = await pkiJson([
        'ca',
        'create',
        '--name',
        'Tree Root',
        '--subject-dn',
        'CN=Tree Root',
        '--key-type',
        'ecdsa-p256',
        '--allow-leaf-certs',
      ]);
      treeChild = await pkiJson([
        'ca',
        'create',
        '--name',
        'Tree Child',
        '--subject-dn',
        'CN=Tree Child',
        '--key-type',
        'ecdsa-p256',
        '--parent',
        String(treeRoot.id),
        '--valid-days',
        '1000',
      ]);
      const rootCert = await pkiJson([
        'cert',
        'create',
        '--ca',
        String(treeRoot.id),
        '--cn',
        'r.tree.test',
        '--type',
        'server',
        '--key-type',
        'ecdsa-p256',
      ]);
      const childCert = await pkiJson([
        'cert',
        'create',
        '--ca',
        String(treeChild.id),
        '--cn',
        'c.tree.test',
        '--type',
        'server',
        '--key-type',
        'ecdsa-p256',
      ]);
      for (const item of [treeRoot, treeChild, rootCert, childCert]) expect(item.organization_id).toBeNull();

      const assigned = await pkiJson(['ca', 'assign-org', String(treeRoot.id), '--org', String(orgId), '--cascade']);
      expect(assigned).toMatchObject({ id: treeRoot.id, organization_id: orgId });
      expect((await api.get(`/cas/${treeRoot.id}`, root.token)).body.organization_id).toBe(orgId);
      expect((await api.get(`/cas/${treeChild.id}`, root.token)).body.organization_id).toBe(orgId);
      expect((await api.get(`/certificates/${rootCert.id}`, root.token)).body.organization_id).toBe(orgId);
      expect((await api.get(`/certificates/${childCert.id}`, root.token)).body.organization_id).toBe(orgId);
    });

    it('service-account update --disable stops its tokens, --enable lets them work again', async () => {
      account = await pkiJson(['service-account', 'create', '--name', 'cmd-bot', '--org', String(orgId), '--can-create-cert']);
      token = await pkiJson(['service-account', 'token', 'create', String(account.id), '--name', 'main']);
      expect(token.token).toMatch(/^pki_sa_/);
      const asAccount = { PKI_TOKEN: token.token };
      const visible = await pkiJson(['ca', 'list'], asAccount);
      expect(visible.map((ca: any) => ca.id).sort((a: number, b: number) => a - b)).toEqual(
        [treeRoot.id, treeChild.id].sort((a, b) => a - b),
      );

      const disabled = await pkiJson(['service-account', 'update', String(account.id), '--disable']);
      expect(disabled).toMatchObject({ id: account.id, disabled: true, disabled_at: expect.any(String) });
      expect((await api.get(`/service-accounts/${account.id}`, root.token)).body.disabled).toBe(true);
      expect(await pki(['ca', 'list'], asAccount)).toEqual({ code: 1, stdout: '', stderr: 'Error 401: Could not validate credentials\n' });

      const enabled = await pkiJson(['service-account', 'update', String(account.id), '--enable']);
      expect(enabled).toMatchObject({ id: account.id, disabled: false, disabled_at: null });
      expect((await api.get(`/service-accounts/${account.id}`, root.token)).body.disabled).toBe(false);
      expect((await pki(['ca', 'list', '-o', 'json'], asAccount)).code).toBe(0);

      expect((await pki(['service-account', 'update', String(account.id), '--disable', '--enable'])).code).toBe(2);
    });

    it('service-account token revoke: the revoked token then gets 401 as PKI_TOKEN', async () => {
      const refused = await pki(['service-account', 'token', 'revoke', String(account.id), String(token.id)]);
      expect(refused).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/use --force/) });
      expect((await pki(['ca', 'list', '-o', 'json'], { PKI_TOKEN: token.token })).code).toBe(0);

      expect(await pki(['service-account', 'token', 'revoke', String(account.id), String(token.id), '--force'])).toEqual({
        code: 0,
        stdout: `Revoked token ${token.id}.\n`,
        stderr: '',
      });
      expect(await pkiJson(['service-account', 'token', 'list', String(account.id)])).toEqual([
        expect.objectContaining({ id: token.id, revoked: true }),
      ]);
      expect(await pki(['ca', 'list'], { PKI_TOKEN: token.token })).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error 401: Could not validate credentials\n',
      });
    });

    it('service-account policy show, then policy clear --force (after which show is a 404)', async () => {
      const set = await pkiJson([
        'service-account',
        'policy',
        'set',
        String(account.id),
        '--max-validity-days',
        '20',
        '--cn-pattern',
        '*.tree.test',
        '--allowed-ca',
        String(treeChild.id),
      ]);
      const shown = await pkiJson(['service-account', 'policy', 'show', String(account.id)]);
      expect(shown).toEqual(set);
      expect(shown).toMatchObject({
        service_account_id: account.id,
        cn_patterns: ['*.tree.test'],
        allowed_ca_ids: [treeChild.id],
        max_validity_days: 20,
      });

      const refused = await pki(['service-account', 'policy', 'clear', String(account.id)]);
      expect(refused).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/use --force/) });
      expect((await api.get(`/service-accounts/${account.id}/policy`, root.token)).status).toBe(200);

      expect(await pki(['service-account', 'policy', 'clear', String(account.id), '--force'])).toEqual({
        code: 0,
        stdout: `Cleared the policy of service account ${account.id}.\n`,
        stderr: '',
      });
      expect(await pki(['service-account', 'policy', 'show', String(account.id)])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error 404: The service account has no issuance policy\n',
      });
    });

    it('service-account delete --force deletes the account and stops its remaining tokens', async () => {
      const second = await pkiJson(['service-account', 'token', 'create', String(account.id), '--name', 'second']);
      expect((await pki(['ca', 'list', '-o', 'json'], { PKI_TOKEN: second.token })).code).toBe(0);

      const refused = await pki(['service-account', 'delete', String(account.id)]);
      expect(refused).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/use --force/) });
      expect((await api.get(`/service-accounts/${account.id}`, root.token)).status).toBe(200);

      expect(await pki(['service-account', 'delete', String(account.id), '--force'])).toEqual({
        code: 0,
        stdout: `Deleted service account ${account.id}.\n`,
        stderr: '',
      });
      expect((await api.get(`/service-accounts/${account.id}`, root.token)).status).toBe(404);
      expect(await pki(['service-account', 'show', String(account.id)])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error 404: Service account not found\n',
      });
      expect(await pkiJson(['service-account', 'list'])).toEqual([]);
      expect(await pki(['ca', 'list'], { PKI_TOKEN: second.token })).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error 401: Could not validate credentials\n',
      });
    });
  });
  describe('version, private keys in table output, CA names, ca update, completion, help', () => {
    let polishCa: any;

    it('pki --version prints the package version', async () => {
      const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
      expect(await pki(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      expect(await pki(['-V'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    });

    it('ca create and cert create hide the private key in table output unless --show-private-key; -o json keeps it', async () => {
      const created = await pki(['ca', 'create', '--name', 'Polish CA', '--subject-dn', 'CN=Polish CA', '--key-type', 'ecdsa-p256']);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toMatch(/^private_key: +\(hidden: add --show-private-key, or use -o json\)$/m);
      expect(created.stdout).not.toMatch(/PRIVATE KEY/);
      polishCa = (await pkiJson(['ca', 'list'])).find((ca: any) => ca.name === 'Polish CA');

      const hidden = await pki([
        'cert',
        'create',
        '--ca',
        String(polishCa.id),
        '--cn',
        'hidden.polish.test',
        '--type',
        'server',
        '--key-type',
        'ecdsa-p256',
      ]);
      expect(hidden).toMatchObject({ code: 0, stderr: '' });
      expect(hidden.stdout).toMatch(/^private_key: +\(hidden: add --show-private-key, or use -o json\)$/m);
      expect(hidden.stdout).toMatch(/^-----BEGIN CERTIFICATE-----$/m);
      expect(hidden.stdout).not.toMatch(/PRIVATE KEY/);

      const shown = await pki([
        'cert',
        'create',
        '--ca',
        String(polishCa.id),
        '--cn',
        'shown.polish.test',
        '--type',
        'server',
        '--key-type',
        'ecdsa-p256',
        '--show-private-key',
      ]);
      expect(shown).toMatchObject({ code: 0, stderr: '' });
      expect(shown.stdout).toMatch(/^private_key:\n-----BEGIN PRIVATE KEY-----\n/m);

      const json = await pkiJson([
        'cert',
        'create',
        '--ca',
        String(polishCa.id),
        '--cn',
        'json.polish.test',
        '--type',
        'server',
        '--key-type',
        'ecdsa-p256',
      ]);
      expectPkcs8PrivateKey(json.private_key);
    });

    it('cert private-key, which exists to show the key, prints it in table output', async () => {
      const [certificate] = await pkiJson(['cert', 'list', '--ca', String(polishCa.id), '--limit', '1']);
      const result = await pki(['cert', 'private-key', String(certificate.id)]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^private_key:\n-----BEGIN PRIVATE KEY-----\n/m);
    });

    it('cert create --no-store-private-key in table output needs --show-private-key (the key is returned once), before any request', async () => {
      const before = (await pkiJson(['cert', 'list', '--ca', String(polishCa.id)])).length;
      const refused = await pki([
        'cert',
        'create',
        '--ca',
        String(polishCa.id),
        '--cn',
        'once.polish.test',
        '--type',
        'server',
        '--key-type',
        'ecdsa-p256',
        '--no-store-private-key',
      ]);
      expect(refused).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Error: --no-store-private-key returns the key only once: add --show-private-key, or use -o json\n',
      });
      expect((await pkiJson(['cert', 'list', '--ca', String(polishCa.id)])).length).toBe(before);

      const once = await pki([
        'cert',
        'create',
        '--ca',
        String(polishCa.id),
        '--cn',
        'once.polish.test',
        '--type',
        'server',
        '--key-type',
        'ecdsa-p256',
        '--no-store-private-key',
        '--show-private-key',
      ]);
      expect(once.code).toBe(0);
      expect(once.stdout).toMatch(/^private_key:\n-----BEGIN PRIVATE KEY-----\n/m);
    });

    it('cert create --ca takes a CA name (any case), and says when none or several CAs carry it', async () => {
      const byName = await pkiJson([
        'cert',
        'create',
        '--ca',
        'polish ca',
        '--cn',
        'named.polish.test',
        '--type',
        'client',
        '--key-type',
        'ecdsa-p256',
      ]);
      expect(byName).toMatchObject({ issuer_id: polishCa.id, common_name: 'named.polish.test' });

      expect(await pki(['cert', 'create', '--ca', 'No Such CA', '--cn', 'x.polish.test', '--type', 'server'])).toEqual({
        code: 1,
        stdout: '',
        stderr: "Error: no CA named 'No Such CA' is visible to you\n",
      });

      // A superuser sees CAs of every organization, where names may repeat.
      const orgId = (await pkiJson(['org', 'create', '--name', 'Polish Org'])).id;
      await pkiJson(['ca', 'update', String(polishCa.id), '--org', String(orgId)]);
      const twin = await pkiJson(['ca', 'create', '--name', 'Polish CA', '--subject-dn', 'CN=Polish CA twin', '--key-type', 'ecdsa-p256']);
      expect(await pki(['cert', 'create', '--ca', 'Polish CA', '--cn', 'x.polish.test', '--type', 'server'])).toEqual({
        code: 1,
        stdout: '',
        stderr: `Error: 2 CAs are named 'Polish CA' (IDs ${polishCa.id}, ${twin.id}): give the ID\n`,
      });
    });

    it('ca update --org assigns the organization; without a change, or --cascade without --org, it is a usage error', async () => {
      const orgId = (await pkiJson(['org', 'create', '--name', 'Update Org'])).id;
      const updated = await pkiJson(['ca', 'update', String(polishCa.id), '--org', String(orgId), '--cascade']);
      expect(updated).toMatchObject({ id: polishCa.id, organization_id: orgId });
      expect((await api.get(`/cas/${polishCa.id}`, root.token)).body.organization_id).toBe(orgId);
      const [issued] = await pkiJson(['cert', 'list', '--ca', String(polishCa.id), '--limit', '1']);
      expect(issued.organization_id).toBe(orgId);

      expect(await pki(['ca', 'update', String(polishCa.id)])).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Error: nothing to change: give --org or --allow-leaf-certs/--no-allow-leaf-certs\n',
      });
      expect(await pki(['ca', 'update', String(polishCa.id), '--cascade'])).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Error: --cascade needs --org\n',
      });
    });

    it('ca update --allow-leaf-certs / --no-allow-leaf-certs changes the leaf policy', async () => {
      expect(await pkiJson(['ca', 'update', String(polishCa.id), '--no-allow-leaf-certs'])).toMatchObject({
        id: polishCa.id,
        allow_leaf_certs: false,
        leaf_certs_allowed: false,
      });
      expect(
        await pki([
          'cert',
          'create',
          '--ca',
          String(polishCa.id),
          '--cn',
          'refused.polish.test',
          '--type',
          'server',
          '--key-type',
          'ecdsa-p256',
        ]),
      ).toMatchObject({ code: 1 });
      expect(await pkiJson(['ca', 'update', String(polishCa.id), '--allow-leaf-certs'])).toMatchObject({
        allow_leaf_certs: true,
        leaf_certs_allowed: true,
      });
      expect((await api.get(`/cas/${polishCa.id}`, root.token)).body.allow_leaf_certs).toBe(true);
    });

    it('cert create --type ca --path-length issues a CA-constrained certificate; sign-csr does not offer the ca type', async () => {
      const subCa = await pkiJson([
        'cert',
        'create',
        '--ca',
        String(polishCa.id),
        '--cn',
        'Polish Sub CA',
        '--type',
        'ca',
        '--path-length',
        '0',
        '--key-type',
        'ecdsa-p256',
      ]);
      expect(subCa).toMatchObject({ certificate_type: 'ca', issuer_id: polishCa.id });
      const text = ssl.run('x509', '-in', ssl.write('polish-sub-ca.pem', subCa.certificate), '-noout', '-text').output;
      expect(text).toMatch(/CA:TRUE, pathlen:0/);
      expect(text).toMatch(/Certificate Sign, CRL Sign/);
      const { csrFile } = makeCsr('polish-ca-type', 'csr.polish.test');
      expect(await pki(['cert', 'sign-csr', csrFile, '--ca', String(polishCa.id), '--type', 'ca'])).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('Allowed choices are server, client, dual_purpose'),
      });
    });

    it('cert revoke --help lists the RFC 5280 reasons', async () => {
      const help = await pki(['cert', 'revoke', '--help']);
      expect(help.code).toBe(0);
      for (const reason of [
        'unspecified',
        'keyCompromise',
        'cACompromise',
        'affiliationChanged',
        'superseded',
        'cessationOfOperation',
        'certificateHold',
        'privilegeWithdrawn',
        'aACompromise',
      ]) {
        expect(help.stdout).toMatch(new RegExp(`^  ${reason}$`, 'm'));
      }
    });

    it('completion fish prints a fish script that completes subcommands and options', async () => {
      const result = await pki(['completion', 'fish']);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^complete -c pki -f -a '\(__pki_complete\)'$/m);
      expect(result.stdout).toContain(
        "case 'pki ca update' 'pki ca update *'\n            printf '%s\\n' --org --cascade --allow-leaf-certs --no-allow-leaf-certs --output --help\n",
      );
      // Where fish is installed, ask it what it completes.
      if (spawnSync('fish', ['--version']).status !== 0) return;
      const script = join(ssl.dir, 'pki.fish');
      writeFileSync(script, result.stdout);
      const complete = (line: string): string[] =>
        spawnSync('fish', ['--no-config', '-c', `function pki; end; source ${script}; complete -C '${line}'`], { encoding: 'utf8' })
          .stdout.split('\n')
          .filter(Boolean);
      expect(complete('pki ')).toEqual(expect.arrayContaining(['ca', 'cert', 'completion', 'export']));
      expect(complete('pki cert create --s')).toEqual(['--san-dns', '--san-email', '--san-ip', '--show-private-key', '--subject-dn']);
      expect(complete('pki ca update 3 --o')).toEqual(['--org', '--output']);
    });
  });

  describe('user create on a server with BOOTSTRAP_TOKEN', () => {
    const BOOTSTRAP_TOKEN = 'cli-bootstrap-0123456789';
    let bootstrapApp: TestApp;
    let bootstrapEnv: NodeJS.ProcessEnv;

    beforeAll(async () => {
      bootstrapApp = await startTestApp({ env: { BOOTSTRAP_TOKEN } });
      bootstrapEnv = { PKI_SERVER_URL: bootstrapApp.baseUrl, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'pki-cli-bootstrap-')) };
    });

    afterAll(async () => {
      rmSync(bootstrapEnv.XDG_CONFIG_HOME!, { recursive: true, force: true });
      await bootstrapApp?.close();
    });

    it('sends PKI_BOOTSTRAP_TOKEN (or --bootstrap-token) as X-Bootstrap-Token when creating the first user', async () => {
      const first = [
        'user',
        'create',
        '--username',
        'first',
        '--email',
        'first@example.com',
        '--password',
        PASSWORD,
        '--role',
        'superuser',
      ];
      expect(await pki(first, bootstrapEnv)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Error 401: /) });
      expect(await pki([...first, '--bootstrap-token', `${BOOTSTRAP_TOKEN}x`], bootstrapEnv)).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^Error 403: /),
      });
      expect(await pkiJson(first, { ...bootstrapEnv, PKI_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN })).toMatchObject({
        username: 'first',
        role: 'superuser',
      });
    });
  });
});
