/**
 * Choosing and merging notification templates for an event (pure functions; notification-preparation.ts
 * feeds them from the database). A template of the event's type (or `both`; `none` without an event)
 * is a candidate; its score is its weight plus the weights of its scopes that match. A template
 * without scopes always matches; one with scopes only when at least one matches. Base templates
 * (`is_base_template`) are only reached through `extends`.
 */
export interface TemplateScope {
  content_type: string;
  object_id: number | null;
  event_type: string;
  event_status: string;
  weight: number;
}

export interface NotificationTemplate {
  id: number;
  name: string;
  event_type: string;
  granularity: string;
  subject_template: string;
  body_template: string;
  body_format: string;
  css_template: string;
  headers: Record<string, string>;
  include_ical: boolean;
  ical_template: string;
  contact_role_ids: number[];
  contact_priorities: string[];
  is_base_template: boolean;
  extends_id: number | null;
  weight: number;
  scopes: TemplateScope[];
}

/** What a scope may match: the event (type, status, its own object), its provider, the tenant notified. */
export interface MatchContext {
  eventType: 'maintenance' | 'outage' | null;
  eventStatus: string | null;
  eventId: number | null;
  providerId: number | null;
  tenantId: number | null;
}

export interface ScoredTemplate {
  template: NotificationTemplate;
  score: number;
}

function scopeMatches(scope: TemplateScope, context: MatchContext): boolean {
  if (scope.event_type && scope.event_type !== context.eventType) return false;
  if (scope.event_status && scope.event_status !== context.eventStatus) return false;
  const wanted = (id: number | null) => scope.object_id === null || scope.object_id === id;
  switch (scope.content_type) {
    case 'tenancy.tenant':
      return context.tenantId !== null && wanted(context.tenantId);
    case 'circuits.provider':
      return context.providerId !== null && wanted(context.providerId);
    case 'notices.maintenance':
    case 'notices.outage':
      return scope.content_type === `notices.${context.eventType}` && wanted(context.eventId);
    default:
      return false;
  }
}

/** The matching templates, highest score first (ties: lower id first). */
export function matchTemplates(templates: readonly NotificationTemplate[], context: MatchContext): ScoredTemplate[] {
  const types = context.eventType === null ? ['none'] : [context.eventType, 'both'];
  const scored: ScoredTemplate[] = [];
  for (const template of templates) {
    if (template.is_base_template || !types.includes(template.event_type)) continue;
    const matching = template.scopes.filter((scope) => scopeMatches(scope, context));
    if (template.scopes.length > 0 && matching.length === 0) continue;
    scored.push({ template, score: template.weight + matching.reduce((sum, scope) => sum + scope.weight, 0) });
  }
  return scored.sort((a, b) => b.score - a.score || a.template.id - b.template.id);
}

export interface MergedTemplate {
  /** The highest-scoring template: the one the prepared notification names. */
  primary: NotificationTemplate;
  granularity: string;
  subject: string;
  body: string;
  bodyFormat: string;
  css: string;
  headers: Record<string, string>;
  includeIcal: boolean;
  ical: string;
  roleIds: number[];
  priorities: string[];
}

/**
 * Merges the matches, highest score first, then the `extends` chain of the first that names one:
 * the first non-empty subject, body (with its format), CSS and iCal win; header keys are taken
 * first-wins; include_ical is or-ed; roles and priorities are united.
 */
export function mergeTemplates(matches: readonly ScoredTemplate[], byId: ReadonlyMap<number, NotificationTemplate>): MergedTemplate | null {
  if (matches.length === 0) return null;
  const chain = matches.map(({ template }) => template);
  const parentId = chain.find((template) => template.extends_id !== null)?.extends_id ?? null;
  const seen = new Set(chain.map((template) => template.id));
  for (let id = parentId; id !== null && !seen.has(id);) {
    const parent = byId.get(id);
    if (!parent) break;
    chain.push(parent);
    seen.add(id);
    id = parent.extends_id;
  }
  const first = (pick: (template: NotificationTemplate) => string) => chain.map(pick).find((value) => value.trim() !== '') ?? '';
  const withBody = chain.find((template) => template.body_template.trim() !== '');
  const headers: Record<string, string> = {};
  for (const template of chain) for (const [name, value] of Object.entries(template.headers)) if (!(name in headers)) headers[name] = value;
  return {
    primary: chain[0],
    granularity: chain[0].granularity,
    subject: first((template) => template.subject_template),
    body: withBody?.body_template ?? '',
    bodyFormat: withBody?.body_format ?? 'markdown',
    css: first((template) => template.css_template),
    headers,
    includeIcal: chain.some((template) => template.include_ical),
    ical: first((template) => template.ical_template),
    roleIds: [...new Set(chain.flatMap((template) => template.contact_role_ids))],
    priorities: [...new Set(chain.flatMap((template) => template.contact_priorities))],
  };
}

export const IMPACT_ORDER = ['NO-IMPACT', 'REDUCED-REDUNDANCY', 'DEGRADED', 'OUTAGE'];

/** The worst of the levels (OUTAGE > DEGRADED > REDUCED-REDUNDANCY > NO-IMPACT); null for none. */
export function highestImpact(levels: readonly string[]): string | null {
  return levels.reduce<string | null>(
    (worst, level) => (IMPACT_ORDER.indexOf(level) > IMPACT_ORDER.indexOf(worst ?? '') ? level : worst),
    null,
  );
}
