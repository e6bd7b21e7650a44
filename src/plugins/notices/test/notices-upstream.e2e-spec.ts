import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ICAL from 'ical.js';
import { PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const N = '/api/plugins/notices';
const TEMPLATES = `${N}/notification-templates/`;
const SCOPES = `${N}/template-scopes/`;
const PREPARED = `${N}/prepared-notifications/`;
const PYNETBOX_SCRIPT = join(__dirname, 'pynetbox', 'upstream_payloads.py');

/**
 * What a user of the upstream netbox-notices plugin writes and reads: prepared notifications written
 * with `template_id`/`contact_ids` (by pynetbox too), `viewed_at`, scopes written inline on a template
 * in upstream's content-type format, events with nested `impacts` and `notifications`, and the iCal
 * feed at upstream's URL.
 */
describe('platform notices plugin: upstream payloads and read shapes', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    fx.provider = await root.created('/api/circuits/providers/', { name: 'Zayo', slug: 'zayo' });
    fx.tenant = await root.created('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
    fx.site = await root.created('/api/dcim/sites/', { name: 'Paris 1', slug: 'paris-1' });
    fx.alice = await root.created('/api/tenancy/contacts/', { name: 'Alice', email: 'alice@acme.example' });
    fx.template = await root.created(TEMPLATES, { name: 'Plain', slug: 'plain', subject_template: 'Notice' });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('prepared notifications', () => {
    it('accept template_id and contact_ids as upstream writes them, besides template and contacts', async () => {
      const created = await root.created(PREPARED, { template_id: fx.template.id, contact_ids: [fx.alice.id], subject: 'Upstream' });
      expect(created.template.id).toBe(fx.template.id);
      expect(created.contacts.map((contact: { id: number }) => contact.id)).toEqual([fx.alice.id]);
      expect(created).not.toHaveProperty('template_id');
      expect(created).not.toHaveProperty('contact_ids');
      const { rows } = await seeded.db.query('SELECT template_id FROM notices_preparednotification WHERE id = $1', [created.id]);
      expect(rows).toEqual([{ template_id: fx.template.id }]);

      const patched = await root.patch(`${PREPARED}${created.id}/`, { contact_ids: [], status: 'draft' });
      expect(patched.status).toBe(200);
      expect(patched.body.contacts).toEqual([]);
      const ours = await root.created(PREPARED, { template: fx.template.id, contacts: [fx.alice.id] });
      expect(ours.contacts).toHaveLength(1);

      const both = await root.post(PREPARED, { template: fx.template.id, template_id: fx.template.id });
      expect(both.status).toBe(400);
      expect(both.body).toEqual({ template_id: ['Give template or template_id, not both.'] });
      const missing = await root.post(PREPARED, { subject: 'none' });
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body)).toEqual(['template']);
      const unknown = await root.post(PREPARED, { template_id: 999999 });
      expect(unknown.status).toBe(400);
      expect(Object.keys(unknown.body)).toEqual(['template']);
    });

    it('read viewed_at: null until the first Open delivery event, then kept', async () => {
      const created = await root.created(PREPARED, { template_id: fx.template.id, contact_ids: [fx.alice.id] });
      expect(created.viewed_at).toBeNull();
      for (const status of ['ready', 'sent']) expect((await root.patch(`${PREPARED}${created.id}/`, { status })).status).toBe(200);
      const send = await root.post(`${PREPARED}${created.id}/delivery-event/`, { event: 'Delivery', message: 'ok' });
      expect(send.status).toBe(200);
      expect((await root.get(`${PREPARED}${created.id}/`)).body.viewed_at).toBeNull();
      expect((await root.post(`${PREPARED}${created.id}/delivery-event/`, { event: 'Open', message: 'opened' })).status).toBe(200);
      const first = (await root.get(`${PREPARED}${created.id}/`)).body.viewed_at as string;
      expect(Date.now() - Date.parse(first)).toBeLessThan(60_000);
      expect((await root.post(`${PREPARED}${created.id}/delivery-event/`, { event: 'Open', message: 'again' })).status).toBe(200);
      expect((await root.get(`${PREPARED}${created.id}/`)).body.viewed_at).toBe(first);
      const written = await root.patch(`${PREPARED}${created.id}/`, { viewed_at: '2020-01-01T00:00:00Z' });
      expect(written.status).toBe(200);
      expect(written.body.viewed_at).toBe(first);
      expect((await root.get(`${N}/sent-notifications/${created.id}/`)).body.viewed_at).toBe(first);
    });

    it('documents the upstream names in the OpenAPI document', async () => {
      const document = (await root.get('/api/schema/')).body;
      const writable = document.components.schemas.WritableNoticesPreparednotificationRequest;
      expect(writable.properties.template_id).toMatchObject({ type: 'integer', writeOnly: true });
      expect(writable.properties.contact_ids).toMatchObject({ type: 'array', writeOnly: true });
      expect(writable.properties.template_id.description).toMatch(/Another name of `template`/);
      expect(document.paths['/plugins/notices/ical/maintenances.ics']).toBeDefined();
    });
  });

  describe('template scopes written inline', () => {
    it('creates, replaces and keeps scopes, reading content_type as the model name with object_repr', async () => {
      const created = await root.created(TEMPLATES, {
        name: 'Scoped',
        slug: 'scoped',
        scopes: [
          { content_type: 'tenant', object_id: fx.tenant.id, weight: 300 },
          { content_type: 'circuits.provider', event_type: 'outage' },
        ],
      });
      expect(created.scopes).toEqual([
        {
          id: expect.any(Number),
          content_type: 'tenant',
          object_id: fx.tenant.id,
          object_repr: 'Acme',
          event_type: '',
          event_status: '',
          weight: 300,
        },
        {
          id: expect.any(Number),
          content_type: 'provider',
          object_id: null,
          object_repr: 'All providers',
          event_type: 'outage',
          event_status: '',
          weight: 1000,
        },
      ]);
      // The scopes' own endpoint sees the same rows.
      const own = await root.get(`${SCOPES}?template_id=${created.id}&ordering=id`);
      expect(own.body.results.map((scope: any) => [scope.content_type, scope.object_id])).toEqual([
        ['tenancy.tenant', fx.tenant.id],
        ['circuits.provider', null],
      ]);

      const untouched = await root.patch(`${TEMPLATES}${created.id}/`, { description: 'no scopes given' });
      expect(untouched.body.scopes).toHaveLength(2);

      const replaced = await root.patch(`${TEMPLATES}${created.id}/`, {
        scopes: [{ content_type: 'maintenance', event_status: 'CONFIRMED', weight: 10 }],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body.scopes).toEqual([
        {
          id: expect.any(Number),
          content_type: 'maintenance',
          object_id: null,
          object_repr: 'All maintenances',
          event_type: '',
          event_status: 'CONFIRMED',
          weight: 10,
        },
      ]);
      const { rows } = await seeded.db.query('SELECT count(*)::int AS n FROM notices_templatescope WHERE template_id = $1', [created.id]);
      expect(rows[0].n).toBe(1);

      // The change record of the template carries the replacement.
      const changes = await root.get(
        `/api/core/object-changes/?changed_object_type=notices.notificationtemplate&changed_object_id=${created.id}&ordering=time`,
      );
      const last = changes.body.results[changes.body.results.length - 1];
      expect(last.postchange_data.scopes.map((scope: any) => scope.event_status)).toEqual(['CONFIRMED']);
      expect(last.prechange_data.scopes).toHaveLength(2);

      const cleared = await root.patch(`${TEMPLATES}${created.id}/`, { scopes: [] });
      expect(cleared.body.scopes).toEqual([]);
    });

    it('refuses bad scopes with a 400 naming scopes, and writes nothing', async () => {
      const cases: Array<[unknown, RegExp]> = [
        ['tenant', /list of scopes/],
        [[{ object_id: 1 }], /Scope 1: content_type is required/],
        [[{ content_type: 'nosuchmodel' }], /Scope 1: content_type "nosuchmodel" is not an object type/],
        [[{ content_type: 'tenant', weight: 99999 }], /Scope 1: weight/],
        [[{ content_type: 'tenant', event_type: 'other' }], /Scope 1: event_type/],
        [[{ content_type: 'tenant' }, { content_type: 'tenancy.tenant' }], /Scope 2: the same/],
        [[{ content_type: 'tenant', colour: 'red' }], /Scope 1: unknown field "colour"/],
      ];
      for (const [scopes, message] of cases) {
        const response = await root.post(TEMPLATES, { name: 'Bad', slug: 'bad', scopes });
        expect({ scopes, status: response.status, keys: Object.keys(response.body ?? {}) }).toEqual({
          scopes,
          status: 400,
          keys: ['scopes'],
        });
        expect(response.body.scopes.join(' ')).toMatch(message);
      }
      expect((await root.get(`${TEMPLATES}?slug=bad`)).body.count).toBe(0);
    });

    it('refuses a model name two apps share, naming the app.model choices', async () => {
      // An object type of another app with the same model name, as a second plugin's would be.
      const { rows } = await seeded.db.query(`INSERT INTO core_objecttype (app_label, model) VALUES ('otherapp', 'tenant') RETURNING id`);
      try {
        const response = await root.post(TEMPLATES, { name: 'Amb', slug: 'amb', scopes: [{ content_type: 'tenant' }] });
        expect(response.status).toBe(400);
        expect(response.body.scopes).toEqual(['Scope 1: content_type "tenant" is ambiguous: give one of tenancy.tenant, otherapp.tenant.']);
        const byLabel = await root.created(TEMPLATES, { name: 'Amb', slug: 'amb', scopes: [{ content_type: 'tenancy.tenant' }] });
        expect(byLabel.scopes.map((scope: any) => scope.content_type)).toEqual(['tenant']);
      } finally {
        await seeded.db.query('DELETE FROM core_objecttype WHERE id = $1', [rows[0].id]);
      }
    });
  });

  describe('events', () => {
    it('carry nested impacts and notifications as upstream serialises them', async () => {
      const maintenance = await root.created(`${N}/maintenance/`, {
        name: 'MNT-1',
        summary: 'Splice',
        provider: fx.provider.id,
        status: 'CONFIRMED',
        start: '2031-01-01T01:00:00Z',
        end: '2031-01-01T03:00:00Z',
      });
      expect(maintenance.impacts).toEqual([]);
      expect(maintenance.notifications).toEqual([]);
      const impact = await root.created(`${N}/impact/`, {
        event_content_type: 'notices.maintenance',
        event_object_id: maintenance.id,
        target_content_type: 'dcim.site',
        target_object_id: fx.site.id,
        impact: 'DEGRADED',
      });
      const notification = await root.created(`${N}/eventnotification/`, {
        event_content_type: 'notices.maintenance',
        event_object_id: maintenance.id,
        subject: 'Planned work',
        email_from: 'noc@zayo.example',
        email_received: '2030-12-01T10:00:00Z',
        email_body: 'body',
      });
      const outage = await root.created(`${N}/outage/`, { name: 'INC-1', summary: 'Cut', provider: fx.provider.id });
      await root.created(`${N}/impact/`, {
        event_content_type: 'notices.outage',
        event_object_id: outage.id,
        target_content_type: 'dcim.site',
        target_object_id: fx.site.id,
        impact: 'OUTAGE',
      });

      const read = (await root.get(`${N}/maintenance/${maintenance.id}/`)).body;
      expect(read.impacts).toEqual([
        {
          id: impact.id,
          url: `${root.baseUrl}${N}/impact/${impact.id}/`,
          event_type: 'notices.maintenance',
          event_object: { id: maintenance.id, name: 'MNT-1' },
          target_type: 'dcim.site',
          target_object: { id: fx.site.id, name: 'Paris 1' },
          impact: 'DEGRADED',
          created: impact.created,
          last_updated: impact.last_updated,
        },
      ]);
      expect(read.notifications).toEqual([
        {
          id: notification.id,
          url: `${root.baseUrl}${N}/eventnotification/${notification.id}/`,
          event_type: 'notices.maintenance',
          event_object: { id: maintenance.id, name: 'MNT-1' },
          subject: 'Planned work',
          email_from: 'noc@zayo.example',
          email_received: notification.email_received,
          created: notification.created,
          last_updated: notification.last_updated,
        },
      ]);
      expect(read.impact_count).toBe(1);
      const outageRead = (await root.get(`${N}/outage/?id=${outage.id}`)).body.results[0];
      expect(outageRead.impacts.map((i: any) => [i.event_type, i.target_object.name, i.impact])).toEqual([
        ['notices.outage', 'Paris 1', 'OUTAGE'],
      ]);
      expect(outageRead.notifications).toEqual([]);
      // Read-only: a written list is ignored, as DRF ignores read-only fields.
      const written = await root.patch(`${N}/maintenance/${maintenance.id}/`, { impacts: [], notifications: [] });
      expect(written.status).toBe(200);
      expect(written.body.impacts).toHaveLength(1);
      // Brief: no nested lists.
      const brief = (await root.get(`${N}/maintenance/?id=${maintenance.id}&brief=true`)).body.results[0];
      expect(brief).not.toHaveProperty('impacts');
    });
  });

  describe('iCal feed', () => {
    it('is served at upstream /plugins/notices/ical/maintenances.ics with ?token= as at the API path', async () => {
      const token = root.token!;
      const upstream = await root.as(undefined).get(`/plugins/notices/ical/maintenances.ics?token=${token}&past_days=365`);
      const ours = await root.as(undefined).get(`${N}/ical/maintenances.ics?token=${token}&past_days=365`);
      expect(upstream.status).toBe(200);
      expect(upstream.headers.get('content-type')).toMatch(/^text\/calendar/);
      const uids = (text: string) =>
        new ICAL.Component(ICAL.parse(text))
          .getAllSubcomponents('vevent')
          .map((vevent) => new ICAL.Event(vevent).uid)
          .sort();
      expect(uids(upstream.text)).toEqual(uids(ours.text));
      expect(uids(upstream.text).length).toBeGreaterThan(0);
      const anonymous = await root.as(undefined).get('/plugins/notices/ical/maintenances.ics');
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toHaveProperty('detail');
      const badToken = await root.as(undefined).get('/plugins/notices/ical/maintenances.ics?token=nope');
      expect([401, 403]).toContain(badToken.status);
    });
  });

  describe('pynetbox', () => {
    it('writes upstream payloads: template_id, contact_ids, inline scopes, and reads them back', async () => {
      const { stdout } = await promisify(execFile)('/usr/bin/python3', [PYNETBOX_SCRIPT], {
        env: {
          ...process.env,
          PLATFORM_URL: root.baseUrl,
          PLATFORM_TOKEN: root.token!,
          CONTACT_ID: String(fx.alice.id),
          TENANT_ID: String(fx.tenant.id),
        },
        timeout: 60_000,
      });
      const result = JSON.parse(stdout.trim().split('\n').pop()!);
      expect(result.notification).toEqual({ template: expect.any(Number), contacts: [fx.alice.id], status: 'draft', viewed_at: null });
      expect(result.ready).toBe(true);
      expect(result.status_after).toBe('ready');
      expect(result.recipients).toEqual(['alice@acme.example']);
      expect(result.created_scopes.map((scope: any) => [scope.content_type, scope.object_id, scope.object_repr, scope.weight])).toEqual([
        ['tenant', fx.tenant.id, 'Acme', 200],
        ['provider', null, 'All providers', 1000],
      ]);
      expect(result.template_saved).toBe(true);
      expect(result.replaced_scopes.map((scope: any) => [scope.content_type, scope.event_status])).toEqual([['maintenance', 'CONFIRMED']]);
      const { rows } = await seeded.db.query(
        `SELECT p.template_id, t.slug FROM notices_preparednotification p JOIN notices_notificationtemplate t ON t.id = p.template_id
          WHERE p.subject = 'Upstream' AND t.slug = 'upstream'`,
      );
      expect(rows).toHaveLength(1);
    });
  });
});
