import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PASSWORD } from './support/api-client';
import { PlatformClient, provisionToken } from './support/platform-client';
import { SeededApp, startSeededApp } from './support/seeded-app';
import { startTestApp, TestApp } from './support/test-app';

/** One request that reached the receiver, with the status it was answered. */
interface Delivery {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  /** X-Hook-Signature is the lowercase hex HMAC-SHA512 of exactly these bytes, keyed by the path's secret. */
  signatureValid: boolean;
  status: number;
  receivedAt: number;
}

/**
 * A webhook receiver on a random loopback port: verifies each request's signature against the secret
 * registered for its path, records it, and answers 200 unless told to fail the next requests of a path.
 */
class Receiver {
  readonly deliveries: Delivery[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly failures = new Map<string, number>();
  private readonly delays = new Map<string, number>();
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const path = request.url ?? '';
        const failuresLeft = this.failures.get(path) ?? 0;
        const status = failuresLeft > 0 ? 500 : 200;
        if (failuresLeft > 0) this.failures.set(path, failuresLeft - 1);
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          body = undefined;
        }
        this.deliveries.push({
          path,
          method: request.method ?? '',
          headers: request.headers,
          raw,
          body,
          signatureValid: this.verify(path, raw, request.headers['x-hook-signature']),
          status,
          receivedAt: Date.now(),
        });
        setTimeout(
          () => response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'try again'),
          this.delays.get(path) ?? 0,
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** Deliveries to `path` are signed with `secret`. */
  expect(path: string, secret: string, options: { delayMs?: number } = {}): string {
    this.secrets.set(path, secret);
    if (options.delayMs) this.delays.set(path, options.delayMs);
    return `${this.url}${path}`;
  }

  /** The next `count` requests to `path` are answered 500. */
  failNext(path: string, count: number): void {
    this.failures.set(path, count);
  }

  at(path: string): Delivery[] {
    return this.deliveries.filter((delivery) => delivery.path === path);
  }

  private verify(path: string, raw: Buffer, header: string | string[] | undefined): boolean {
    const secret = this.secrets.get(path);
    if (secret === undefined || typeof header !== 'string' || !/^[0-9a-f]{128}$/.test(header)) return false;
    const expected = createHmac('sha512', secret).update(raw).digest();
    return timingSafeEqual(expected, Buffer.from(header, 'hex'));
  }
}

/** Polls `condition` until it holds or the deadline passes (then fails with `what`). */
async function waitFor<T>(what: string, condition: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The folder of CA files webhooks may name (WEBHOOK_CA_DIR). */
const CA_DIR = realpathSync(mkdtempSync(join(tmpdir(), 'webhook-cas-')));
// The receiver listens on 127.0.0.1, which the egress policy refuses unless it is listed.
const ENV = { JOB_POLL_INTERVAL_MS: '100', JOB_BACKOFF_BASE_MS: '100', EGRESS_ALLOW: '127.0.0.1', WEBHOOK_CA_DIR: CA_DIR };
/** NetBox sends str(timezone.now()): "2024-05-01 12:00:00.123456+00:00" (no fraction when it is zero). */
const NETBOX_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?\+00:00$/;

/**
 * The acceptance criterion of event rules and webhooks: a change matching an enabled rule is delivered
 * to the webhook's URL with NetBox's body and signature, retried after a failure, and delivered once
 * even with several app instances (each with its job worker) sharing the database.
 */
describe('platform webhooks (event rules over the job queue)', () => {
  const receiver = new Receiver();
  let seeded: SeededApp;
  let root: PlatformClient;

  beforeAll(async () => {
    await receiver.start();
    seeded = await startSeededApp(ENV);
    root = new PlatformClient(seeded.testApp.baseUrl, await provisionToken(seeded.api, 'root', PASSWORD));
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
    await receiver.stop();
    rmSync(CA_DIR, { recursive: true, force: true });
  });

  async function created(pending: Promise<{ status: number; body: any; text: string }>): Promise<any> {
    const response = await pending;
    if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${response.text}`);
    return response.body;
  }

  async function webhook(name: string, payloadUrl: string, secret: string, extra: Record<string, unknown> = {}): Promise<any> {
    return created(root.post('/api/extras/webhooks/', { name, payload_url: payloadUrl, secret, ...extra }));
  }

  async function eventRule(name: string, webhookId: number, extra: Record<string, unknown>): Promise<any> {
    return created(
      root.post('/api/extras/event-rules/', {
        name,
        object_types: ['dcim.site'],
        event_types: ['object_created'],
        action_type: 'webhook',
        action_object_type: 'extras.webhook',
        action_object_id: webhookId,
        ...extra,
      }),
    );
  }

  /** Job rows of the webhook queue for one webhook. */
  async function jobsOf(webhookId: number): Promise<Array<{ status: string; attempts: number; last_error: string | null; payload: any }>> {
    const { rows } = await seeded.db.query(
      `SELECT status, attempts, last_error, payload FROM jobs WHERE queue = 'webhook' AND (payload->>'webhook_id')::int = $1 ORDER BY id`,
      [webhookId],
    );
    return rows;
  }

  async function unfinishedWebhookJobs(): Promise<number> {
    const { rows } = await seeded.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM jobs WHERE queue = 'webhook' AND status IN ('pending', 'running')`,
    );
    return rows[0].count;
  }

  /** Every webhook job enqueued so far has finished (so every delivery that will happen has happened). */
  const allDelivered = () => waitFor('the webhook queue to drain', async () => (await unfinishedWebhookJobs()) === 0);

  describe('(a) which changes are delivered', () => {
    const SECRET = 'sh4red-secret: with spaces ✓';
    let hook: any;
    let siteId: number;

    beforeAll(async () => {
      hook = await webhook('active sites', receiver.expect('/active', SECRET), SECRET, {
        additional_headers: 'X-Test-Header: alpha\nX-Other: beta:gamma',
      });
      await eventRule('active site created', hook.id, { conditions: { and: [{ attr: 'status.value', value: 'active' }] } });
    });

    it('keeps the secret write-only', async () => {
      expect(hook).not.toHaveProperty('secret');
      expect((await root.get(`/api/extras/webhooks/${hook.id}/`)).body).not.toHaveProperty('secret');
    });

    it('renders a body template with the event payload and signs the rendered body', async () => {
      const templated = await webhook('templated', receiver.expect('/templated', SECRET), SECRET, {
        body_template: '{"site": "{{ data.name | upper }}", "event": "{{ event }}", "by": "{{ username }}"}',
      });
      await eventRule('templated sites', templated.id, { conditions: { attr: 'name', value: 'Templated' } });
      expect((await root.post('/api/dcim/sites/', { name: 'Templated', slug: 'templated', status: 'planned' })).status).toBe(201);
      const [delivery] = await waitFor('the templated delivery', () =>
        receiver.at('/templated').length > 0 ? receiver.at('/templated') : undefined,
      );
      expect(delivery.body).toEqual({ site: 'TEMPLATED', event: 'created', by: seeded.w.root.username });
      expect(delivery.signatureValid).toBe(true);
    });

    it('delivers a matching change once, signed, with NetBox’s body', async () => {
      const response = await root.post('/api/dcim/sites/', { name: 'Hook active', slug: 'hook-active', status: 'active' });
      expect(response.status).toBe(201);
      siteId = response.body.id;
      const requestId = response.headers.get('x-request-id');

      await waitFor('the delivery of Hook active', () => receiver.at('/active').some((d) => d.body?.data?.id === siteId));
      await allDelivered();
      const deliveries = receiver.at('/active').filter((d) => d.body?.data?.id === siteId);
      expect(deliveries).toHaveLength(1);
      const [delivery] = deliveries;
      expect(delivery.signatureValid).toBe(true);
      expect(delivery.method).toBe('POST');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['x-test-header']).toBe('alpha');
      expect(delivery.headers['x-other']).toBe('beta:gamma');

      const [change] = (await root.get(`/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id=${siteId}`)).body.results;
      expect(Object.keys(delivery.body).sort()).toEqual([
        'data',
        'event',
        'model',
        'object_type',
        'request_id',
        'snapshots',
        'timestamp',
        'username',
      ]);
      expect(delivery.body).toEqual({
        event: 'created',
        timestamp: expect.stringMatching(NETBOX_TIMESTAMP),
        object_type: 'dcim.site',
        model: 'site',
        username: 'root',
        request_id: requestId,
        data: response.body,
        snapshots: { prechange: null, postchange: change.postchange_data },
      });
      expect(delivery.body.data).toMatchObject({ id: siteId, name: 'Hook active', status: { value: 'active', label: 'Active' } });
      expect(delivery.body.snapshots.postchange).toMatchObject({ name: 'Hook active', status: 'active' });
      const [job] = await jobsOf(hook.id);
      expect(job).toMatchObject({ status: 'succeeded', attempts: 1, last_error: null });
    });

    it('sends nothing for a change that does not match the conditions', async () => {
      const planned = await created(root.post('/api/dcim/sites/', { name: 'Hook planned', slug: 'hook-planned', status: 'planned' }));
      // The delivery would have been enqueued in the change's own transaction, so its absence is already final.
      expect((await jobsOf(hook.id)).filter((job) => job.payload.body.data.id === planned.id)).toEqual([]);
      // And end to end: a later matching change is delivered, the planned one never.
      const marker = await created(root.post('/api/dcim/sites/', { name: 'Hook marker 1', slug: 'hook-marker-1', status: 'active' }));
      await waitFor('the marker delivery', () => receiver.at('/active').some((d) => d.body?.data?.id === marker.id));
      await allDelivered();
      expect(receiver.deliveries.filter((d) => d.body?.data?.id === planned.id)).toEqual([]);
      // Updating the object is another event type, which this rule does not select.
      await root.patch(`/api/dcim/sites/${siteId}/`, { description: 'updated' });
      expect((await jobsOf(hook.id)).filter((job) => job.payload.body.event !== 'created')).toEqual([]);
    });

    it('sends nothing for a disabled rule', async () => {
      const disabledHook = await webhook('disabled', receiver.expect('/disabled', 'x'), 'x');
      await eventRule('disabled rule', disabledHook.id, { enabled: false });
      const site = await created(
        root.post('/api/dcim/sites/', { name: 'Hook while disabled', slug: 'hook-while-disabled', status: 'active' }),
      );
      await waitFor('the delivery through the enabled rule', () => receiver.at('/active').some((d) => d.body?.data?.id === site.id));
      await allDelivered();
      expect(receiver.at('/disabled')).toEqual([]);
      expect(await jobsOf(disabledHook.id)).toEqual([]);
    });

    it('sends nothing for a change that is rolled back', async () => {
      const response = await root.post('/api/dcim/sites/', [
        { name: 'Hook twin', slug: 'hook-twin-1', status: 'active' },
        { name: 'Hook twin', slug: 'hook-twin-2', status: 'active' },
      ]);
      expect(response.status).toBeGreaterThanOrEqual(400);
      const marker = await created(root.post('/api/dcim/sites/', { name: 'Hook marker 2', slug: 'hook-marker-2', status: 'active' }));
      await waitFor('the marker delivery', () => receiver.at('/active').some((d) => d.body?.data?.id === marker.id));
      await allDelivered();
      expect(receiver.deliveries.filter((d) => d.body?.data?.name === 'Hook twin')).toEqual([]);
      expect((await jobsOf(hook.id)).filter((job) => job.payload.body.data.name === 'Hook twin')).toEqual([]);
    });
  });

  describe('deletions', () => {
    it('delivers an object_deleted event with the object as it was and no postchange snapshot', async () => {
      const secret = 'deleted-secret';
      const hook = await webhook('deleted sites', receiver.expect('/deleted', secret), secret);
      await eventRule('site deleted', hook.id, { event_types: ['object_deleted'] });
      const site = await created(root.post('/api/dcim/sites/', { name: 'Hook doomed', slug: 'hook-doomed', status: 'planned' }));
      const response = await root.delete(`/api/dcim/sites/${site.id}/`);
      expect(response.status).toBe(204);
      await waitFor('the deletion delivery', () => receiver.at('/deleted').length > 0);
      await allDelivered();
      const deliveries = receiver.at('/deleted');
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].signatureValid).toBe(true);
      expect(deliveries[0].body).toMatchObject({
        event: 'deleted',
        object_type: 'dcim.site',
        model: 'site',
        username: 'root',
        request_id: response.headers.get('x-request-id'),
        data: { id: site.id, name: 'Hook doomed', status: { value: 'planned' } },
        snapshots: { prechange: { name: 'Hook doomed', status: 'planned' }, postchange: null },
      });
    });
  });

  describe('(b) retries', () => {
    it('retries a delivery the receiver answered 500, with backoff, until it succeeds', async () => {
      const secret = 'flaky-secret';
      const hook = await webhook('flaky', receiver.expect('/flaky', secret), secret);
      await eventRule('flaky site updated', hook.id, {
        event_types: ['object_updated'],
        conditions: { and: [{ attr: 'name', value: 'Flaky site' }] },
      });
      const site = await created(root.post('/api/dcim/sites/', { name: 'Flaky site', slug: 'flaky-site', status: 'planned' }));
      receiver.failNext('/flaky', 1);

      const response = await root.patch(`/api/dcim/sites/${site.id}/`, { description: 'changed' });
      expect(response.status).toBe(200);
      await waitFor('a successful attempt', () => receiver.at('/flaky').some((d) => d.status === 200));
      await waitFor('the job to be marked succeeded', async () => (await jobsOf(hook.id))[0]?.status === 'succeeded');
      await allDelivered();

      const attempts = receiver.at('/flaky');
      expect(attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
      expect(attempts.every((attempt) => attempt.signatureValid)).toBe(true);
      // The retry sends the very same request body.
      expect(attempts[1].raw.equals(attempts[0].raw)).toBe(true);
      // Backoff after the first failure: 2^1 × JOB_BACKOFF_BASE_MS = 200 ms (less a little for clock granularity).
      expect(attempts[1].receivedAt - attempts[0].receivedAt).toBeGreaterThanOrEqual(150);
      expect(attempts[1].body).toMatchObject({
        event: 'updated',
        object_type: 'dcim.site',
        username: 'root',
        request_id: response.headers.get('x-request-id'),
        data: { id: site.id, description: 'changed' },
        snapshots: { prechange: { description: '' }, postchange: { description: 'changed' } },
      });

      const jobs = await jobsOf(hook.id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ status: 'succeeded', attempts: 2, last_error: null });
    });
  });

  describe('the egress policy', () => {
    const count = async (name: string) =>
      (await seeded.db.query<{ n: number }>('SELECT count(*)::int AS n FROM extras_webhook WHERE name = $1', [name])).rows[0].n;

    it.each([
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://127.0.0.2:8080/',
      'http://[::1]/hook',
      'http://10.0.0.5/hook',
      'https://192.168.1.1/hook',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00::1]/',
      'http://0.0.0.0:9/',
    ])('refuses payload_url %s (a refused literal address not in EGRESS_ALLOW) with 400 naming the field', async (url) => {
      const response = await root.post('/api/extras/webhooks/', { name: 'internal', payload_url: url });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ payload_url: [expect.stringContaining('The server may not send requests there:')] });
      expect(response.body.payload_url[0]).toContain('which EGRESS_ALLOW does not list');
      expect(await count('internal')).toBe(0);
    });

    it('refuses to move an existing webhook onto the metadata address', async () => {
      const hook = await webhook('moved', receiver.expect('/moved', 's'), 's');
      const response = await root.patch(`/api/extras/webhooks/${hook.id}/`, { payload_url: 'http://169.254.169.254/' });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['payload_url']);
      const { rows } = await seeded.db.query('SELECT payload_url FROM extras_webhook WHERE id = $1', [hook.id]);
      expect(rows[0].payload_url).toBe(receiver.expect('/moved', 's'));
    });

    it('refuses ca_file_path outside WEBHOOK_CA_DIR (/etc/shadow, .., a symbolic link leading out) with 400 naming the field', async () => {
      symlinkSync('/etc/passwd', join(CA_DIR, 'escape.pem'));
      for (const caFile of ['/etc/shadow', `${CA_DIR}/../../etc/shadow`, '../etc/passwd', join(CA_DIR, 'escape.pem')]) {
        const response = await root.post('/api/extras/webhooks/', {
          name: 'ca',
          payload_url: 'https://hooks.example.com/',
          ca_file_path: caFile,
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ ca_file_path: [`Not usable: must name a file inside the CA folder ${CA_DIR}.`] });
      }
      expect(await count('ca')).toBe(0);
    });

    it('accepts a ca_file_path inside WEBHOOK_CA_DIR, absolute or relative to it', async () => {
      writeFileSync(join(CA_DIR, 'internal-ca.pem'), '-----BEGIN CERTIFICATE-----\n');
      const absolute = await created(
        root.post('/api/extras/webhooks/', {
          name: 'ca absolute',
          payload_url: 'https://hooks.example.com/',
          ca_file_path: join(CA_DIR, 'internal-ca.pem'),
        }),
      );
      expect(absolute.ca_file_path).toBe(join(CA_DIR, 'internal-ca.pem'));
      const relative = await created(
        root.post('/api/extras/webhooks/', {
          name: 'ca relative',
          payload_url: 'https://hooks.example.com/',
          ca_file_path: 'internal-ca.pem',
        }),
      );
      expect(relative.ca_file_path).toBe('internal-ca.pem');
      const missing = await root.post('/api/extras/webhooks/', {
        name: 'ca missing',
        payload_url: 'https://hooks.example.com/',
        ca_file_path: 'nope.pem',
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ ca_file_path: ['Not usable: no such file in the CA folder.'] });
    });

    it('does not deliver to a refused address stored before the policy, and records why', async () => {
      const hook = await webhook('stored internal', receiver.expect('/stored', 's'), 's');
      await seeded.db.query('UPDATE extras_webhook SET payload_url = $1 WHERE id = $2', ['http://169.254.169.254/latest/', hook.id]);
      await eventRule('stored internal', hook.id, { conditions: { and: [{ attr: 'name', value: 'Egress site' }] } });
      await created(root.post('/api/dcim/sites/', { name: 'Egress site', slug: 'egress-site', status: 'planned' }));
      const [job] = await waitFor('the refused attempt', async () => {
        const jobs = await jobsOf(hook.id);
        return jobs[0]?.last_error ? jobs : undefined;
      });
      expect(job.last_error).toContain(
        'Webhook POST http://169.254.169.254 failed: refused by the egress policy: 169.254.169.254 is a link-local (169.254.0.0/16) address',
      );
      expect(receiver.at('/stored')).toHaveLength(0);
      // The queue would retry it for a while; deleted, its next attempt drops it and the queue drains.
      expect((await root.delete(`/api/extras/webhooks/${hook.id}/`)).status).toBe(204);
      await allDelivered();
      expect(receiver.at('/stored')).toHaveLength(0);
    });
  });

  describe('(c) several app instances on one database', () => {
    // Two app instances on the embedded PGlite database are not supported: its socket server cannot serve the
    // concurrent connections of two apps' pools. CI runs the e2e suite on a PostgreSQL server too, where this runs.
    const onServerDatabase = process.env.E2E_DB_MODE !== 'embedded' ? it : it.skip;
    let second: TestApp | undefined;

    afterAll(async () => {
      // Before the first app, whose close drops the shared database.
      await second?.close();
    });

    onServerDatabase('delivers each of N changes exactly once while two workers poll the same queue', async () => {
      second = await startTestApp({ env: ENV, databaseUrl: () => seeded.testApp.database.url });
      const viaSecond = new PlatformClient(second.baseUrl, root.token);
      const secret = 'fan-out-secret';
      // A slow receiver keeps each worker busy for a while, so that both take part.
      const hook = await webhook('fan-out', receiver.expect('/fanout', secret, { delayMs: 30 }), secret);
      await eventRule('fan-out', hook.id, { conditions: { and: [{ attr: 'description', value: 'fan-out' }] } });

      const N = 20;
      const response = await viaSecond.post(
        '/api/dcim/sites/',
        Array.from({ length: N }, (_, index) => ({
          name: `Fan ${index}`,
          slug: `fan-${index}`,
          status: 'planned',
          description: 'fan-out',
        })),
      );
      expect(response.status).toBe(201);
      const ids = (response.body as Array<{ id: number }>).map((site) => site.id).sort((a, b) => a - b);
      expect(ids).toHaveLength(N);

      await waitFor(`${N} distinct deliveries`, () => new Set(receiver.at('/fanout').map((d) => d.body?.data?.id)).size >= N);
      await allDelivered();

      const deliveries = receiver.at('/fanout');
      expect(deliveries).toHaveLength(N);
      expect(deliveries.map((d) => d.body.data.id).sort((a: number, b: number) => a - b)).toEqual(ids);
      expect(deliveries.every((d) => d.signatureValid && d.status === 200 && d.body.event === 'created')).toBe(true);
      const jobs = await jobsOf(hook.id);
      expect(jobs).toHaveLength(N);
      expect(jobs.every((job) => job.status === 'succeeded' && job.attempts === 1)).toBe(true);
      // Both instances' workers took part (each logs the deliveries it made), and together they made N.
      const deliveredBy = (app: TestApp) =>
        app.logs.entries().filter((entry) => entry.msg === 'webhook delivered' && entry.webhook_id === hook.id).length;
      const [byFirst, bySecond] = [deliveredBy(seeded.testApp), deliveredBy(second)];
      expect(byFirst + bySecond).toBe(N);
      expect(byFirst).toBeGreaterThan(0);
      expect(bySecond).toBeGreaterThan(0);
    });
  });
});
