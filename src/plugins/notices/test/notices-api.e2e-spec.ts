import type { PlatformClient } from '../../../../test/support/platform-client';
import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';

const N = '/api/plugins/notices';

interface NoticesWorld {
  providers: [any, any];
  sites: [any, any];
  template: any;
  contacts: [any, any];
  events: [any, any];
}

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the notices plugin's
 * models; their own rules (times, frozen impacts, delivery states, templates) are in
 * notices.e2e-spec.ts and notices-notifications.e2e-spec.ts.
 */
describe('platform notices plugin: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  let worldMade: Promise<NoticesWorld> | undefined;
  const world = (api: PlatformClient): Promise<NoticesWorld> => (worldMade ??= makeWorld(api));

  async function makeWorld(api: PlatformClient): Promise<NoticesWorld> {
    const providers: NoticesWorld['providers'] = [
      await api.created('/api/circuits/providers/', { name: unique('Zayo'), slug: unique('zayo') }),
      await api.created('/api/circuits/providers/', { name: unique('Colt'), slug: unique('colt') }),
    ];
    const sites: NoticesWorld['sites'] = [
      await api.created('/api/dcim/sites/', { name: unique('AMS'), slug: unique('ams') }),
      await api.created('/api/dcim/sites/', { name: unique('LON'), slug: unique('lon') }),
    ];
    const template = await api.created(`${N}/notification-templates/`, { name: unique('Contract'), slug: unique('contract') });
    const contacts: NoticesWorld['contacts'] = [
      await api.created('/api/tenancy/contacts/', { name: unique('Alice'), email: 'alice@example.net' }),
      await api.created('/api/tenancy/contacts/', { name: unique('Bob'), email: 'bob@example.net' }),
    ];
    const event = (name: string) =>
      api.created(`${N}/maintenance/`, {
        name: unique(name),
        summary: 'fixture',
        provider: providers[0].id,
        status: 'CONFIRMED',
        start: '2030-01-01T00:00:00.000000Z',
        end: '2030-01-01T01:00:00.000000Z',
      });
    return { providers, sites, template, contacts, events: [await event('EV-A'), await event('EV-B')] };
  }

  describeResourceApi({
    app,
    path: `${N}/outage/`,
    objectType: 'notices.outage',
    graphqlName: 'outage',
    fixtures: ({ api }) => world(api),
    create: ({ providers: [p1, p2] }) => [
      { name: 'INC-1', summary: 'Fiber cut', provider: p1.id, status: 'INVESTIGATING', internal_ticket: 'T-1' },
      { name: 'INC-2', summary: 'Power loss', provider: p2.id, acknowledged: true, original_timezone: 'Europe/Paris' },
      { name: 'INC-3', summary: 'Fiber damage', provider: p1.id, status: 'MONITORING', impact: 'core ring' },
    ],
    update: { summary: 'Fiber cut, splicing', status: 'IDENTIFIED', acknowledged: true },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'status', 'provider', 'start', 'end'],
    filters: ({ providers: [, p2] }) => ({
      'name=INC-2': [1],
      'status=MONITORING': [2],
      [`provider_id=${p2.id}`]: [1],
      'acknowledged=true': [1],
      'internal_ticket=T-1': [0],
      'original_timezone=Europe/Paris': [1],
      'q=fiber': [0, 2],
    }),
    invalid: [
      { body: { summary: 'no name' }, field: 'name' },
      { body: { name: 'X', summary: 'bad status', status: 'FIXED' }, field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${N}/notification-templates/`,
    objectType: 'notices.notificationtemplate',
    graphqlName: 'notification_template',
    create: [
      { name: 'Maintenance mail', slug: 'maintenance-mail', event_type: 'maintenance', subject_template: '{{ maintenance.name }}' },
      { name: 'Outage mail', slug: 'outage-mail', event_type: 'outage', granularity: 'per_event', weight: 500 },
      { name: 'Base', slug: 'base', is_base_template: true, body_format: 'html', css_template: 'p {}' },
    ],
    update: { description: 'updated', include_ical: true, contact_priorities: ['primary'] },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: {
      'slug=outage-mail': [1],
      'event_type=maintenance': [0],
      'granularity=per_event': [1],
      'is_base_template=true': [2],
      'q=mail': [0, 1],
    },
    invalid: [
      { body: { slug: 'no-name' }, field: 'name' },
      { body: { name: 'Bad', slug: 'bad', headers_template: 'a: [1' }, field: 'headers_template' },
    ],
  });

  describeResourceApi({
    app,
    path: `${N}/prepared-notifications/`,
    objectType: 'notices.preparednotification',
    graphqlName: 'prepared_notification',
    fixtures: ({ api }) => world(api),
    create: ({ template, contacts: [c1, c2] }) => [
      { template: template.id, subject: 'Maintenance ahead', body_text: 'Hello', contacts: [c1.id] },
      { template: template.id, subject: 'Outage', body_html: '<p>Down</p>', contacts: [c1.id, c2.id], css: 'p {}' },
      { template: template.id, subject: 'Reminder', headers: { 'X-Priority': '1' } },
    ],
    update: { subject: 'Maintenance ahead (updated)', body_text: 'Hello again' },
    bulkUpdate: { css: 'body {}' },
    brief: ['id', 'url', 'display', 'subject', 'status'],
    filters: ({ template }) => ({
      'subject=Outage': [1],
      'status=draft': [0, 1, 2],
      [`template_id=${template.id}`]: [0, 1, 2],
      'q=remind': [2],
    }),
    invalid: [{ body: { subject: 'no template' }, field: 'template' }],
  });

  describeResourceApi({
    app,
    path: `${N}/impact/`,
    objectType: 'notices.impact',
    graphqlName: 'impact',
    fixtures: ({ api }) => world(api),
    create: ({ events: [e1, e2], sites: [s1, s2] }) => [
      {
        event_content_type: 'notices.maintenance',
        event_object_id: e1.id,
        target_content_type: 'dcim.site',
        target_object_id: s1.id,
        impact: 'OUTAGE',
      },
      {
        event_content_type: 'notices.maintenance',
        event_object_id: e1.id,
        target_content_type: 'dcim.site',
        target_object_id: s2.id,
        impact: 'DEGRADED',
      },
      {
        event_content_type: 'notices.maintenance',
        event_object_id: e2.id,
        target_content_type: 'dcim.site',
        target_object_id: s1.id,
        impact: 'NO-IMPACT',
      },
    ],
    update: { impact: 'REDUCED-REDUNDANCY' },
    bulkUpdate: { impact: 'OUTAGE' },
    brief: ['id', 'url', 'display', 'impact'],
    filters: ({ events: [, e2], sites: [, s2] }) => ({
      'impact=DEGRADED': [1],
      [`event_object_id=${e2.id}&event_content_type=notices.maintenance`]: [2],
      [`target_object_id=${s2.id}&target_content_type=dcim.site`]: [1],
      [`site_id=${s2.id}`]: [1],
    }),
    invalid: [
      {
        body: { event_content_type: 'dcim.site', event_object_id: 1, target_content_type: 'dcim.site', target_object_id: 1 },
        field: 'event_content_type',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${N}/maintenance/`,
    objectType: 'notices.maintenance',
    graphqlName: 'maintenance',
    fixtures: ({ api }) => world(api),
    create: ({ providers: [p1, p2] }) => [
      {
        name: 'MNT-1',
        summary: 'Splice',
        provider: p1.id,
        status: 'CONFIRMED',
        start: '2030-02-01T01:00:00.000000Z',
        end: '2030-02-01T03:00:00.000000Z',
      },
      {
        name: 'MNT-2',
        summary: 'Upgrade',
        provider: p2.id,
        status: 'TENTATIVE',
        start: '2030-03-01T01:00:00.000000Z',
        end: '2030-03-01T05:00:00.000000Z',
      },
      {
        name: 'MNT-3',
        summary: 'Splice again',
        provider: p1.id,
        status: 'UNKNOWN',
        start: '2030-04-01T01:00:00.000000Z',
        end: '2030-04-01T02:00:00.000000Z',
        acknowledged: true,
      },
    ],
    update: { status: 'IN-PROCESS', internal_ticket: 'CHG-9' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'status', 'provider', 'start', 'end'],
    filters: ({ providers: [, p2] }) => ({
      'status=TENTATIVE': [1],
      [`provider_id=${p2.id}`]: [1],
      'start__gte=2030-02-15T00:00:00Z': [1, 2],
      'end__lt=2030-02-02T00:00:00Z': [0],
      'acknowledged=true': [2],
      'q=splice': [0, 2],
    }),
    invalid: [
      { body: { name: 'X', summary: 's', status: 'CONFIRMED' }, field: 'provider' },
      { body: { name: 'X', summary: 's', status: 'DONE' }, field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${N}/eventnotification/`,
    objectType: 'notices.eventnotification',
    graphqlName: 'event_notification',
    fixtures: ({ api }) => world(api),
    create: ({ events: [e1, e2] }) => [
      {
        event_content_type: 'notices.maintenance',
        event_object_id: e1.id,
        subject: 'Planned work',
        email_from: 'noc@zayo.com',
        email_received: '2030-01-01T10:00:00.000000Z',
        email_body: 'body one',
      },
      {
        event_content_type: 'notices.maintenance',
        event_object_id: e1.id,
        subject: 'Planned work update',
        email_from: 'noc@zayo.com',
        email_received: '2030-01-02T10:00:00.000000Z',
      },
      {
        event_content_type: 'notices.maintenance',
        event_object_id: e2.id,
        subject: 'Other',
        email_from: 'ops@colt.net',
        email_received: '2030-01-03T10:00:00.000000Z',
      },
    ],
    update: { email_body: 'corrected body' },
    bulkUpdate: { email_body: 'bulk' },
    brief: ['id', 'url', 'display', 'subject', 'email_from', 'email_received'],
    filters: ({ events: [, e2] }) => ({
      'email_from=ops@colt.net': [2],
      [`event_object_id=${e2.id}&event_content_type=notices.maintenance`]: [2],
      'subject__isw=Planned': [0, 1],
      'q=colt': [2],
    }),
    invalid: [{ body: { subject: 's', email_from: 'nobody', email_received: '2030-01-01T00:00:00.000000Z' }, field: 'email_from' }],
  });

  describeResourceApi({
    app,
    path: `${N}/template-scopes/`,
    objectType: 'notices.templatescope',
    graphqlName: 'template_scope',
    fixtures: ({ api }) => world(api),
    create: ({ template, providers: [p1] }) => [
      { template: template.id, content_type: 'circuits.provider', object_id: p1.id, weight: 200 },
      { template: template.id, content_type: 'tenancy.tenant', event_type: 'outage' },
      { template: template.id, content_type: 'notices.maintenance', event_status: 'CONFIRMED' },
    ],
    update: { weight: 50 },
    bulkUpdate: { weight: 10 },
    brief: ['id', 'url', 'display', 'template', 'content_type', 'object_id', 'weight'],
    filters: {
      'event_type=outage': [1],
      'event_status=CONFIRMED': [2],
      'weight=200': [0],
    },
    invalid: [{ body: { content_type: 'tenancy.tenant' }, field: 'template' }],
  });
});
