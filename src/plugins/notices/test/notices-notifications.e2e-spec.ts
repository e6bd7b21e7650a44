import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const N = '/api/plugins/notices';
const TEMPLATES = `${N}/notification-templates/`;
const SCOPES = `${N}/template-scopes/`;
const PREPARED = `${N}/prepared-notifications/`;
const MAINTENANCES = `${N}/maintenance/`;
const IMPACTS = `${N}/impact/`;

async function waitFor<T>(what: string, condition: () => Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Notification templates, their matching and rendering, and prepared notifications through their
 * delivery states: the walk the mail worker drives (draft → ready → sent → delivered, sent → failed →
 * ready) with its journal entries, the refused moves, and the event rule on `status.value = ready`
 * whose signed webhook is the worker's outbound trigger.
 */
describe('platform notices plugin: templates and prepared notifications', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};
  const deliveries: Array<{ headers: IncomingHttpHeaders; raw: Buffer }> = [];
  let receiver: Server;
  let receiverUrl = '';

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({ headers: request.headers, raw: Buffer.concat(chunks) });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook/outbound`;
    // The receiver listens on loopback, which the egress policy refuses unless it is listed.
    ({ seeded, api: root } = await startPlatformApp({
      JOB_POLL_INTERVAL_MS: '100',
      JOB_BACKOFF_BASE_MS: '100',
      EGRESS_ALLOW: '127.0.0.1',
    }));
    fx.provider = await root.created('/api/circuits/providers/', { name: 'Zayo', slug: 'zayo' });
    fx.tenant = await root.created('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
    fx.otherTenant = await root.created('/api/tenancy/tenants/', { name: 'Globex', slug: 'globex' });
    fx.noc = await root.created('/api/tenancy/contact-roles/', { name: 'NOC', slug: 'noc' });
    fx.billing = await root.created('/api/tenancy/contact-roles/', { name: 'Billing', slug: 'billing' });
    fx.alice = await root.created('/api/tenancy/contacts/', { name: 'Alice', email: 'alice@acme.example' });
    fx.bob = await root.created('/api/tenancy/contacts/', { name: 'Bob', email: 'bob@acme.example' });
    fx.carol = await root.created('/api/tenancy/contacts/', { name: 'Carol', email: 'carol@globex.example' });
    fx.nomail = await root.created('/api/tenancy/contacts/', { name: 'Nomail' });
    const assign = (tenant: any, contact: any, role: any, priority: string) =>
      root.created('/api/tenancy/contact-assignments/', {
        object_type: 'tenancy.tenant',
        object_id: tenant.id,
        contact: contact.id,
        role: role.id,
        priority,
      });
    await assign(fx.tenant, fx.alice, fx.noc, 'primary');
    await assign(fx.tenant, fx.bob, fx.billing, 'primary');
    await assign(fx.otherTenant, fx.carol, fx.noc, 'secondary');
    const circuitType = await root.created('/api/circuits/circuit-types/', { name: 'Wave', slug: 'wave' });
    fx.circuitA = await root.created('/api/circuits/circuits/', {
      cid: 'ZAYO-A',
      provider: fx.provider.id,
      type: circuitType.id,
      tenant: fx.tenant.id,
    });
    fx.circuitB = await root.created('/api/circuits/circuits/', {
      cid: 'ZAYO-B',
      provider: fx.provider.id,
      type: circuitType.id,
      tenant: fx.otherTenant.id,
    });
    fx.template = await root.created(TEMPLATES, { name: 'Plain', slug: 'plain', subject_template: 'Notice' });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const draft = (extra: Record<string, unknown> = {}) =>
    root.created(PREPARED, {
      template: fx.template.id,
      subject: 'Maintenance',
      body_text: 'Body',
      contacts: [fx.alice.id, fx.nomail.id],
      ...extra,
    });
  const journal = async (id: number) =>
    (
      await root.get(
        `/api/extras/journal-entries/?assigned_object_type=notices.preparednotification&assigned_object_id=${id}&ordering=created&limit=50`,
      )
    ).body.results as Array<{ kind: { value: string }; comments: string }>;

  describe('templates', () => {
    it('accepts headers as JSON or YAML and refuses bad YAML naming the field', async () => {
      const json = await root.created(TEMPLATES, { name: 'J', slug: 'j', headers_template: { 'X-Priority': '1' } });
      expect(json.headers_template).toEqual({ 'X-Priority': '1' });
      const yaml = await root.created(TEMPLATES, { name: 'Y', slug: 'y', headers_template: 'X-Priority: 1\nReply-To: noc@example.net\n' });
      expect(yaml.headers_template).toBe('X-Priority: 1\nReply-To: noc@example.net\n');
      const bad = await root.post(TEMPLATES, { name: 'B', slug: 'b', headers_template: 'X-Priority: [1\n' });
      expect(bad.status).toBe(400);
      expect(bad.body.headers_template[0]).toMatch(/^Invalid YAML: /);
      const notMapping = await root.post(TEMPLATES, { name: 'B', slug: 'b', headers_template: ['a'] });
      expect(notMapping.status).toBe(400);
      expect(Object.keys(notMapping.body)).toEqual(['headers_template']);
      const cycle = await root.patch(`${TEMPLATES}${json.id}/`, { extends: yaml.id });
      expect(cycle.status).toBe(200);
      const back = await root.patch(`${TEMPLATES}${yaml.id}/`, { extends: json.id });
      expect(back.status).toBe(400);
      expect(Object.keys(back.body)).toEqual(['extends']);
      for (const id of [json.id, yaml.id]) await root.patch(`${TEMPLATES}${id}/`, { extends: null });
      for (const id of [json.id, yaml.id]) expect((await root.delete(`${TEMPLATES}${id}/`)).status).toBe(204);
    });
  });

  describe('prepared notifications through their states', () => {
    it('serializes status as {value, label} and is created as a draft only', async () => {
      const created = await draft();
      expect(created.status).toEqual({ value: 'draft', label: 'Draft' });
      expect(created.recipients).toEqual([]);
      expect(created).not.toHaveProperty('message');
      const ready = await root.post(PREPARED, { template: fx.template.id, status: 'ready' });
      expect(ready.status).toBe(400);
      expect(Object.keys(ready.body)).toEqual(['status']);
    });

    it('walks draft → ready → sent → delivered with timestamps, approval and journal entries', async () => {
      const n = await draft();
      const skip = await root.patch(`${PREPARED}${n.id}/`, { status: 'sent' });
      expect(skip.status).toBe(400);
      expect(skip.body).toEqual({ status: ["Cannot transition from 'draft' to 'sent'. Valid: ready"] });
      const ready = await root.patch(`${PREPARED}${n.id}/`, { status: 'ready', message: 'Approved by the NOC' });
      expect(ready.status).toBe(200);
      expect(ready.body.status).toEqual({ value: 'ready', label: 'Ready' });
      expect(ready.body.recipients).toEqual([{ id: fx.alice.id, email: 'alice@acme.example', name: 'Alice', contact_id: fx.alice.id }]);
      expect(ready.body.approved_by).toMatchObject({ username: 'root' });
      expect(ready.body.approved_at).not.toBeNull();
      expect(ready.body).not.toHaveProperty('message');
      const future = await root.patch(`${PREPARED}${n.id}/`, { status: 'sent', timestamp: '2099-01-01T00:00:00Z' });
      expect(future.status).toBe(400);
      expect(Object.keys(future.body)).toEqual(['timestamp']);
      const beforeApproval = await root.patch(`${PREPARED}${n.id}/`, { status: 'sent', timestamp: '2001-01-01T00:00:00Z' });
      expect(beforeApproval.status).toBe(400);
      expect(Object.keys(beforeApproval.body)).toEqual(['timestamp']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const sentAt = new Date().toISOString();
      const sent = await root.patch(`${PREPARED}${n.id}/`, { status: 'sent', message: 'Sent via SES (MessageId: 42)', timestamp: sentAt });
      expect(sent.status).toBe(200);
      expect(new Date(sent.body.sent_at).toISOString()).toBe(sentAt);
      const again = await root.patch(`${PREPARED}${n.id}/`, { status: 'sent' });
      expect(again.status).toBe(200);
      const delivered = await root.patch(`${PREPARED}${n.id}/`, { status: 'delivered', message: 'Delivered to alice@acme.example' });
      expect(delivered.status).toBe(200);
      expect(delivered.body.delivered_at).not.toBeNull();
      const final = await root.patch(`${PREPARED}${n.id}/`, { status: 'failed' });
      expect(final.status).toBe(400);
      expect(final.body).toEqual({ status: ["Cannot transition from 'delivered' to 'failed'. Valid: none"] });
      expect((await journal(n.id)).map((entry) => [entry.kind.value, entry.comments])).toEqual([
        ['info', 'Status: draft → ready\n\nApproved by the NOC'],
        ['info', 'Status: ready → sent\n\nSent via SES (MessageId: 42)'],
        ['success', 'Status: sent → delivered\n\nDelivered to alice@acme.example'],
      ]);
      const { rows } = await seeded.db.query('SELECT message, timestamp FROM notices_preparednotification WHERE id = $1', [n.id]);
      expect(rows).toEqual([{ message: '', timestamp: null }]);
    });

    it('walks sent → failed → ready with a warning entry, and refuses ready without recipients', async () => {
      const lonely = await draft({ contacts: [fx.nomail.id] });
      const refused = await root.patch(`${PREPARED}${lonely.id}/`, { status: 'ready' });
      expect(refused.status).toBe(400);
      expect(refused.body.contacts[0]).toMatch(/^Cannot approve notification with no recipients/);
      expect((await root.get(`${PREPARED}${lonely.id}/`)).body.status.value).toBe('draft');
      // Contacts and the move in one request: the recipients are those after the write.
      const together = await root.patch(`${PREPARED}${lonely.id}/`, { contacts: [fx.bob.id], status: 'ready' });
      expect(together.status).toBe(200);
      expect(together.body.recipients.map((r: any) => r.email)).toEqual(['bob@acme.example']);
      expect((await root.patch(`${PREPARED}${lonely.id}/`, { status: 'sent' })).status).toBe(200);
      const failed = await root.patch(`${PREPARED}${lonely.id}/`, {
        status: 'failed',
        message: 'Bounce (Permanent/General) for bob@acme.example',
      });
      expect(failed.status).toBe(200);
      const retry = await root.patch(`${PREPARED}${lonely.id}/`, { status: 'ready', message: 'Retry' });
      expect(retry.status).toBe(200);
      expect(retry.body.status.value).toBe('ready');
      expect((await journal(lonely.id)).map((entry) => entry.kind.value)).toEqual(['warning', 'info']);
      expect(await root.listed(`${PREPARED}?status=ready&id=${lonely.id}`, 'id')).toEqual([lonely.id]);
    });
    it('lists sent and delivered notifications read-only at sent-notifications/', async () => {
      const n = await draft({ subject: 'Sent one' });
      for (const status of ['ready', 'sent']) expect((await root.patch(`${PREPARED}${n.id}/`, { status })).status).toBe(200);
      const still = await draft({ subject: 'Still draft' });
      const listed = await root.get(`${N}/sent-notifications/?limit=1000`);
      expect(listed.status).toBe(200);
      const ids = listed.body.results.map((r: any) => r.id);
      expect(ids).toContain(n.id);
      expect(ids).not.toContain(still.id);
      expect(listed.body.results.every((r: any) => ['sent', 'delivered'].includes(r.status.value))).toBe(true);
      expect((await root.get(`${N}/sent-notifications/?status=draft`)).body.count).toBe(0);
      expect((await root.get(`${N}/sent-notifications/${n.id}/`)).body.subject).toBe('Sent one');
      expect((await root.get(`${N}/sent-notifications/${still.id}/`)).status).toBe(404);
      expect((await root.post(`${N}/sent-notifications/`, { template: fx.template.id })).status).toBe(405);
      const writes = [
        await root.patch(`${N}/sent-notifications/${n.id}/`, { subject: 'x' }),
        await root.put(`${N}/sent-notifications/${n.id}/`, { subject: 'x' }),
        await root.delete(`${N}/sent-notifications/${n.id}/`),
      ];
      // Plugin routes are GET or POST: other methods reach no route (404), and change nothing.
      expect(writes.map((w) => w.status)).toEqual([404, 404, 404]);
      expect((await root.get(`${PREPARED}${n.id}/`)).body.subject).toBe('Sent one');
    });
  });

  describe('an event rule on prepared notifications (updated, status.value = ready, webhook)', () => {
    it('fires the signed webhook once when a notification becomes ready', async () => {
      const secret = 'outbound-shared-secret';
      const hook = await root.created('/api/extras/webhooks/', { name: 'mail worker', payload_url: receiverUrl, secret });
      await root.created('/api/extras/event-rules/', {
        name: 'send ready notifications',
        object_types: ['notices.preparednotification'],
        event_types: ['object_updated'],
        action_type: 'webhook',
        action_object_type: 'extras.webhook',
        action_object_id: hook.id,
        conditions: { attr: 'status.value', value: 'ready' },
      });
      const n = await draft();
      await root.patch(`${PREPARED}${n.id}/`, { subject: 'Still a draft' });
      await root.patch(`${PREPARED}${n.id}/`, { status: 'ready' });
      const [delivery] = await waitFor('the webhook delivery', async () => (deliveries.length > 0 ? deliveries : null));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(deliveries).toHaveLength(1);
      expect(delivery.headers['x-hook-signature']).toBe(createHmac('sha512', secret).update(delivery.raw).digest('hex'));
      const body = JSON.parse(delivery.raw.toString('utf8'));
      expect(body).toMatchObject({
        event: 'updated',
        object_type: 'notices.preparednotification',
        data: { id: n.id, status: { value: 'ready' } },
      });
    });
  });

  describe('preparing the notifications of an event', () => {
    it('uses the highest-scoring template per tenant, renders it and picks contacts by role', async () => {
      const base = await root.created(TEMPLATES, {
        name: 'Base',
        slug: 'base',
        is_base_template: true,
        css_template: 'body { font-family: sans-serif; }',
        headers_template: { 'X-Base': 'yes', 'X-Priority': '5' },
      });
      const generic = await root.created(TEMPLATES, {
        name: 'Generic maintenance',
        slug: 'generic',
        event_type: 'maintenance',
        subject_template: 'Generic {{ maintenance.name }}',
        body_template: 'generic',
      });
      const acme = await root.created(TEMPLATES, {
        name: 'Acme maintenance',
        slug: 'acme-maintenance',
        event_type: 'maintenance',
        extends: base.id,
        subject_template: '[{{ tenant.name }}] {{ maintenance.name }}: {{ highest_impact }}',
        body_template:
          '# {{ maintenance.summary }}\n\nFrom **{{ maintenance.start | ical_datetime }}**\n\n{% for i in impacts %}- {{ i.target.name }} {{ i.impact }}\n{% endfor %}',
        headers_template: 'X-Priority: 1\n',
        contact_roles: [fx.noc.id],
        include_ical: true,
      });
      await root.created(SCOPES, { template: acme.id, content_type: 'tenancy.tenant', object_id: fx.tenant.id, weight: 500 });
      // Scores: acme 1000 + 500 for Acme only; generic 1000 + 10 (the provider); the unscoped "Plain" 1000.
      await root.created(SCOPES, { template: generic.id, content_type: 'circuits.provider', object_id: fx.provider.id, weight: 10 });
      const event = await root.created(MAINTENANCES, {
        name: 'MNT-42',
        summary: 'Fiber splice',
        provider: fx.provider.id,
        status: 'CONFIRMED',
        start: '2030-05-01T01:00:00Z',
        end: '2030-05-01T05:00:00Z',
      });
      const ct = (await root.get('/api/core/object-types/?app_label=notices&model=maintenance')).body.results[0].id;
      const circuitCt = (await root.get('/api/core/object-types/?app_label=circuits&model=circuit')).body.results[0].id;
      for (const [circuit, impact] of [
        [fx.circuitA, 'DEGRADED'],
        [fx.circuitB, 'OUTAGE'],
      ])
        await root.created(IMPACTS, {
          event_content_type: ct,
          event_object_id: event.id,
          target_content_type: circuitCt,
          target_object_id: circuit.id,
          impact,
        });
      const prepared = await root.post(`${MAINTENANCES}${event.id}/prepare-notifications/`);
      expect({ status: prepared.status, count: prepared.body.count }).toEqual({ status: 200, count: 2 });
      const byTemplate = new Map(prepared.body.results.map((n: any) => [n.template.id, n]));
      const forAcme: any = byTemplate.get(acme.id);
      expect(forAcme).toMatchObject({
        status: { value: 'draft' },
        event_content_type: 'notices.maintenance',
        event_id: event.id,
        subject: '[Acme] MNT-42: DEGRADED',
        css: 'body { font-family: sans-serif; }',
        headers: { 'X-Priority': '1', 'X-Base': 'yes' },
      });
      expect(forAcme.contacts.map((c: any) => c.id)).toEqual([fx.alice.id]);
      expect(forAcme.body_text).toBe('# Fiber splice\n\nFrom **20300501T010000Z**\n\n- ZAYO-A DEGRADED\n');
      expect(forAcme.body_html).toBe(
        '<h1>Fiber splice</h1>\n<p>From <strong>20300501T010000Z</strong></p>\n<ul><li>ZAYO-A DEGRADED</li></ul>',
      );
      expect(forAcme.ical_content).toContain('DTSTART:20300501T010000Z');
      expect(forAcme.ical_content).toContain('X-MAINTNOTE-MAINTENANCE-ID:MNT-42');
      const forGlobex: any = byTemplate.get(generic.id);
      expect(forGlobex.subject).toBe('Generic MNT-42');
      expect(forGlobex.contacts.map((c: any) => c.id)).toEqual([fx.carol.id]);
      expect(forGlobex.ical_content).toBe('');
    });
  });

  describe('GraphQL', () => {
    it('serves maintenance, outage, impact, event_notification, notification_template, prepared_notification and their _list', async () => {
      const event = await root.created(MAINTENANCES, {
        name: 'GQL-1',
        summary: 's',
        provider: fx.provider.id,
        status: 'TENTATIVE',
        start: '2030-06-01T00:00:00Z',
        end: '2030-06-01T01:00:00Z',
      });
      const outage = await root.created(`${N}/outage/`, { name: 'GQL-O', summary: 's', provider: fx.provider.id, acknowledged: true });
      const impact = await root.created(IMPACTS, {
        event_content_type: 'notices.maintenance',
        event_object_id: event.id,
        target_content_type: 'circuits.circuit',
        target_object_id: fx.circuitA.id,
        impact: 'NO-IMPACT',
      });
      const received = await root.created(`${N}/eventnotification/`, {
        event_content_type: 'notices.maintenance',
        event_object_id: event.id,
        subject: 'GQL subject',
        email_from: 'noc@zayo.com',
        email_received: '2030-05-01T00:00:00Z',
        email: 'raw',
      });
      const n = await draft({ subject: 'GQL notification' });
      const query = `{
        maintenance(id: ${event.id}) { id name status }
        maintenance_list(filters: {name: "GQL-1", status: "TENTATIVE", provider_id: ["${fx.provider.id}"]}) { id }
        outage_list(filters: {name: "GQL-O", acknowledged: "true"}) { id }
        outage(id: ${outage.id}) { name }
        impact_list(filters: {event_object_id: "${event.id}", impact: "NO-IMPACT"}) { id }
        impact(id: ${impact.id}) { id }
        event_notification(id: ${received.id}) { subject }
        event_notification_list(filters: {subject: "GQL subject"}) { id }
        notification_template(id: ${fx.template.id}) { slug }
        notification_template_list(filters: {slug: "plain"}) { id }
        prepared_notification(id: ${n.id}) { subject status }
        prepared_notification_list(filters: {subject: "GQL notification", status: "draft"}) { id }
      }`;
      const answer = await root.post('/graphql/', { query });
      expect(answer.body.errors).toBeUndefined();
      const data = answer.body.data;
      expect(data.maintenance.name).toBe('GQL-1');
      expect(data.maintenance_list.map((r: any) => Number(r.id))).toEqual([event.id]);
      expect(data.outage_list.map((r: any) => Number(r.id))).toEqual([outage.id]);
      expect(data.outage.name).toBe('GQL-O');
      expect(data.impact_list.map((r: any) => Number(r.id))).toEqual([impact.id]);
      expect(Number(data.impact.id)).toBe(impact.id);
      expect(data.event_notification.subject).toBe('GQL subject');
      expect(data.event_notification_list.map((r: any) => Number(r.id))).toEqual([received.id]);
      expect(data.notification_template.slug).toBe('plain');
      expect(data.notification_template_list.map((r: any) => Number(r.id))).toEqual([fx.template.id]);
      expect(data.prepared_notification.subject).toBe('GQL notification');
      expect(data.prepared_notification_list.map((r: any) => Number(r.id))).toEqual([n.id]);
      const raw = await root.post('/graphql/', { query: `{ event_notification(id: ${received.id}) { email } }` });
      expect(raw.body.errors?.[0]?.message).toMatch(/email/);
    });
  });
});
