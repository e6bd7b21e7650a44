import ICAL from 'ical.js';
import { PASSWORD } from '../../../../test/support/api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const N = '/api/plugins/notices';
const OUTAGES = `${N}/outage/`;
const MAINTENANCES = `${N}/maintenance/`;
const IMPACTS = `${N}/impact/`;
const NOTIFICATIONS = `${N}/eventnotification/`;

/**
 * The notices plugin's rules for events, impacts and received notifications: outage and maintenance
 * validation, the soft status workflow, the ETR in the change log, every outage filter of the spec
 * (site scoping through impacts included), frozen impacts, replacements, and what the mail worker posts.
 */
describe('platform notices plugin: events, impacts, received notifications', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let user: PlatformClient;
  const fx: Record<string, any> = {};
  const ot: Record<string, number> = {};

  const ids = async (path: string) => (await root.listed(path, 'id')) as number[];

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    user = root.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
    for (const label of ['notices.maintenance', 'notices.outage', 'dcim.site', 'dcim.device', 'circuits.circuit', 'tenancy.tenant']) {
      const [app, model] = label.split('.');
      const response = await root.get(`/api/core/object-types/?app_label=${app}&model=${model}`);
      ot[label] = response.body.results[0].id;
    }
    fx.provider = await root.created('/api/circuits/providers/', { name: 'Zayo', slug: 'zayo' });
    fx.otherProvider = await root.created('/api/circuits/providers/', { name: 'Colt', slug: 'colt' });
    fx.region = await root.created('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
    fx.subRegion = await root.created('/api/dcim/regions/', { name: 'Netherlands', slug: 'nl', parent: fx.region.id });
    fx.group = await root.created('/api/dcim/site-groups/', { name: 'Core', slug: 'core' });
    fx.site = await root.created('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1', region: fx.subRegion.id, group: fx.group.id });
    fx.otherSite = await root.created('/api/dcim/sites/', { name: 'LON1', slug: 'lon1' });
    fx.location = await root.created('/api/dcim/locations/', { name: 'Hall 1', slug: 'hall-1', site: fx.otherSite.id });
    const manufacturer = await root.created('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'MX204', slug: 'mx204' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
    fx.device = await root.created('/api/dcim/devices/', {
      name: 'edge1',
      device_type: deviceType.id,
      role: role.id,
      site: fx.otherSite.id,
      location: fx.location.id,
    });
    const circuitType = await root.created('/api/circuits/circuit-types/', { name: 'Wave', slug: 'wave' });
    fx.circuit = await root.created('/api/circuits/circuits/', { cid: 'ZAYO-1', provider: fx.provider.id, type: circuitType.id });
    await root.created('/api/circuits/circuit-terminations/', {
      circuit: fx.circuit.id,
      term_side: 'A',
      termination_type: 'dcim.site',
      termination_id: fx.site.id,
    });
    fx.tenant = await root.created('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  const outage = (extra: Record<string, unknown> = {}) =>
    root.created(OUTAGES, {
      name: `INC-${Math.random().toString(36).slice(2, 8)}`,
      summary: 'Fiber cut',
      provider: fx.provider.id,
      ...extra,
    });
  const maintenance = (extra: Record<string, unknown> = {}) =>
    root.created(MAINTENANCES, {
      name: `MNT-${Math.random().toString(36).slice(2, 8)}`,
      summary: 'Planned work',
      provider: fx.provider.id,
      status: 'CONFIRMED',
      start: '2030-01-10T01:00:00Z',
      end: '2030-01-10T05:00:00Z',
      ...extra,
    });
  const impactBody = (event: { id: number }, type: string, target: { id: number }, extra: Record<string, unknown> = {}) => ({
    event_content_type: ot[type === 'maintenance' ? 'notices.maintenance' : 'notices.outage'],
    event_object_id: event.id,
    target_content_type: ot['circuits.circuit'],
    target_object_id: target.id,
    impact: 'OUTAGE',
    ...extra,
  });

  describe('outages', () => {
    it('defaults status to REPORTED and start and reported_at to now, and shows the status colour', async () => {
      const before = Date.now();
      const created = await outage();
      expect(created.status).toEqual({ value: 'REPORTED', label: 'Reported' });
      expect(created.status_color).toBe('red');
      expect(created.impact_count).toBe(0);
      for (const field of ['start', 'reported_at']) {
        expect(Date.parse(created[field])).toBeGreaterThanOrEqual(before - 5000);
        expect(Date.parse(created[field])).toBeLessThanOrEqual(Date.now() + 5000);
      }
      expect(created.end).toBeNull();
      expect(created.estimated_time_to_repair).toBeNull();
    });

    it('requires name, summary and provider, and keeps the spec lengths', async () => {
      const missing = await root.post(OUTAGES, {});
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body).sort()).toEqual(['name', 'provider', 'summary']);
      const long = await root.post(OUTAGES, {
        name: 'x'.repeat(101),
        summary: 'y'.repeat(201),
        provider: fx.provider.id,
        original_timezone: 'z'.repeat(64),
        internal_ticket: 't'.repeat(101),
      });
      expect(long.status).toBe(400);
      expect(Object.keys(long.body).sort()).toEqual(['internal_ticket', 'name', 'original_timezone', 'summary']);
    });

    it('refuses an end before the start (an equal end is fine), on create and on update', async () => {
      const bad = await root.post(OUTAGES, {
        name: 'INC-1',
        summary: 's',
        provider: fx.provider.id,
        start: '2030-01-01T10:00:00Z',
        end: '2030-01-01T09:59:59Z',
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ end: ['The end time must be after the start time.'] });
      const equal = await outage({ start: '2030-01-01T10:00:00Z', end: '2030-01-01T10:00:00Z' });
      const moved = await root.patch(`${OUTAGES}${equal.id}/`, { start: '2030-01-01T11:00:00Z' });
      expect(moved.status).toBe(400);
      expect(moved.body).toEqual({ end: ['The end time must be after the start time.'] });
      const badMaintenance = await root.post(MAINTENANCES, {
        name: 'M',
        summary: 's',
        provider: fx.provider.id,
        status: 'CONFIRMED',
        start: '2030-01-01T10:00:00Z',
        end: '2030-01-01T09:00:00Z',
      });
      expect(badMaintenance.status).toBe(400);
      expect(badMaintenance.body).toEqual({ end: ['The end time must be after the start time.'] });
    });

    it('refuses RESOLVED without an end, naming end, and lets the status move anywhere, backwards too', async () => {
      const bad = await root.post(OUTAGES, { name: 'INC-2', summary: 's', provider: fx.provider.id, status: 'RESOLVED' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ end: ['End time is required when marking outage as resolved'] });
      const created = await outage({ start: '2030-01-01T10:00:00Z' });
      const resolveWithoutEnd = await root.patch(`${OUTAGES}${created.id}/`, { status: 'RESOLVED' });
      expect(resolveWithoutEnd.status).toBe(400);
      expect(resolveWithoutEnd.body).toEqual({ end: ['End time is required when marking outage as resolved'] });
      for (const status of ['MONITORING', 'INVESTIGATING', 'IDENTIFIED']) {
        const moved = await root.patch(`${OUTAGES}${created.id}/`, { status });
        expect(moved.status).toBe(200);
        expect(moved.body.status.value).toBe(status);
      }
      const resolved = await root.patch(`${OUTAGES}${created.id}/`, { status: 'RESOLVED', end: '2030-01-01T12:00:00Z' });
      expect(resolved.status).toBe(200);
      expect(resolved.body.status_color).toBe('green');
      const clearEnd = await root.patch(`${OUTAGES}${created.id}/`, { end: null });
      expect(clearEnd.status).toBe(400);
      expect(clearEnd.body).toEqual({ end: ['End time is required when marking outage as resolved'] });
      const reopened = await root.patch(`${OUTAGES}${created.id}/`, { status: 'MONITORING' });
      expect(reopened.status).toBe(200);
      const badStatus = await root.patch(`${OUTAGES}${created.id}/`, { status: 'FIXED' });
      expect(badStatus.status).toBe(400);
      expect(Object.keys(badStatus.body)).toEqual(['status']);
    });

    it('records every change of the ETR, clearing it too, with old and new values in the change log', async () => {
      const created = await outage();
      const etr1 = '2030-02-01T10:00:00.000Z';
      const etr2 = '2030-02-01T14:30:00.000Z';
      for (const value of [etr1, etr2, null]) {
        const response = await root.patch(`${OUTAGES}${created.id}/`, { estimated_time_to_repair: value });
        expect(response.status).toBe(200);
        expect(response.body.estimated_time_to_repair === null ? null : Date.parse(response.body.estimated_time_to_repair)).toBe(
          value === null ? null : Date.parse(value),
        );
      }
      const changes = await root.get(
        `/api/core/object-changes/?changed_object_type=notices.outage&changed_object_id=${created.id}&action=update&ordering=time&limit=100`,
      );
      expect(changes.status).toBe(200);
      const pairs = changes.body.results.map((change: any) =>
        [change.prechange_data.estimated_time_to_repair, change.postchange_data.estimated_time_to_repair].map((v: string | null) =>
          v === null ? null : new Date(v).toISOString(),
        ),
      );
      expect(pairs).toEqual([
        [null, etr1],
        [etr1, etr2],
        [etr2, null],
      ]);
    });

    it('filters by every field of the spec, with NetBox lookups, and by site, region, site group and location through impacts', async () => {
      const a = await outage({
        name: 'FILTER-A',
        summary: 'Alpha cut',
        start: '2031-03-01T00:00:00Z',
        end: '2031-03-01T06:00:00Z',
        reported_at: '2031-03-01T00:05:00Z',
        estimated_time_to_repair: '2031-03-01T05:00:00Z',
        original_timezone: 'Europe/Amsterdam',
        internal_ticket: 'T-100',
        acknowledged: true,
        status: 'IDENTIFIED',
      });
      const b = await outage({
        name: 'FILTER-B',
        summary: 'Beta cut',
        provider: fx.otherProvider.id,
        start: '2031-04-01T00:00:00Z',
        reported_at: '2031-04-01T00:05:00Z',
        original_timezone: 'Europe/London',
        internal_ticket: 'T-200',
      });
      await root.created(IMPACTS, impactBody(a, 'outage', fx.circuit));
      await root.created(IMPACTS, impactBody(b, 'outage', fx.device, { target_content_type: ot['dcim.device'] }));
      const scoped = `${OUTAGES}?name__isw=FILTER-&`;
      const cases: Array<[string, number[]]> = [
        [`id=${a.id}`, [a.id]],
        ['name=FILTER-A', [a.id]],
        ['summary__ic=beta', [b.id]],
        ['status=IDENTIFIED', [a.id]],
        ['status__n=IDENTIFIED', [b.id]],
        [`provider_id=${fx.otherProvider.id}`, [b.id]],
        ['start=2031-03-01T00:00:00Z', [a.id]],
        ['start__gte=2031-03-15T00:00:00Z', [b.id]],
        ['end__lte=2031-03-02T00:00:00Z', [a.id]],
        ['end__empty=true', [b.id]],
        ['reported_at__lt=2031-03-02T00:00:00Z', [a.id]],
        ['estimated_time_to_repair=2031-03-01T05:00:00Z', [a.id]],
        ['original_timezone=Europe/London', [b.id]],
        ['internal_ticket=T-100', [a.id]],
        ['internal_ticket__ic=t-2', [b.id]],
        ['acknowledged=true', [a.id]],
        ['acknowledged=false', [b.id]],
        [`site_id=${fx.site.id}`, [a.id]],
        [`site_id=${fx.otherSite.id}`, [b.id]],
        [`region_id=${fx.region.id}`, [a.id]],
        [`site_group_id=${fx.group.id}`, [a.id]],
        [`location_id=${fx.location.id}`, [b.id]],
        ['q=beta', [b.id]],
      ];
      for (const [query, expected] of cases) {
        expect({ query, ids: (await ids(`${scoped}${query}`)).sort() }).toEqual({ query, ids: expected.sort() });
      }
      const bad = await root.get(`${OUTAGES}?site_id=abc`);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body)).toEqual(['site_id']);
      const gql = await root.post('/graphql/', {
        query: `{ outage_list(filters: {name__isw: "FILTER-", site_id: ["${fx.site.id}"]}) { id name status } }`,
      });
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.outage_list.map((o: any) => Number(o.id))).toEqual([a.id]);
    });
  });

  describe('maintenances', () => {
    it('requires the BCOP status and the times, and marks a replaced maintenance RE-SCHEDULED', async () => {
      const missing = await root.post(MAINTENANCES, { name: 'M', summary: 's', provider: fx.provider.id });
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body).sort()).toEqual(['end', 'start', 'status']);
      const old = await maintenance({ name: 'MNT-OLD' });
      expect(old.status).toEqual({ value: 'CONFIRMED', label: 'Confirmed' });
      expect(old.status_color).toBe('green');
      const replacement = await maintenance({ name: 'MNT-NEW', replaces: old.id, status: 'TENTATIVE' });
      expect(replacement.replaces.id).toBe(old.id);
      const reread = await root.get(`${MAINTENANCES}${old.id}/`);
      expect(reread.body.status).toEqual({ value: 'RE-SCHEDULED', label: 'Rescheduled' });
      expect(reread.body.status_color).toBe('teal');
      expect(await ids(`${MAINTENANCES}?name__isw=MNT-&has_replaces=true`)).toEqual([old.id]);
      expect(await ids(`${MAINTENANCES}?replaces_id=${old.id}`)).toEqual([replacement.id]);
      const inProcess = await root.patch(`${MAINTENANCES}${replacement.id}/`, { status: 'IN-PROCESS' });
      expect(inProcess.body.status).toEqual({ value: 'IN-PROCESS', label: 'In-Progress' });
    });

    it('counts its impacts and is filtered by site through them', async () => {
      const event = await maintenance({ name: 'MNT-COUNT' });
      await root.created(IMPACTS, impactBody(event, 'maintenance', fx.circuit));
      await root.created(IMPACTS, impactBody(event, 'maintenance', fx.site, { target_content_type: ot['dcim.site'], impact: 'DEGRADED' }));
      const reread = await root.get(`${MAINTENANCES}${event.id}/`);
      expect(reread.body.impact_count).toBe(2);
      expect(await ids(`${MAINTENANCES}?name=MNT-COUNT&site_id=${fx.site.id}`)).toEqual([event.id]);
      expect(await ids(`${MAINTENANCES}?name=MNT-COUNT&site_id=${fx.otherSite.id}`)).toEqual([]);
    });
  });

  describe('impacts', () => {
    it('answers nested event and target, is unique per event and target, and refuses targets outside the allowed types', async () => {
      const event = await outage();
      const impact = await root.created(IMPACTS, impactBody(event, 'outage', fx.circuit, { impact: 'DEGRADED' }));
      expect(impact.event_content_type).toBe('notices.outage');
      expect(impact.event).toMatchObject({ id: event.id, name: event.name, object_type: 'notices.outage' });
      expect(impact.target).toMatchObject({ id: fx.circuit.id, display: 'ZAYO-1', object_type: 'circuits.circuit' });
      expect(impact.impact).toEqual({ value: 'DEGRADED', label: 'Degraded' });
      expect(impact.impact_color).toBe('orange');
      const again = await root.post(IMPACTS, impactBody(event, 'outage', fx.circuit));
      expect(again.status).toBe(400);
      expect(Object.keys(again.body)).toEqual(['non_field_errors']);
      const tenant = await root.post(IMPACTS, impactBody(event, 'outage', fx.tenant, { target_content_type: ot['tenancy.tenant'] }));
      expect(tenant.status).toBe(400);
      expect(tenant.body.target_content_type[0]).toMatch(/^Content type 'tenancy.tenant' is not allowed/);
      const notAnEvent = await root.post(IMPACTS, impactBody(event, 'outage', fx.circuit, { event_content_type: ot['dcim.site'] }));
      expect(notAnEvent.status).toBe(400);
      expect(Object.keys(notAnEvent.body)).toEqual(['event_content_type']);
      const dangling = await root.post(IMPACTS, impactBody({ id: 999999 }, 'outage', fx.circuit));
      expect(dangling.status).toBe(400);
      expect(Object.keys(dangling.body)).toEqual(['event_object_id']);
      const noTarget = await root.post(IMPACTS, impactBody(event, 'outage', { id: 999999 }));
      expect(noTarget.status).toBe(400);
      expect(Object.keys(noTarget.body)).toEqual(['target_object_id']);
      const byName = await root.post(IMPACTS, impactBody(event, 'outage', fx.site, { target_content_type: 'dcim.site' }));
      expect(byName.status).toBe(201);
      for (const [query, expected] of [
        [`event_content_type_id=${ot['notices.outage']}&event_object_id=${event.id}`, [impact.id, byName.body.id]],
        [
          `event_content_type_id=${ot['notices.outage']}&event_object_id=${event.id}&target_content_type_id=${ot['circuits.circuit']}&target_object_id=${fx.circuit.id}`,
          [impact.id],
        ],
        [`event_content_type_id=${ot['notices.outage']}&event_object_id=${event.id}&target_content_type=dcim.site`, [byName.body.id]],
        [`event_content_type=notices.outage&event_object_id=${event.id}&impact=DEGRADED`, [impact.id]],
        [`event_object_id=${event.id}&event_content_type_id=${ot['notices.maintenance']}`, []],
        [`event_content_type_id=${ot['notices.outage']}&event_object_id=${event.id}&site_id=${fx.site.id}`, [impact.id, byName.body.id]],
      ] as Array<[string, number[]]>) {
        expect({ query, ids: (await ids(`${IMPACTS}?${query}`)).sort() }).toEqual({ query, ids: expected.sort() });
      }
    });

    it.each([
      ['outage', 'RESOLVED', { end: '2030-01-01T12:00:00Z', start: '2030-01-01T10:00:00Z' }],
      ['maintenance', 'COMPLETED', {}],
      ['maintenance', 'CANCELLED', {}],
    ])('freezes the impacts of a %s once it is %s: create, update and delete refused naming the status', async (kind, status, times) => {
      const event = kind === 'outage' ? await outage(times) : await maintenance();
      const path = kind === 'outage' ? OUTAGES : MAINTENANCES;
      const impact = await root.created(IMPACTS, impactBody(event, kind, fx.circuit));
      expect((await root.patch(`${path}${event.id}/`, { status })).status).toBe(200);
      const message = `The ${kind}'s status is ${status}: its impacts are frozen and cannot be created, changed or deleted.`;
      const create = await root.post(IMPACTS, impactBody(event, kind, fx.site, { target_content_type: ot['dcim.site'] }));
      expect(create.status).toBe(400);
      expect(create.body).toEqual({ non_field_errors: [message] });
      const update = await root.patch(`${IMPACTS}${impact.id}/`, { impact: 'DEGRADED' });
      expect(update.status).toBe(400);
      expect(update.body).toEqual({ non_field_errors: [message] });
      const remove = await root.delete(`${IMPACTS}${impact.id}/`);
      expect(remove.status).toBe(400);
      expect(remove.body).toEqual({ non_field_errors: [message] });
      const eventImpacts = 'WHERE event_object_id = $1 AND event_content_type_id = $2';
      expect(await countRows(seeded.db, 'notices_impact', eventImpacts, [event.id, ot[`notices.${kind}`]])).toBe(1);
      // Reopened, the event's impacts can change again.
      expect((await root.patch(`${path}${event.id}/`, { status: kind === 'outage' ? 'MONITORING' : 'CONFIRMED' })).status).toBe(200);
      expect((await root.patch(`${IMPACTS}${impact.id}/`, { impact: 'DEGRADED' })).status).toBe(200);
      expect((await root.delete(`${IMPACTS}${impact.id}/`)).status).toBe(204);
    });

    it('are deleted with their event, with its received notifications', async () => {
      const event = await outage();
      await root.created(IMPACTS, impactBody(event, 'outage', fx.circuit));
      await root.created(NOTIFICATIONS, {
        event_content_type: ot['notices.outage'],
        event_object_id: event.id,
        subject: 'Outage',
        email_from: 'noc@zayo.com',
        email_received: '2030-01-01T10:00:00Z',
      });
      expect((await root.delete(`${OUTAGES}${event.id}/`)).status).toBe(204);
      const ofEvent = 'WHERE event_object_id = $1 AND event_content_type_id = $2';
      expect(await countRows(seeded.db, 'notices_impact', ofEvent, [event.id, ot['notices.outage']])).toBe(0);
      expect(await countRows(seeded.db, 'notices_eventnotification', ofEvent, [event.id, ot['notices.outage']])).toBe(0);
    });
  });

  describe('event notifications', () => {
    it('accepts what the mail worker posts, keeps the raw message out of the representation and serves it at raw/', async () => {
      const event = await maintenance();
      const raw = 'From: noc@zayo.com\r\nSubject: Maintenance\r\n\r\nBody\r\n';
      const posted = await root.created(NOTIFICATIONS, {
        event_content_type: ot['notices.maintenance'],
        event_object_id: event.id,
        email_body: 'Content-Type: text/plain\n\nBody',
        subject: 'Zayo maintenance notification',
        email_from: 'noc@zayo.com',
        email_received: '2030-01-01T10:00:00Z',
        email: raw,
      });
      expect(posted).not.toHaveProperty('email');
      expect(posted.event).toMatchObject({ id: event.id, object_type: 'notices.maintenance' });
      const listed = await root.get(`${NOTIFICATIONS}?event_object_id=${event.id}`);
      expect(listed.body.results).toHaveLength(1);
      expect(listed.body.results[0]).not.toHaveProperty('email');
      const rawAnswer = await root.get(`${NOTIFICATIONS}${posted.id}/raw/`);
      expect(rawAnswer.status).toBe(200);
      expect(rawAnswer.body).toEqual({ id: posted.id, email: raw });
      expect(await ids(`${NOTIFICATIONS}?q=zayo maintenance`)).toEqual([posted.id]);
      const badFrom = await root.post(NOTIFICATIONS, {
        event_content_type: ot['notices.maintenance'],
        event_object_id: event.id,
        subject: 's',
        email_from: 'not an address',
        email_received: '2030-01-01T10:00:00Z',
      });
      expect(badFrom.status).toBe(400);
      expect(Object.keys(badFrom.body)).toEqual(['email_from']);
      // user1 holds no permission on notifications: the action is refused, the object is not found.
      expect((await user.get(`${NOTIFICATIONS}${posted.id}/raw/`)).status).toBe(403);
      expect((await user.get(`${NOTIFICATIONS}${posted.id}/`)).status).toBe(404);
    });
  });

  describe('dashboard summary, event history and the iCal feed', () => {
    const SUMMARY = `${N}/summary/`;
    // Whole seconds: iCalendar times have no fraction.
    const hours = (n: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + n * 3_600_000).toISOString();

    it('counts active outages, maintenances in progress and upcoming, and unacknowledged events', async () => {
      const before = (await root.get(SUMMARY)).body;
      await outage({ status: 'INVESTIGATING' });
      await outage({ status: 'MONITORING', acknowledged: true });
      await outage({ status: 'RESOLVED', start: hours(-5), end: hours(-1) });
      await maintenance({ status: 'IN-PROCESS', start: hours(-1), end: hours(2), acknowledged: true });
      await maintenance({ status: 'CONFIRMED', start: hours(24), end: hours(26) });
      await maintenance({ status: 'TENTATIVE', start: hours(24 * 10), end: hours(24 * 10 + 2), acknowledged: true });
      await maintenance({ status: 'CANCELLED', start: hours(24), end: hours(26) });
      const after = await root.get(SUMMARY);
      expect(after.status).toBe(200);
      const delta = Object.fromEntries(Object.entries(after.body).map(([key, value]) => [key, (value as number) - before[key]]));
      expect(delta).toEqual({
        active_outages: 2,
        maintenances_in_progress: 1,
        confirmed_next_7_days: 1,
        upcoming_next_7_days: 1,
        upcoming_next_30_days: 2,
        unacknowledged: 2,
      });
      expect((await user.get(SUMMARY)).status).toBe(403);
    });

    it('shows the events of an object within event_history_days, open-ended outages always', async () => {
      const site = await root.created('/api/dcim/sites/', { name: 'HIST1', slug: 'hist1' });
      const old = await maintenance({ name: 'HIST-OLD', start: '2020-01-01T00:00:00Z', end: '2020-01-01T02:00:00Z' });
      const recent = await maintenance({ name: 'HIST-RECENT', start: hours(-24 * 3), end: hours(-24 * 3 + 2) });
      const ancientOpen = await outage({ name: 'HIST-OPEN', start: '2020-01-01T00:00:00Z' });
      const ancientClosed = await outage({ name: 'HIST-CLOSED', start: '2020-01-01T00:00:00Z', end: '2020-01-02T00:00:00Z' });
      for (const [event, kind] of [
        [old, 'maintenance'],
        [recent, 'maintenance'],
        [ancientOpen, 'outage'],
        [ancientClosed, 'outage'],
      ] as const)
        await root.created(IMPACTS, impactBody(event, kind, site, { target_content_type: ot['dcim.site'] }));
      const history = await root.get(`${N}/event-history/?object_type=dcim.site&object_id=${site.id}`);
      expect(history.status).toBe(200);
      expect(history.body.maintenances.map((e: any) => e.name)).toEqual(['HIST-RECENT']);
      expect(history.body.outages.map((e: any) => e.name)).toEqual(['HIST-OPEN']);
      const bad = await root.get(`${N}/event-history/?object_type=site&object_id=x`);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body).sort()).toEqual(['object_id', 'object_type']);
    });

    it('serves the maintenances as iCalendar, parsed back, with token auth in the header or the query, filters and ETag', async () => {
      const provider = await root.created('/api/circuits/providers/', { name: 'Lumen', slug: 'lumen' });
      const feedName = `ICS-${Date.now()}`;
      const events = [
        await maintenance({
          name: `${feedName}-A`,
          provider: provider.id,
          status: 'CONFIRMED',
          start: hours(48),
          end: hours(50),
          summary: 'Splice; core, ring',
        }),
        await maintenance({ name: `${feedName}-B`, provider: provider.id, status: 'RE-SCHEDULED', start: hours(72), end: hours(74) }),
        await maintenance({
          name: `${feedName}-C`,
          provider: provider.id,
          status: 'TENTATIVE',
          start: '2020-01-01T00:00:00Z',
          end: '2020-01-01T01:00:00Z',
        }),
      ];
      const path = `${N}/ical/maintenances.ics?provider=lumen`;
      const response = await root.get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/calendar/);
      expect(response.headers.get('cache-control')).toBe('private, max-age=900');
      const calendar = new ICAL.Component(ICAL.parse(response.text));
      const vevents = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
      const byUid = new Map(vevents.map((event) => [event.uid, event]));
      expect([...byUid.keys()].sort()).toEqual(
        events
          .slice(0, 2)
          .map((e) => `maintenance-${e.id}@${new URL(root.baseUrl).host}`)
          .sort(),
      );
      const a = byUid.get(`maintenance-${events[0].id}@${new URL(root.baseUrl).host}`)!;
      expect(a.summary).toBe(`Lumen: ${feedName}-A – Splice; core, ring`);
      expect(a.startDate.toJSDate().getTime()).toBe(Date.parse(events[0].start));
      expect(a.endDate.toJSDate().getTime()).toBe(Date.parse(events[0].end));
      expect(a.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
      const b = byUid.get(`maintenance-${events[1].id}@${new URL(root.baseUrl).host}`)!;
      expect(b.component.getFirstPropertyValue('status')).toBe('CANCELLED');
      const withPast = new ICAL.Component(ICAL.parse((await root.get(`${path}&past_days=365&status=tentative,bogus`)).text));
      expect(withPast.getAllSubcomponents('vevent')).toHaveLength(0);
      const allPast = new ICAL.Component(
        ICAL.parse((await root.get(`${N}/ical/maintenances.ics?provider_id=${provider.id}&past_days=100000`)).text),
      );
      expect(allPast.getAllSubcomponents('vevent')).toHaveLength(2);
      for (const providerId of ['2147483648', '9999999999', '0', 'abc']) {
        const bad = await root.get(`${N}/ical/maintenances.ics?provider_id=${providerId}`);
        expect({ providerId, status: bad.status, body: bad.body }).toEqual({
          providerId,
          status: 400,
          body: { provider_id: ['Give a provider id, a whole number from 1 to 2147483647.'] },
        });
      }
      const etag = response.headers.get('etag')!;
      const notModified = await root.get(path, { 'If-None-Match': etag });
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      await root.patch(`${MAINTENANCES}${events[0].id}/`, { summary: 'Changed' });
      expect((await root.get(path, { 'If-None-Match': etag })).status).toBe(200);
      const byQuery = await root.as(undefined).get(`${path}&token=${root.token}&download=true`);
      expect(byQuery.status).toBe(200);
      expect(byQuery.headers.get('content-disposition')).toBe('attachment; filename="maintenances.ics"');
      expect((await root.as(undefined).get(path)).status).toBe(403);
      expect((await root.as(undefined).get(`${path}&token=0123456789abcdef0123456789abcdef01234567`)).status).toBe(403);
      expect((await user.get(path)).status).toBe(403);
      const unknown = await root.get(`${N}/ical/maintenances.ics?provider=nope`);
      expect(unknown.status).toBe(400);
      expect(Object.keys(unknown.body)).toEqual(['provider']);
      // The query token is only for the calendar feed.
      expect((await root.as(undefined).get(`${OUTAGES}?token=${root.token}`)).status).toBe(403);
    });
  });
});
