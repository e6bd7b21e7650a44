import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ApiClient, ApiResponse } from './support/api-client';
import { OpensslWorkspace } from './support/openssl';
import { TestApp } from './support/test-app';
import { problemLocations, startSeededApp, World } from './support/seeded-app';

/**
 * Issuance policies of service accounts: the policy endpoints and their validation, and enforcement
 * on POST /certificates/, POST /certificates/sign-csr and POST /certificates/{id}/renew.
 * Account and token management: service-accounts.e2e-spec.ts.
 */

const POLICY_FIELDS = [
  'allowed_ca_ids',
  'allowed_certificate_types',
  'bound_device_ids',
  'bound_device_roles',
  'bound_device_tags',
  'cn_patterns',
  'created_at',
  'id',
  'max_validity_days',
  'san_dns_patterns',
  'san_email_domains',
  'san_ip_cidrs',
  'service_account_id',
  'updated_at',
];
const NO_POLICY = { detail: { code: 'service_account_has_no_policy', message: expect.any(String) } };
const NO_POLICY_FOUND = { detail: 'The service account has no issuance policy' };

describe('issuance policy', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let w: World;
  let ssl: OpensslWorkspace;
  let caA: any;
  let caB: any;
  let org2Ca: any;
  /** An org1 service account with can_create_cert, and its token. */
  let issuer: any;
  let issuerToken: string;
  const mintedTokens: string[] = [];
  let seq = 0;

  beforeAll(async () => {
    ({ testApp, api, db, w } = await startSeededApp({ CA_KEY_SIZE: '2048' }));
    ssl = new OpensslWorkspace();
    caA = await createCa(w.admin1.token);
    caB = await createCa(w.admin1.token);
    org2Ca = await createCa(w.admin2.token);
    issuer = await createAccount({ can_create_cert: true });
    issuerToken = await mint(issuer.id);
  });

  afterAll(async () => {
    ssl?.dispose();
    await db?.end();
    await testApp?.close();
  });

  async function createCa(token: string): Promise<any> {
    const name = `Policy CA ${++seq}`;
    const response = await api.post('/cas/', { name, subject_dn: `CN=${name},O=Test`, key_type: 'ecdsa-p256' }, token);
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  async function createAccount(body: object = {}, token = w.admin1.token): Promise<any> {
    const response = await api.post('/service-accounts/', { name: `issuer-${++seq}`, ...body }, token);
    expect({ status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  async function mint(accountId: number, token = w.admin1.token): Promise<string> {
    const response = await api.post(`/service-accounts/${accountId}/tokens`, { name: `token-${++seq}` }, token);
    expect(response.status).toBe(201);
    mintedTokens.push(response.body.token);
    return response.body.token;
  }

  /** A policy that allows everything this file issues; each test narrows one field. */
  function permissive(): Record<string, unknown> {
    return {
      cn_patterns: ['**'],
      san_dns_patterns: ['**'],
      san_ip_cidrs: ['0.0.0.0/0', '::/0'],
      san_email_domains: ['example.com', 'example.org'],
      allowed_ca_ids: [caA.id, caB.id],
      allowed_certificate_types: ['server', 'client', 'dual_purpose'],
      max_validity_days: 400,
    };
  }

  async function setPolicy(accountId: number, overrides: object = {}, token = w.admin1.token): Promise<any> {
    const body = { ...permissive(), ...overrides };
    const response = await api.put(`/service-accounts/${accountId}/policy`, body, token);
    expect({ status: response.status, body: response.status === 200 ? undefined : response.body }).toEqual({
      status: 200,
      body: undefined,
    });
    return response.body;
  }

  function issueRequest(caId: number, body: object, token: string): Promise<ApiResponse> {
    return api.post(
      `/certificates/?ca_id=${caId}`,
      {
        common_name: `host${++seq}.example.com`,
        subject_dn: 'O=Test,C=US',
        certificate_type: 'server',
        key_type: 'ecdsa-p256',
        valid_days: 30,
        ...body,
      },
      token,
    );
  }

  function expectCreated(response: ApiResponse, label: unknown = undefined): any {
    expect({ label, status: response.status, body: response.status === 201 ? undefined : response.body }).toEqual({
      label,
      status: 201,
      body: undefined,
    });
    return response.body;
  }

  function expectViolation(response: ApiResponse, field: string, value: string | number, label: unknown = undefined): void {
    expect({ label, status: response.status, body: response.body }).toEqual({
      label,
      status: 400,
      body: { detail: { code: 'policy_violation', field, value, message: expect.any(String) } },
    });
  }

  /** A fresh P-256 key and CSR made by openssl. */
  function makeCsr(cn: string, san?: string): string {
    const id = ++seq;
    const made = ssl.run(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `k${id}.key`,
      '-out',
      `r${id}.csr`,
      '-subj',
      `/O=Requester/CN=${cn}`,
      ...(san ? ['-addext', `subjectAltName=${san}`] : []),
    );
    expect(made.status).toBe(0);
    return readFileSync(`${ssl.dir}/r${id}.csr`, 'utf8');
  }

  async function certAuditEntry(certId: number): Promise<any> {
    const response = await api.get(`/audit-logs/?action=cert_create&resource_type=certificate&resource_id=${certId}`, w.root.token);
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
    return response.body[0];
  }

  describe('policy endpoints', () => {
    it('creates, reads, replaces and deletes a policy', async () => {
      const account = await createAccount();
      expect(await api.get(`/service-accounts/${account.id}/policy`, w.admin1.token)).toMatchObject({ status: 404, body: NO_POLICY_FOUND });

      const body = {
        cn_patterns: ['*.example.com', 'web?.example.net'],
        san_dns_patterns: ['**.example.com'],
        san_ip_cidrs: ['10.0.0.0/24', '2001:db8::/48'],
        san_email_domains: ['example.com'],
        allowed_ca_ids: [caA.id],
        allowed_certificate_types: ['server', 'client'],
        max_validity_days: 90,
      };
      const created = await api.put(`/service-accounts/${account.id}/policy`, body, w.admin1.token);
      expect(created.status).toBe(200);
      expect(Object.keys(created.body).sort()).toEqual(POLICY_FIELDS);
      expect(created.body).toEqual({
        ...body,
        bound_device_ids: [],
        bound_device_tags: [],
        bound_device_roles: [],
        id: expect.any(Number),
        service_account_id: account.id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(await api.get(`/service-accounts/${account.id}/policy`, w.admin1.token)).toMatchObject({ status: 200, body: created.body });

      const replacement = { allowed_certificate_types: ['client'], san_email_domains: ['example.org'], max_validity_days: 7 };
      const replaced = await api.put(`/service-accounts/${account.id}/policy`, replacement, w.admin1.token);
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({
        service_account_id: account.id,
        cn_patterns: [],
        san_dns_patterns: [],
        san_ip_cidrs: [],
        san_email_domains: ['example.org'],
        allowed_ca_ids: [],
        allowed_certificate_types: ['client'],
        max_validity_days: 7,
      });
      expect(await api.get(`/service-accounts/${account.id}/policy`, w.admin1.token)).toMatchObject({ status: 200, body: replaced.body });
      const { rows } = await db.query('SELECT count(*)::int AS n FROM service_account_policies WHERE service_account_id = $1', [
        account.id,
      ]);
      expect(rows).toEqual([{ n: 1 }]);

      expect((await api.delete(`/service-accounts/${account.id}/policy`, w.admin1.token)).status).toBe(204);
      expect(await api.get(`/service-accounts/${account.id}/policy`, w.admin1.token)).toMatchObject({ status: 404, body: NO_POLICY_FOUND });
      expect((await api.delete(`/service-accounts/${account.id}/policy`, w.admin1.token)).status).toBe(404);
    });

    it('lets a superuser manage the policy of any account; other organizations get 404', async () => {
      const account = await createAccount({}, w.admin2.token);
      await setPolicy(account.id, { allowed_ca_ids: [org2Ca.id] }, w.root.token);
      expect((await api.get(`/service-accounts/${account.id}/policy`, w.admin2.token)).status).toBe(200);
      expect((await api.get(`/service-accounts/${account.id}/policy`, w.admin1.token)).status).toBe(404);
      expect((await api.put(`/service-accounts/${account.id}/policy`, permissive(), w.admin1.token)).status).toBe(404);
      expect((await api.delete(`/service-accounts/${account.id}/policy`, w.admin1.token)).status).toBe(404);
      expect((await api.get(`/service-accounts/${account.id}/policy`, w.root.token)).body.allowed_ca_ids).toEqual([org2Ca.id]);
    });

    it('refuses a device binding that names no device, tag or role slug, naming the entry', async () => {
      const account = await createAccount();
      const bad = await api.put(
        `/service-accounts/${account.id}/policy`,
        { ...permissive(), bound_device_ids: [0], bound_device_tags: ['core', 'not a slug'], bound_device_roles: [7] },
        w.admin1.token,
      );
      expect(bad.status).toBe(400);
      const locations = problemLocations(bad.body);
      expect(locations).toContainEqual(expect.arrayContaining(['body', 'bound_device_ids']));
      expect(locations).toContainEqual(expect.arrayContaining(['body', 'bound_device_roles']));
      const slug = await api.put(
        `/service-accounts/${account.id}/policy`,
        { ...permissive(), bound_device_tags: ['core', 'Not a slug'] },
        w.admin1.token,
      );
      expect(slug.status).toBe(400);
      expect(problemLocations(slug.body)).toEqual([['body', 'bound_device_tags', 1]]);
      expect((await setPolicy(account.id, { bound_device_tags: [' Core ', 'core'] })).bound_device_tags).toEqual(['core']);
    });

    it('requires max_validity_days from 1 to 36500', async () => {
      const account = await createAccount();
      const { max_validity_days: _omitted, ...withoutMax } = permissive();
      const missing = await api.put(`/service-accounts/${account.id}/policy`, withoutMax, w.admin1.token);
      expect(missing.status).toBe(400);
      expect(problemLocations(missing.body)).toContainEqual(['body', 'max_validity_days']);
      for (const max_validity_days of [0, -1, 36501, 1.5, '30', null]) {
        const response = await api.put(`/service-accounts/${account.id}/policy`, { ...permissive(), max_validity_days }, w.admin1.token);
        expect({ max_validity_days, status: response.status }).toEqual({ max_validity_days, status: 400 });
        expect(problemLocations(response.body)).toContainEqual(['body', 'max_validity_days']);
      }
      expect((await api.get(`/service-accounts/${account.id}/policy`, w.admin1.token)).status).toBe(404);
      for (const max_validity_days of [1, 36500]) {
        expect((await setPolicy(account.id, { max_validity_days })).max_validity_days).toBe(max_validity_days);
      }
    });

    it('names the bad entry of a glob, CIDR or email-domain list', async () => {
      const account = await createAccount();
      const kept = await setPolicy(account.id, { cn_patterns: ['kept.example.com'] });
      const cases: Array<[string, unknown[], number]> = [
        ['cn_patterns', ['[a].example.com'], 0],
        ['cn_patterns', ['ok.example.com', 'a b'], 1],
        ['cn_patterns', [''], 0],
        ['san_dns_patterns', ['*.example.com', '{x,y}.example.com'], 1],
        ['san_dns_patterns', ['a b'], 0],
        ['san_ip_cidrs', ['10.0.0.0/33'], 0],
        ['san_ip_cidrs', ['10.0.0.0/30', '10.0.0.3/30'], 1],
        ['san_ip_cidrs', ['nonsense'], 0],
        ['san_ip_cidrs', ['10.0.0.0'], 0],
        ['san_ip_cidrs', ['2001:db8::/129'], 0],
        ['san_ip_cidrs', ['2001:db8::1/64'], 0],
        ['san_email_domains', ['example.com', 'not a domain'], 1],
        ['san_email_domains', ['@example.com'], 0],
        ['san_email_domains', ['-bad-.example.com'], 0],
      ];
      for (const [field, entries, index] of cases) {
        const response = await api.put(`/service-accounts/${account.id}/policy`, { ...permissive(), [field]: entries }, w.admin1.token);
        const label = { field, entries };
        expect({ label, status: response.status }).toEqual({ label, status: 400 });
        expect({ label, locs: problemLocations(response.body) }).toEqual({ label, locs: [['body', field, index]] });
      }
      const badType = await api.put(
        `/service-accounts/${account.id}/policy`,
        { ...permissive(), allowed_certificate_types: ['server', 'bogus'] },
        w.admin1.token,
      );
      expect(badType.status).toBe(400);
      expect(problemLocations(badType.body).every((loc) => loc[0] === 'body' && loc[1] === 'allowed_certificate_types')).toBe(true);
      const badCa = await api.put(`/service-accounts/${account.id}/policy`, { ...permissive(), allowed_ca_ids: ['one'] }, w.admin1.token);
      expect(badCa.status).toBe(400);
      const unknown = await api.put(`/service-accounts/${account.id}/policy`, { ...permissive(), extra: true }, w.admin1.token);
      expect(unknown.status).toBe(400);
      // A refused PUT leaves the stored policy as it was.
      expect(await api.get(`/service-accounts/${account.id}/policy`, w.admin1.token)).toMatchObject({ status: 200, body: kept });
    });

    it('accepts the documented glob and CIDR forms', async () => {
      const account = await createAccount();
      const policy = await setPolicy(account.id, {
        cn_patterns: ['*.example.com', '**.example.com', 'web?.example.com', 'exact.example.com'],
        san_ip_cidrs: ['10.0.0.0/30', '192.0.2.7/32', '2001:db8::/126', '0.0.0.0/0'],
      });
      expect(policy.cn_patterns).toEqual(['*.example.com', '**.example.com', 'web?.example.com', 'exact.example.com']);
      expect(policy.san_ip_cidrs).toEqual(['10.0.0.0/30', '192.0.2.7/32', '2001:db8::/126', '0.0.0.0/0']);
    });
  });

  describe('enforcement on POST /certificates/', () => {
    it('denies everything to an account without a policy', async () => {
      const account = await createAccount({ can_create_cert: true });
      const token = await mint(account.id);
      const response = await issueRequest(caA.id, {}, token);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_POLICY);
      expect(Object.keys(response.body.detail).sort()).toEqual(['code', 'message']);
      await setPolicy(account.id);
      expectCreated(await issueRequest(caA.id, {}, token));
      expect((await api.delete(`/service-accounts/${account.id}/policy`, w.admin1.token)).status).toBe(204);
      expect(await issueRequest(caA.id, {}, token)).toMatchObject({ status: 403, body: NO_POLICY });
    });

    it('needs can_create_cert and a CA of the own organization before any policy applies', async () => {
      const account = await createAccount();
      const token = await mint(account.id);
      await setPolicy(account.id, { allowed_ca_ids: [caA.id, org2Ca.id] });
      expect(await issueRequest(caA.id, {}, token)).toMatchObject({ status: 403, body: { detail: 'Insufficient permissions' } });
      await setPolicy(issuer.id, { allowed_ca_ids: [caA.id, caB.id, org2Ca.id] });
      expect((await issueRequest(org2Ca.id, {}, issuerToken)).status).toBe(404);
      const { rows } = await db.query('SELECT count(*)::int AS n FROM certificates WHERE created_by_service_account_id = $1', [account.id]);
      expect(rows).toEqual([{ n: 0 }]);
    });

    it('allows each policy field’s value and rejects its neighbour (policy table)', async () => {
      const certDays = testApp.config.certDays;
      const rows: Array<{ policy: object; ok: [number?, object?]; bad: [number?, object?]; field: string; value: () => string | number }> =
        [
          {
            policy: { allowed_certificate_types: ['server'] },
            ok: [undefined, { certificate_type: 'server' }],
            bad: [undefined, { certificate_type: 'client', common_name: 'robot-client' }],
            field: 'allowed_certificate_types',
            value: () => 'client',
          },
          {
            policy: { allowed_certificate_types: ['client'] },
            ok: [undefined, { certificate_type: 'client', common_name: 'robot-client' }],
            bad: [undefined, { certificate_type: 'server' }],
            field: 'allowed_certificate_types',
            value: () => 'server',
          },
          { policy: { allowed_ca_ids: [caA.id] }, ok: [caA.id], bad: [caB.id], field: 'allowed_ca_ids', value: () => caB.id },
          {
            policy: { cn_patterns: ['*.example.com'] },
            ok: [undefined, { common_name: 'www.example.com' }],
            bad: [undefined, { common_name: 'www.example.org' }],
            field: 'cn_patterns',
            value: () => 'www.example.org',
          },
          {
            policy: { cn_patterns: ['*.example.com'] },
            ok: [undefined, { common_name: 'WWW.Example.COM' }],
            bad: [undefined, { common_name: 'a.b.example.com' }],
            field: 'cn_patterns',
            value: () => 'a.b.example.com',
          },
          {
            policy: { cn_patterns: ['*.example.com'] },
            ok: [undefined, { common_name: 'x.example.com' }],
            bad: [undefined, { common_name: 'example.com' }],
            field: 'cn_patterns',
            value: () => 'example.com',
          },
          {
            policy: { cn_patterns: ['**.example.com'] },
            ok: [undefined, { common_name: 'a.b.example.com' }],
            bad: [undefined, { common_name: 'a.b.example.org' }],
            field: 'cn_patterns',
            value: () => 'a.b.example.org',
          },
          {
            policy: { cn_patterns: ['web?.example.com'] },
            ok: [undefined, { common_name: 'web1.example.com' }],
            bad: [undefined, { common_name: 'web12.example.com' }],
            field: 'cn_patterns',
            value: () => 'web12.example.com',
          },
          {
            policy: { cn_patterns: ['web?.example.com'] },
            ok: [undefined, { common_name: 'webX.example.com' }],
            bad: [undefined, { common_name: 'web.example.com' }],
            field: 'cn_patterns',
            value: () => 'web.example.com',
          },
          {
            policy: { cn_patterns: [] },
            ok: [],
            bad: [undefined, { common_name: 'anything.example.com' }],
            field: 'cn_patterns',
            value: () => 'anything.example.com',
          },
          {
            policy: { cn_patterns: ['svc.internal'], san_dns_patterns: ['*.example.com'] },
            ok: [undefined, { common_name: 'svc.internal', san_dns_names: ['api.example.com', 'API2.example.com'] }],
            bad: [undefined, { common_name: 'svc.internal', san_dns_names: ['api.example.com', 'api.example.org'] }],
            field: 'san_dns_patterns',
            value: () => 'api.example.org',
          },
          {
            policy: { cn_patterns: ['svc.internal'], san_dns_patterns: ['*.example.com'] },
            ok: [undefined, { common_name: 'svc.internal', san_dns_names: ['svc.internal', 'a.example.com'] }],
            bad: [undefined, { common_name: 'svc.internal', san_dns_names: ['a.b.example.com'] }],
            field: 'san_dns_patterns',
            value: () => 'a.b.example.com',
          },
          {
            // A DNS SAN equal to the CN (and the CN as default SAN) is covered by cn_patterns; an empty list allows no other name.
            policy: { cn_patterns: ['svc.example.com'], san_dns_patterns: [] },
            ok: [undefined, { common_name: 'svc.example.com', san_dns_names: ['SVC.example.com'] }],
            bad: [undefined, { common_name: 'svc.example.com', san_dns_names: ['svc.example.com', 'other.example.com'] }],
            field: 'san_dns_patterns',
            value: () => 'other.example.com',
          },
          {
            policy: { san_ip_cidrs: ['10.0.0.0/30'] },
            ok: [undefined, { san_ip_addresses: ['10.0.0.0', '10.0.0.3'] }],
            bad: [undefined, { san_ip_addresses: ['10.0.0.3', '10.0.0.4'] }],
            field: 'san_ip_cidrs',
            value: () => '10.0.0.4',
          },
          {
            policy: { san_ip_cidrs: ['2001:db8::/126'] },
            ok: [undefined, { san_ip_addresses: ['2001:db8::3'] }],
            bad: [undefined, { san_ip_addresses: ['2001:db8::4'] }],
            field: 'san_ip_cidrs',
            value: () => '2001:db8::4',
          },
          {
            policy: { san_ip_cidrs: ['10.0.0.0/30'] },
            ok: [],
            bad: [undefined, { san_ip_addresses: ['2001:db8::1'] }],
            field: 'san_ip_cidrs',
            value: () => '2001:db8::1',
          },
          {
            policy: { san_ip_cidrs: [] },
            ok: [],
            bad: [undefined, { san_ip_addresses: ['10.0.0.1'] }],
            field: 'san_ip_cidrs',
            value: () => '10.0.0.1',
          },
          {
            policy: { san_email_domains: ['example.com'] },
            ok: [undefined, { certificate_type: 'client', common_name: 'ops-client', san_email_addresses: ['ops@EXAMPLE.com'] }],
            bad: [undefined, { certificate_type: 'client', common_name: 'ops-client', san_email_addresses: ['ops@example.org'] }],
            field: 'san_email_domains',
            value: () => 'ops@example.org',
          },
          {
            policy: { san_email_domains: ['example.com'] },
            ok: [undefined, { certificate_type: 'client', common_name: 'ops@example.com' }],
            bad: [undefined, { certificate_type: 'client', common_name: 'ops-client', san_email_addresses: ['ops@sub.example.com'] }],
            field: 'san_email_domains',
            value: () => 'ops@sub.example.com',
          },
          {
            policy: { max_validity_days: 30 },
            ok: [undefined, { valid_days: 30 }],
            bad: [undefined, { valid_days: 31 }],
            field: 'max_validity_days',
            value: () => 31,
          },
          {
            policy: { max_validity_days: 30 },
            ok: [undefined, { valid_days: 1 }],
            bad: [undefined, { valid_days: undefined }],
            field: 'max_validity_days',
            value: () => certDays,
          },
        ];
      for (const row of rows) {
        const label = { policy: row.policy, field: row.field };
        await setPolicy(issuer.id, row.policy);
        if (row.ok.length > 0) {
          const certificate = expectCreated(await issueRequest(row.ok[0] ?? caA.id, row.ok[1] ?? {}, issuerToken), {
            ...label,
            ok: row.ok,
          });
          expect(certificate).toMatchObject({ created_by_service_account_id: issuer.id, created_by_user_id: null });
        }
        expectViolation(await issueRequest(row.bad[0] ?? caA.id, row.bad[1] ?? {}, issuerToken), row.field, row.value(), {
          ...label,
          bad: row.bad,
        });
      }
    });

    // Only a DNS SAN equal to the CN is covered by cn_patterns; an IP or email SAN the service takes
    // from the CN is still an IP or email SAN of the certificate and must be within the policy.
    it('checks an IP SAN the service derives from the common name', async () => {
      await setPolicy(issuer.id, { san_ip_cidrs: ['10.0.0.0/30'] });
      const outside = await issueRequest(caA.id, { common_name: '192.0.2.1' }, issuerToken);
      expect({ status: outside.status, detail: outside.body.detail, issuedIpSans: outside.body.san_ip_addresses }).toEqual({
        status: 400,
        detail: { code: 'policy_violation', field: 'san_ip_cidrs', value: '192.0.2.1', message: expect.any(String) },
        issuedIpSans: undefined,
      });
      const within = expectCreated(await issueRequest(caA.id, { common_name: '10.0.0.2' }, issuerToken));
      expect(within.san_ip_addresses).toEqual(['10.0.0.2']);
    });

    it('checks an email SAN the service derives from the common name', async () => {
      await setPolicy(issuer.id, { san_email_domains: ['example.com'] });
      const outside = await issueRequest(caA.id, { certificate_type: 'client', common_name: 'ops@example.org' }, issuerToken);
      expect({ status: outside.status, detail: outside.body.detail, issuedEmailSans: outside.body.san_email_addresses }).toEqual({
        status: 400,
        detail: { code: 'policy_violation', field: 'san_email_domains', value: 'ops@example.org', message: expect.any(String) },
        issuedEmailSans: undefined,
      });
      const within = expectCreated(await issueRequest(caA.id, { certificate_type: 'client', common_name: 'ops@example.com' }, issuerToken));
      expect(within.san_email_addresses).toEqual(['ops@example.com']);
    });

    it('reports the first broken constraint in the documented order', async () => {
      await setPolicy(issuer.id, {
        allowed_certificate_types: ['dual_purpose'],
        allowed_ca_ids: [caA.id],
        cn_patterns: ['*.example.com'],
        san_dns_patterns: ['*.example.com'],
        san_ip_cidrs: ['10.0.0.0/30'],
        san_email_domains: ['example.com'],
        max_validity_days: 30,
      });
      // Breaks every constraint; each step fixes the reported one and the next one is reported.
      const request = {
        certificate_type: 'server',
        common_name: 'cn.example.org',
        san_dns_names: ['dns.example.org'],
        san_ip_addresses: ['192.0.2.1'],
        valid_days: 31,
      };
      // The request stays valid at every step (a server certificate cannot carry email SANs, so the
      // email SAN arrives together with the dual_purpose type); SAN profile errors precede the policy.
      const steps: Array<[string, string | number, object, number]> = [
        ['allowed_certificate_types', 'server', {}, caB.id],
        ['allowed_ca_ids', caB.id, { certificate_type: 'dual_purpose', san_email_addresses: ['ops@example.org'] }, caB.id],
        ['cn_patterns', 'cn.example.org', {}, caA.id],
        ['san_dns_patterns', 'dns.example.org', { common_name: 'cn.example.com' }, caA.id],
        ['san_ip_cidrs', '192.0.2.1', { san_dns_names: ['dns.example.com'] }, caA.id],
        ['san_email_domains', 'ops@example.org', { san_ip_addresses: ['10.0.0.1'] }, caA.id],
        ['max_validity_days', 31, { san_email_addresses: ['ops@example.com'] }, caA.id],
      ];
      let body: object = request;
      for (const [field, value, fix, caId] of steps) {
        body = { ...body, ...fix };
        expectViolation(await issueRequest(caId, body, issuerToken), field, value, { field });
      }
      expectCreated(await issueRequest(caA.id, { ...body, valid_days: 30 }, issuerToken));
    });

    it('never applies to user sessions', async () => {
      await setPolicy(issuer.id, {
        allowed_certificate_types: ['client'],
        allowed_ca_ids: [caA.id],
        cn_patterns: [],
        max_validity_days: 1,
      });
      const rejected = { common_name: 'www.example.org', san_ip_addresses: ['192.0.2.1'], valid_days: 400 };
      expectViolation(await issueRequest(caB.id, rejected, issuerToken), 'allowed_certificate_types', 'server');
      const byAdmin = expectCreated(await issueRequest(caB.id, rejected, w.admin1.token));
      expect(byAdmin).toMatchObject({ created_by_user_id: w.admin1.id, created_by_service_account_id: null, valid_days: 400 });
      expect((await api.patch(`/users/${w.user1.id}`, { can_create_cert: true }, w.root.token)).status).toBe(200);
      expectCreated(await issueRequest(caB.id, rejected, w.user1.token));
      expectCreated(await issueRequest(caB.id, rejected, w.root.token));
    });

    it('records the service account as creator, on the certificate and in the audit log', async () => {
      await setPolicy(issuer.id);
      const certificate = expectCreated(await issueRequest(caA.id, { common_name: 'audited.example.com' }, issuerToken));
      expect(certificate).toMatchObject({ created_by_service_account_id: issuer.id, created_by_user_id: null, organization_id: w.org1.id });
      expect(await api.get(`/certificates/${certificate.id}`, w.admin1.token)).toMatchObject({
        status: 200,
        body: { created_by_service_account_id: issuer.id, created_by_user_id: null },
      });
      const entry = await certAuditEntry(certificate.id);
      expect(entry).toMatchObject({
        action: 'cert_create',
        user_id: null,
        service_account_id: issuer.id,
        service_account_name: issuer.name,
        organization_id: w.org1.id,
        resource_type: 'certificate',
        resource_id: certificate.id,
      });
    });
  });

  describe('enforcement on POST /certificates/sign-csr', () => {
    const signCsr = (body: object, token = issuerToken) =>
      api.post('/certificates/sign-csr', { ca_id: caA.id, certificate_type: 'server', valid_days: 30, ...body }, token);

    beforeEach(async () => {
      await setPolicy(issuer.id, {
        allowed_certificate_types: ['server'],
        cn_patterns: ['*.example.com'],
        san_dns_patterns: ['*.example.com'],
        san_ip_cidrs: ['10.0.0.0/30'],
        allowed_ca_ids: [caA.id],
        max_validity_days: 30,
      });
    });

    it('signs a CSR within the policy, recording the service account', async () => {
      const csr = makeCsr('svc.example.com', 'DNS:svc.example.com,DNS:api.example.com,IP:10.0.0.1');
      const certificate = expectCreated(await signCsr({ csr }));
      expect(certificate).toMatchObject({
        common_name: 'svc.example.com',
        san_dns_names: ['svc.example.com', 'api.example.com'],
        san_ip_addresses: ['10.0.0.1'],
        created_by_service_account_id: issuer.id,
        created_by_user_id: null,
      });
      expect(await certAuditEntry(certificate.id)).toMatchObject({
        user_id: null,
        service_account_id: issuer.id,
        service_account_name: issuer.name,
      });
    });

    it('checks the CSR’s subject and SANs', async () => {
      const cases: Array<[string, string, string, string | number]> = [
        ['svc.example.org', 'DNS:svc.example.org', 'cn_patterns', 'svc.example.org'],
        ['svc.example.com', 'DNS:svc.example.com,DNS:api.example.org', 'san_dns_patterns', 'api.example.org'],
        ['svc.example.com', 'DNS:svc.example.com,IP:10.0.0.9', 'san_ip_cidrs', '10.0.0.9'],
        ['svc.example.com', 'DNS:svc.example.com,IP:2001:db8::1', 'san_ip_cidrs', '2001:db8::1'],
      ];
      for (const [cn, san, field, value] of cases) {
        expectViolation(await signCsr({ csr: makeCsr(cn, san) }), field, value, { cn, san });
      }
    });

    it('checks explicit overrides instead of the CSR’s values, the CA, the type and the validity', async () => {
      const badSans = makeCsr('svc.example.com', 'DNS:svc.example.com,DNS:api.example.org');
      expectCreated(await signCsr({ csr: badSans, san_dns_names: ['api.example.com'] }));
      expectViolation(await signCsr({ csr: badSans, common_name: 'x.example.net', san_dns_names: [] }), 'cn_patterns', 'x.example.net');
      const good = makeCsr('ok.example.com', 'DNS:ok.example.com');
      expectViolation(await signCsr({ csr: good, ca_id: caB.id }), 'allowed_ca_ids', caB.id);
      expectViolation(await signCsr({ csr: good, ca_id: undefined, ca_name: caB.name }), 'allowed_ca_ids', caB.id);
      expectViolation(await signCsr({ csr: good, valid_days: 31 }), 'max_validity_days', 31);
      expectViolation(await signCsr({ csr: good, valid_days: undefined }), 'max_validity_days', testApp.config.certDays);
      expectViolation(await signCsr({ csr: good, certificate_type: 'client', san_dns_names: [] }), 'allowed_certificate_types', 'client');
      expectCreated(await signCsr({ csr: good, ca_id: undefined, ca_name: caA.name }));
    });

    it('checks an IP SAN the service derives from a CSR’s common name', async () => {
      await setPolicy(issuer.id, {
        allowed_certificate_types: ['server'],
        allowed_ca_ids: [caA.id],
        san_ip_cidrs: ['10.0.0.0/30'],
        max_validity_days: 30,
      });
      const outside = await signCsr({ csr: makeCsr('192.0.2.1') });
      expect({ status: outside.status, detail: outside.body.detail, issuedIpSans: outside.body.san_ip_addresses }).toEqual({
        status: 400,
        detail: { code: 'policy_violation', field: 'san_ip_cidrs', value: '192.0.2.1', message: expect.any(String) },
        issuedIpSans: undefined,
      });
    });

    it('denies an account without a policy, and never applies to users', async () => {
      const account = await createAccount({ can_create_cert: true });
      const token = await mint(account.id);
      const csr = makeCsr('svc.example.org', 'DNS:svc.example.org');
      expect(await signCsr({ csr }, token)).toMatchObject({ status: 403, body: NO_POLICY });
      expectViolation(await signCsr({ csr, valid_days: 400 }), 'cn_patterns', 'svc.example.org');
      expect(expectCreated(await signCsr({ csr, ca_id: caB.id, valid_days: 400 }, w.admin1.token))).toMatchObject({
        created_by_user_id: w.admin1.id,
        created_by_service_account_id: null,
      });
    });
  });

  describe('enforcement on POST /certificates/{id}/renew', () => {
    it('re-evaluates the current policy against the inherited parameters', async () => {
      const policy = { cn_patterns: ['*.example.com'], allowed_ca_ids: [caA.id], max_validity_days: 60 };
      await setPolicy(issuer.id, policy);
      const original = expectCreated(await issueRequest(caA.id, { common_name: 'renew.example.com', valid_days: 30 }, issuerToken));
      const renewed = expectCreated(await api.post(`/certificates/${original.id}/renew`, {}, issuerToken));
      expect(renewed).toMatchObject({
        renewed_from_id: original.id,
        valid_days: 30,
        created_by_service_account_id: issuer.id,
        created_by_user_id: null,
      });

      await setPolicy(issuer.id, { ...policy, max_validity_days: 29 });
      expectViolation(await api.post(`/certificates/${original.id}/renew`, {}, issuerToken), 'max_validity_days', 30);
      await setPolicy(issuer.id, { ...policy, cn_patterns: ['*.example.org'] });
      expectViolation(await api.post(`/certificates/${original.id}/renew`, {}, issuerToken), 'cn_patterns', 'renew.example.com');
      await setPolicy(issuer.id, { ...policy, allowed_ca_ids: [caB.id] });
      expectViolation(await api.post(`/certificates/${original.id}/renew`, {}, issuerToken), 'allowed_ca_ids', caA.id);
      await setPolicy(issuer.id, { ...policy, allowed_certificate_types: ['client'] });
      expectViolation(await api.post(`/certificates/${original.id}/renew`, {}, issuerToken), 'allowed_certificate_types', 'server');

      expect((await api.delete(`/service-accounts/${issuer.id}/policy`, w.admin1.token)).status).toBe(204);
      expect(await api.post(`/certificates/${original.id}/renew`, {}, issuerToken)).toMatchObject({ status: 403, body: NO_POLICY });

      // Users renew what the policy no longer allows.
      expect(expectCreated(await api.post(`/certificates/${original.id}/renew`, {}, w.admin1.token))).toMatchObject({
        renewed_from_id: original.id,
        created_by_user_id: w.admin1.id,
      });
      const { rows } = await db.query('SELECT count(*)::int AS n FROM certificates WHERE renewed_from_id = $1', [original.id]);
      expect(rows).toEqual([{ n: 2 }]);
    });

    it('checks the inherited SANs of a CSR certificate, not the new CSR’s', async () => {
      await setPolicy(issuer.id, { cn_patterns: ['*.example.com'], san_dns_patterns: ['*.example.com'], san_ip_cidrs: ['10.0.0.0/30'] });
      const csr = makeCsr('csr.example.com', 'DNS:csr.example.com,IP:10.0.0.2');
      const original = expectCreated(
        await api.post('/certificates/sign-csr', { csr, ca_id: caA.id, certificate_type: 'server', valid_days: 30 }, issuerToken),
      );
      const newCsr = makeCsr('csr.example.com', 'DNS:csr.example.com,IP:10.0.0.2');
      expectCreated(await api.post(`/certificates/${original.id}/renew`, { csr: newCsr }, issuerToken));
      await setPolicy(issuer.id, { cn_patterns: ['*.example.com'], san_dns_patterns: ['*.example.com'], san_ip_cidrs: ['10.0.0.0/31'] });
      expectViolation(await api.post(`/certificates/${original.id}/renew`, { csr: newCsr }, issuerToken), 'san_ip_cidrs', '10.0.0.2');
    });
  });

  // Runs last: scans every response this file has seen.
  describe('leaks', () => {
    it('never returns a digest, nor a token outside its mint response', () => {
      expect(mintedTokens.length).toBeGreaterThan(2);
      for (const body of api.seenBodies) expect(body).not.toContain('secret_digest');
      const withToken = api.seenBodies.filter((body) => body.includes('pki_sa_'));
      expect(withToken).toHaveLength(mintedTokens.length);
      for (const token of mintedTokens) expect(withToken.filter((body) => body.includes(token))).toHaveLength(1);
      for (const body of withToken) expect(Object.keys(JSON.parse(body))).toContain('token');
    });
  });
});
