import { highestImpact, matchTemplates, mergeTemplates, type MatchContext, type NotificationTemplate } from './template-composition';

function template(id: number, extra: Partial<NotificationTemplate> = {}): NotificationTemplate {
  return {
    id,
    name: `t${id}`,
    event_type: 'both',
    granularity: 'per_tenant',
    subject_template: '',
    body_template: '',
    body_format: 'markdown',
    css_template: '',
    headers: {},
    include_ical: false,
    ical_template: '',
    contact_role_ids: [],
    contact_priorities: [],
    is_base_template: false,
    extends_id: null,
    weight: 1000,
    scopes: [],
    ...extra,
  };
}

const maintenance: MatchContext = { eventType: 'maintenance', eventStatus: 'CONFIRMED', eventId: 7, providerId: 3, tenantId: 5 };
const scope = (extra: Partial<NotificationTemplate['scopes'][number]>) => ({
  content_type: 'tenancy.tenant',
  object_id: null,
  event_type: '',
  event_status: '',
  weight: 1000,
  ...extra,
});

describe('notification template matching and merge', () => {
  it('scores weight plus matching scopes, highest first, and leaves out other types, base templates and unmatched scopes', () => {
    const templates = [
      template(1),
      template(2, {
        scopes: [scope({ object_id: 5, weight: 300 }), scope({ content_type: 'circuits.provider', object_id: 3, weight: 50 })],
      }),
      template(3, { event_type: 'outage' }),
      template(4, { is_base_template: true }),
      template(5, { scopes: [scope({ object_id: 6 })] }),
      template(6, {
        scopes: [scope({ content_type: 'notices.maintenance', object_id: 7, event_status: 'CONFIRMED', weight: 10 })],
        weight: 1400,
      }),
      template(7, { scopes: [scope({ content_type: 'notices.maintenance', event_status: 'CANCELLED' })] }),
    ];
    expect(matchTemplates(templates, maintenance).map(({ template: t, score }) => [t.id, score])).toEqual([
      [6, 1410],
      [2, 1350],
      [1, 1000],
    ]);
    expect(matchTemplates(templates, { ...maintenance, eventType: null }).map(({ template: t }) => t.id)).toEqual([]);
    expect(
      matchTemplates([template(8, { event_type: 'none' })], { ...maintenance, eventType: null }).map(({ template: t }) => t.id),
    ).toEqual([8]);
  });

  it('merges first non-empty values by score, then the extends chain; headers first-wins, roles united, include_ical or-ed', () => {
    const base = template(10, {
      is_base_template: true,
      css_template: 'p {}',
      headers: { 'X-A': 'base', 'X-B': 'base' },
      contact_role_ids: [1],
    });
    const top = template(11, { subject_template: 'top', headers: { 'X-A': 'top' }, contact_role_ids: [2], extends_id: 10 });
    const next = template(12, {
      subject_template: 'next',
      body_template: 'body',
      body_format: 'html',
      include_ical: true,
      contact_priorities: ['primary'],
    });
    const merged = mergeTemplates(
      [
        { template: top, score: 2000 },
        { template: next, score: 1000 },
      ],
      new Map([base, top, next].map((t) => [t.id, t])),
    )!;
    expect(merged).toMatchObject({
      subject: 'top',
      body: 'body',
      bodyFormat: 'html',
      css: 'p {}',
      headers: { 'X-A': 'top', 'X-B': 'base' },
      includeIcal: true,
      roleIds: [2, 1],
      priorities: ['primary'],
    });
    expect(merged.primary.id).toBe(11);
    expect(mergeTemplates([], new Map())).toBeNull();
  });

  it('ranks impact levels', () => {
    expect(highestImpact(['DEGRADED', 'NO-IMPACT', 'REDUCED-REDUNDANCY'])).toBe('DEGRADED');
    expect(highestImpact(['OUTAGE', 'DEGRADED'])).toBe('OUTAGE');
    expect(highestImpact([])).toBeNull();
  });
});
