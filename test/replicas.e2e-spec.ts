import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ApiClient, createBootstrapSuperuser, PASSWORD } from './support/api-client';
import { PlatformClient, provisionToken } from './support/platform-client';
import { RoundRobinProxy } from './support/round-robin-proxy';
import { freePort, ServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-database';

/**
 * Three replicas of the built server on one PostgreSQL database behind a round-robin proxy, as
 * Kubernetes runs them (docs/operations.md, "Scaling"): what one replica does, the others honour at
 * once, background work runs once, and a replica killed mid-load loses no acknowledged write.
 * The embedded database is one process by design, so this runs on the PostgreSQL server only.
 */

const REPLICAS = 3;
const onServerDatabase = process.env.E2E_DB_MODE !== 'embedded' ? describe : describe.skip;

/** A webhook receiver that answers 500 to the first `failFirst` deliveries of a path, then 200, and keeps every delivery. */
class Receiver {
  readonly deliveries: Array<{ path: string; body: any }> = [];
  private server?: Server;
  private readonly failuresLeft = new Map<string, number>();
  url = '';

  failFirst(path: string, count: number): void {
    this.failuresLeft.set(path, count);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        this.deliveries.push({ path, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        const left = this.failuresLeft.get(path) ?? 0;
        this.failuresLeft.set(path, Math.max(0, left - 1));
        response.writeHead(left > 0 ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  to(path: string) {
    return this.deliveries.filter((delivery) => delivery.path === path);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

onServerDatabase('three replicas on one PostgreSQL behind a round-robin proxy', () => {
  const receiver = new Receiver();
  const workDir = mkdtempSync(join(tmpdir(), 'replicas-'));
  let database: TestDatabase;
  let db: Client;
  let replicas: ServerProcess[] = [];
  let proxy: RoundRobinProxy;
  let api: ApiClient;
  let platform: PlatformClient;
  let rootToken: string;

  beforeAll(async () => {
    await receiver.start();
    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
    const env = {
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
      JOB_POLL_INTERVAL_MS: '100',
      JOB_BACKOFF_BASE_MS: '200',
      AUTH_RATE_LIMIT: '4/minute',
      // The webhook receiver listens on loopback, which the egress policy refuses unless it is listed.
      EGRESS_ALLOW: '127.0.0.1',
    };
    replicas = await Promise.all(
      Array.from({ length: REPLICAS }, async () => ServerProcess.spawn({ ...env, PORT: String(await freePort()) }, workDir)),
    );
    await Promise.all(replicas.map((replica) => replica.waitUntilHealthy()));
    proxy = new RoundRobinProxy(replicas.map((replica) => replica.port));
    await proxy.start();
    api = new ApiClient(proxy.baseUrl);
    rootToken = (await createBootstrapSuperuser(api)).token;
    platform = new PlatformClient(proxy.baseUrl, await provisionToken(api, 'root', PASSWORD));
  });

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')));
    await db?.end();
    await database?.drop();
    await receiver.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('spreads requests over the three replicas', async () => {
    const served = await Promise.all(replicas.map((replica) => new ApiClient(replica.baseUrl).get('/users/me', rootToken)));
    expect(served.map((response) => response.status)).toEqual([200, 200, 200]);
    // Through the proxy, requests on one keep-alive client reach the three replicas in turn.
    const before = replicas.map((replica) => proxy.requestsTo(replica.port));
    for (let i = 0; i < REPLICAS; i++) expect((await api.get('/users/me', rootToken)).status).toBe(200);
    expect(replicas.map((replica, index) => proxy.requestsTo(replica.port) - before[index])).toEqual([1, 1, 1]);
  });

  /**
   * Runs `change` on a replica and waits until PostgreSQL has delivered its credentials
   * notification to a listener of the test's own, as it does to each replica's (each replica keeps
   * passed credential checks until it hears one; src/common/auth/credential-cache.ts).
   */
  async function delivered<T>(change: () => Promise<T>): Promise<T> {
    const watcher = new Client({ connectionString: database.url });
    await watcher.connect();
    try {
      await watcher.query('LISTEN credentials_changed');
      const notified = new Promise((resolve) => watcher.once('notification', resolve));
      const result = await change();
      await notified;
      return result;
    } finally {
      await watcher.end();
    }
  }

  it('honours a logout on one replica at once on the others', async () => {
    const { access_token: token } = await api.tokens('root', PASSWORD);
    const [first, ...others] = replicas.map((replica) => new ApiClient(replica.baseUrl));
    // Twice each: the second is answered from the replica's credential cache.
    for (const replica of [first, ...others, first, ...others]) expect((await replica.get('/users/me', token)).status).toBe(200);
    expect((await delivered(() => first.post('/auth/logout', undefined, token))).status).toBeLessThan(300);
    for (const replica of others) expect((await replica.get('/users/me', token)).status).toBe(401);
    for (let i = 0; i < REPLICAS; i++) expect((await api.get('/users/me', token)).status).toBe(401);
  });

  it('refuses on another replica the very next request after a token deletion, a demotion, a password change or a deactivation on one', async () => {
    const [a, b] = replicas.map((replica) => new ApiClient(replica.baseUrl));
    const created = await a.post(
      '/users/',
      { username: 'replicated', email: 'replicated@example.com', password: PASSWORD, role: 'superuser', organization_id: null },
      rootToken,
    );
    expect(created.status).toBe(201);
    const userId = created.body.id as number;
    const key = await provisionToken(api, 'replicated', PASSWORD);
    const onA = new PlatformClient(replicas[0].baseUrl, key);
    const onB = new PlatformClient(replicas[1].baseUrl, key);
    const tokens = (await onA.get('/api/users/tokens/')).body.results as Array<{ id: number; display: string }>;
    const tokenId = tokens.find((token) => token.display === `**********${key.slice(-4)}`)!.id;
    for (let i = 0; i < 2; i++) expect((await onB.get('/api/plugins/fms/')).status).toBe(200);
    expect((await delivered(() => onA.delete(`/api/users/tokens/${tokenId}/`))).status).toBe(204);
    expect((await onB.get('/api/plugins/fms/')).status).toBe(403);

    let jwt = await api.token('replicated', PASSWORD);
    for (let i = 0; i < 2; i++) expect((await b.get('/users/', jwt)).status).toBe(200);
    expect((await delivered(() => a.patch(`/users/${userId}`, { role: 'user' }, rootToken))).status).toBe(200);
    expect((await b.get('/users/', jwt)).status).toBe(403);

    for (let i = 0; i < 2; i++) expect((await b.get('/users/me', jwt)).status).toBe(200);
    expect((await delivered(() => a.patch(`/users/${userId}`, { password: `${PASSWORD}-2` }, rootToken))).status).toBe(200);
    expect((await b.get('/users/me', jwt)).status).toBe(401);

    jwt = await api.token('replicated', `${PASSWORD}-2`);
    for (let i = 0; i < 2; i++) expect((await b.get('/users/me', jwt)).status).toBe(200);
    expect((await delivered(() => a.patch(`/users/${userId}`, { is_active: false }, rootToken))).status).toBe(200);
    expect((await b.get('/users/me', jwt)).status).toBe(401);
  });

  it('serves a CRL rebuilt on another replica at once, though each replica keeps the CRL it served in memory', async () => {
    const created = await api.post(
      '/cas/',
      { name: 'Replicated CRL CA', subject_dn: 'CN=Replicated CRL CA', key_type: 'ecdsa-p256' },
      rootToken,
    );
    expect(created.status).toBe(201);
    const ca = created.body;
    const issued = await api.post(
      `/certificates/?ca_id=${ca.id}`,
      { common_name: 'crl.example.com', subject_dn: 'O=Test', certificate_type: 'server', key_type: 'ecdsa-p256' },
      rootToken,
    );
    expect(issued.status).toBe(201);
    const serial = issued.body.serial_number as string;
    const serialOctets = Buffer.from(serial.padStart(serial.length + (serial.length % 2), '0'), 'hex');
    const fetchCrl = async (replica: ServerProcess, etag?: string) => {
      // fetch would add Cache-Control: no-cache to a conditional request, which forbids a 304.
      const headers: Record<string, string> = etag ? { 'if-none-match': etag, 'cache-control': 'max-age=0' } : {};
      const response = await fetch(`${replica.baseUrl}/crl/${ca.slug}`, { headers });
      return { status: response.status, etag: response.headers.get('etag'), der: Buffer.from(await response.arrayBuffer()) };
    };

    // Replica 0 builds the first CRL and keeps it; replica 1 revokes, which builds the next one there.
    const before = await fetchCrl(replicas[0]);
    expect(before.status).toBe(200);
    expect(before.der.includes(serialOctets)).toBe(false);
    const revoked = await new ApiClient(replicas[1].baseUrl).post(`/certificates/${issued.body.id}/revoke`, {}, rootToken);
    expect(revoked.status).toBe(200);

    const after = await fetchCrl(replicas[0]);
    expect(after.status).toBe(200);
    expect(after.der.includes(serialOctets)).toBe(true);
    const { rows } = await db.query('SELECT crl_number FROM certificate_authorities WHERE id = $1', [ca.id]);
    expect(after.etag).toBe(`"crl-${rows[0].crl_number}"`);
    expect(after.etag).not.toBe(before.etag);
    expect((await fetchCrl(replicas[0], before.etag!)).status).toBe(200);
    for (const replica of replicas) expect((await fetchCrl(replica, after.etag!)).status).toBe(304);
  });

  it('counts failed logins across replicas: the limit holds whichever replica answers', async () => {
    const created = await api.post(
      '/users/',
      { username: 'victim', email: 'victim@example.com', password: PASSWORD, role: 'user' },
      rootToken,
    );
    expect(created.status).toBe(201);
    // AUTH_RATE_LIMIT=4/minute: four failures, spread over the replicas by the proxy, then every replica refuses.
    const failures = [];
    for (let i = 0; i < 4; i++) failures.push((await api.login('victim', 'wrong-password')).status);
    expect(failures).toEqual([401, 401, 401, 401]);
    for (const replica of replicas) {
      const refused = await new ApiClient(replica.baseUrl).login('victim', PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });

  it('delivers a webhook once, and its retry (a scheduled job) once, with three job workers polling', async () => {
    const webhook = await platform.post('/api/extras/webhooks/', {
      name: 'replicas',
      payload_url: `${receiver.url}/hook`,
      secret: 's3cret-value',
    });
    expect(webhook.status).toBe(201);
    const rule = await platform.post('/api/extras/event-rules/', {
      name: 'sites to the receiver',
      object_types: ['dcim.site'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhook.body.id,
    });
    expect(rule.status).toBe(201);
    receiver.failFirst('/hook', 1);
    const site = await platform.post('/api/dcim/sites/', { name: 'Replica site', slug: 'replica-site' });
    expect(site.status).toBe(201);
    const unfinished = async () =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE queue = 'webhook' AND status IN ('pending', 'running')`))
        .rows[0].n;
    await waitFor('the webhook job to finish', async () => receiver.to('/hook').length >= 2 && (await unfinished()) === 0);
    // Give the three pollers time to (wrongly) pick the job up again.
    await sleep(1500);
    const deliveries = receiver.to('/hook');
    expect(deliveries).toHaveLength(2);
    expect(deliveries.map((delivery) => delivery.body.data.name)).toEqual(['Replica site', 'Replica site']);
    const { rows } = await db.query(`SELECT status, attempts FROM jobs WHERE queue = 'webhook'`);
    expect(rows).toEqual([{ status: 'succeeded', attempts: 2 }]);
  });

  it('loses no acknowledged write when a replica is killed mid-load', async () => {
    const acknowledged: string[] = [];
    const failed: number[] = [];
    let started = 0;
    const write = async (index: number) => {
      const name = `load-${index}`;
      try {
        const response = await platform.post('/api/dcim/sites/', { name, slug: name });
        if (response.status === 201) acknowledged.push(name);
        else failed.push(response.status);
      } catch {
        failed.push(0);
      }
    };
    const writers = Array.from({ length: 4 }, async (_, lane) => {
      for (let i = lane; i < 120; i += 4) {
        started += 1;
        if (started === 40) replicas[1].signal('SIGKILL');
        await write(i);
      }
    });
    await Promise.all(writers);
    expect(await replicas[1].waitForExit()).toBeNull();
    // Some writes went to the killed replica and were not acknowledged; the others were.
    expect(acknowledged.length).toBeGreaterThan(60);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((status) => status === 502 || status === 0)).toBe(true);
    const { rows } = await db.query<{ name: string }>(`SELECT name FROM dcim_site WHERE name LIKE 'load-%'`);
    const stored = new Set(rows.map((row) => row.name));
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    // The survivors still serve.
    for (const replica of [replicas[0], replicas[2]])
      expect((await new ApiClient(replica.baseUrl).get('/users/me', rootToken)).status).toBe(200);
  });
});
