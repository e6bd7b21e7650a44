import type { EntityManager } from 'typeorm';
import {
  ConfigTemplateError,
  nonFieldError,
  renderConfigTemplate,
  type ResourceAction,
  type ResourceActionContext,
  ResourceValidationError,
} from '../../platform/plugin-api';
import { objectTypeIdSql } from './impact-places';
import { headersOf } from './notification-templates.resources';
import { PreparedNotificationResource } from './prepared-notifications.resources';
import {
  highestImpact,
  matchTemplates,
  mergeTemplates,
  type MatchContext,
  type MergedTemplate,
  type NotificationTemplate,
} from './template-composition';
import { NOTICES_TEMPLATE_FILTERS_MODULE } from './template-filters';

/**
 * Prepares the notifications of one event: matches and merges the templates for each recipient
 * group (the event, each tenant of its impacts, or each impact, by the winning template's
 * granularity), picks the contacts of that group's tenant by the merged roles and priorities, renders
 * subject, body, CSS and iCal in the platform's template sandbox, and creates the prepared
 * notifications as drafts.
 */

/** The BCOP (X-MAINTNOTE) calendar used when no template gives one. */
export const DEFAULT_ICAL_TEMPLATE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//notices//maintenance//EN',
  'METHOD:REQUEST',
  'BEGIN:VEVENT',
  'UID:maintenance-{{ maintenance.id }}@{{ host }}',
  'SEQUENCE:{{ message_sequence }}',
  'DTSTAMP:{{ now | ical_datetime }}',
  'DTSTART:{{ maintenance.start | ical_datetime }}',
  'DTEND:{{ maintenance.end | ical_datetime }}',
  'SUMMARY:{{ maintenance.summary }}',
  'X-MAINTNOTE-PROVIDER:{{ maintenance.provider.name }}',
  'X-MAINTNOTE-MAINTENANCE-ID:{{ maintenance.name }}',
  'X-MAINTNOTE-STATUS:{{ maintenance.status }}',
  '{% for impact in impacts %}X-MAINTNOTE-OBJECT-ID;X-MAINTNOTE-OBJECT-IMPACT={{ impact.impact }}:{{ impact.target.name }}',
  '{% endfor %}END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

interface ImpactRow {
  id: number;
  impact: string;
  target_type: string;
  target_id: number;
  target_name: string;
  tenant_id: number | null;
  tenant_name: string | null;
}

interface Contact {
  contact_id: number;
  name: string;
  email: string;
}

async function loadTemplates(manager: EntityManager): Promise<NotificationTemplate[]> {
  type TemplateRow = Omit<NotificationTemplate, 'headers' | 'contact_role_ids' | 'scopes'> & { headers_template: unknown };
  const rows = (await manager.query(`SELECT * FROM notices_notificationtemplate ORDER BY id`)) as TemplateRow[];
  const scopes = (await manager.query(
    `SELECT s.template_id, ot.app_label || '.' || ot.model AS content_type, s.object_id, s.event_type, s.event_status, s.weight
       FROM notices_templatescope s JOIN core_objecttype ot ON ot.id = s.content_type_id`,
  )) as Array<{
    template_id: number;
    content_type: string;
    object_id: number | null;
    event_type: string | null;
    event_status: string | null;
    weight: number;
  }>;
  const roles = (await manager.query(
    `SELECT notificationtemplate_id, contactrole_id FROM notices_notificationtemplate_contact_roles`,
  )) as Array<{ notificationtemplate_id: number; contactrole_id: number }>;
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    event_type: row.event_type,
    granularity: row.granularity,
    subject_template: row.subject_template,
    body_template: row.body_template,
    body_format: row.body_format,
    css_template: row.css_template,
    headers: headersOf(row.headers_template),
    include_ical: row.include_ical,
    ical_template: row.ical_template,
    contact_role_ids: roles.filter((r) => Number(r.notificationtemplate_id) === Number(row.id)).map((r) => Number(r.contactrole_id)),
    contact_priorities: row.contact_priorities ?? [],
    is_base_template: row.is_base_template,
    extends_id: row.extends_id === null ? null : Number(row.extends_id),
    weight: Number(row.weight),
    scopes: scopes
      .filter((scope) => Number(scope.template_id) === Number(row.id))
      .map((scope) => ({
        content_type: scope.content_type,
        object_id: scope.object_id === null ? null : Number(scope.object_id),
        event_type: scope.event_type ?? '',
        event_status: scope.event_status ?? '',
        weight: Number(scope.weight),
      })),
  }));
}

/** The event's impacts with their targets' names and tenants (targets without a tenant column have none). */
async function loadImpacts(manager: EntityManager, objectType: string, eventId: number): Promise<ImpactRow[]> {
  const rows = (await manager.query(
    `SELECT i.id, i.impact, ot.app_label || '.' || ot.model AS target_type, i.target_object_id AS target_id,
            COALESCE(c.cid, d.name, s.name, l.name, '') AS target_name,
            COALESCE(c.tenant_id, d.tenant_id, s.tenant_id, l.tenant_id) AS tenant_id, t.name AS tenant_name
       FROM notices_impact i
       JOIN core_objecttype ot ON ot.id = i.target_content_type_id
       LEFT JOIN circuits_circuit c ON ot.app_label = 'circuits' AND ot.model = 'circuit' AND c.id = i.target_object_id
       LEFT JOIN dcim_device d ON ot.app_label = 'dcim' AND ot.model = 'device' AND d.id = i.target_object_id
       LEFT JOIN dcim_site s ON ot.app_label = 'dcim' AND ot.model = 'site' AND s.id = i.target_object_id
       LEFT JOIN dcim_location l ON ot.app_label = 'dcim' AND ot.model = 'location' AND l.id = i.target_object_id
       LEFT JOIN tenancy_tenant t ON t.id = COALESCE(c.tenant_id, d.tenant_id, s.tenant_id, l.tenant_id)
      WHERE i.event_content_type_id = ${objectTypeIdSql(objectType)} AND i.event_object_id = $1
      ORDER BY i.id`,
    [eventId],
  )) as Array<Omit<ImpactRow, 'tenant_name'> & { tenant_name: string | null }>;
  return rows.map((row) => ({
    id: Number(row.id),
    impact: row.impact,
    target_type: row.target_type,
    target_id: Number(row.target_id),
    target_name: row.target_name,
    tenant_id: row.tenant_id === null ? null : Number(row.tenant_id),
    tenant_name: row.tenant_name,
  }));
}

/** The tenant's contacts in the merged roles and priorities (any when none are named), never inactive ones, with an email. */
async function tenantContacts(manager: EntityManager, tenantId: number, merged: MergedTemplate): Promise<Contact[]> {
  const rows = (await manager.query(
    `SELECT DISTINCT c.id AS contact_id, c.name, c.email
       FROM tenancy_contactassignment a JOIN tenancy_contact c ON c.id = a.contact_id
      WHERE a.object_type_id = ${objectTypeIdSql('tenancy.tenant')} AND a.object_id = $1
        AND a.priority <> 'inactive' AND c.email <> ''
        AND (cardinality($2::int[]) = 0 OR a.role_id = ANY($2::int[]))
        AND (cardinality($3::text[]) = 0 OR a.priority = ANY($3::text[]))
      ORDER BY c.name, c.id`,
    [tenantId, merged.roleIds, merged.priorities],
  )) as Contact[];
  return rows.map((row) => ({ contact_id: Number(row.contact_id), name: row.name, email: row.email }));
}

async function render(source: string, context: Record<string, unknown>, field: string, requester: string): Promise<string> {
  if (source.trim() === '') return '';
  try {
    return await renderConfigTemplate(source, context, {}, { filterModules: [NOTICES_TEMPLATE_FILTERS_MODULE], requester });
  } catch (error) {
    if (error instanceof ConfigTemplateError) throw new ResourceValidationError({ [field]: [`Template error: ${error.message}`] });
    throw error;
  }
}

interface Group {
  tenant: { id: number; name: string } | null;
  impacts: ImpactRow[];
}

/** The recipient groups of a granularity: one for the event, one per tenant of its impacts, or one per impact. */
function groupsOf(granularity: string, impacts: readonly ImpactRow[]): Group[] {
  if (granularity === 'per_impact') return impacts.map((impact) => ({ tenant: tenantOf(impact), impacts: [impact] }));
  if (granularity === 'per_tenant') {
    const byTenant = new Map<number, Group>();
    for (const impact of impacts) {
      if (impact.tenant_id === null) continue;
      const group = byTenant.get(impact.tenant_id) ?? { tenant: tenantOf(impact), impacts: [] };
      group.impacts.push(impact);
      byTenant.set(impact.tenant_id, group);
    }
    return [...byTenant.values()];
  }
  return [{ tenant: null, impacts: [...impacts] }];
}

const tenantOf = (impact: ImpactRow) => (impact.tenant_id === null ? null : { id: impact.tenant_id, name: impact.tenant_name ?? '' });

/** The `prepare-notifications` action of maintenances and outages. */
export function prepareNotificationsAction(kind: 'maintenance' | 'outage'): ResourceAction {
  return {
    name: 'prepare-notifications',
    method: 'POST',
    permission: 'change',
    openapi: {
      summary: `Prepare the notifications of this ${kind} from the matching templates (created as drafts)`,
      response: {
        type: 'object',
        required: ['count', 'results'],
        properties: { count: { type: 'integer' }, results: { type: 'array', items: { type: 'object' } } },
      },
    },
    handle: (context) => prepareNotifications(context, kind),
  };
}

async function prepareNotifications(context: ResourceActionContext, kind: 'maintenance' | 'outage') {
  const { manager, row, scope } = context;
  const objectType = `notices.${kind}`;
  const requester = `${scope.principal.kind}:${scope.principal.id}`;
  const impacts = await loadImpacts(manager, objectType, row.id);
  const templates = await loadTemplates(manager);
  const byId = new Map(templates.map((template) => [template.id, template]));
  const [provider] = (await manager.query('SELECT id, name FROM circuits_provider WHERE id = $1', [row.provider_id])) as Array<{
    id: number;
    name: string;
  }>;
  const baseContext: MatchContext = {
    eventType: kind,
    eventStatus: String(row.status),
    eventId: row.id,
    providerId: Number(row.provider_id),
    tenantId: null,
  };
  const eventMerge = mergeTemplates(matchTemplates(templates, baseContext), byId);
  if (!eventMerge) throw nonFieldError(`No notification template matches this ${kind}.`);
  const [{ n: sequence }] = (await manager.query(
    `SELECT count(*)::int AS n FROM notices_preparednotification WHERE event_content_type_id = ${objectTypeIdSql(objectType)} AND event_id = $1`,
    [row.id],
  )) as Array<{ n: number }>;
  const event = {
    ...Object.fromEntries(Object.entries(row).filter(([key]) => !key.endsWith('_id') && key !== 'custom_field_data')),
    provider: provider ?? null,
    start: row.start instanceof Date ? row.start.toISOString() : row.start,
    end: row.end instanceof Date ? row.end.toISOString() : (row.end ?? null),
  };
  const items: Array<Record<string, unknown>> = [];
  for (const group of groupsOf(eventMerge.granularity, impacts)) {
    const merged = mergeTemplates(matchTemplates(templates, { ...baseContext, tenantId: group.tenant?.id ?? null }), byId) ?? eventMerge;
    const tenantIds = group.tenant
      ? [group.tenant.id]
      : [...new Set(group.impacts.map((impact) => impact.tenant_id).filter((id): id is number => id !== null))];
    const contacts = new Map<number, Contact>();
    for (const tenantId of tenantIds)
      for (const contact of await tenantContacts(manager, tenantId, merged)) contacts.set(contact.contact_id, contact);
    const impactList = group.impacts.map((impact) => ({
      impact: impact.impact,
      target: { type: impact.target_type, id: impact.target_id, name: impact.target_name },
      tenant: tenantOf(impact),
    }));
    const renderContext = {
      now: new Date().toISOString(),
      netbox_url: scope.baseUrl,
      host: new URL(scope.baseUrl).host,
      tenant: group.tenant,
      impacts: impactList,
      tenant_impacts: impactList,
      contacts: [...contacts.values()],
      [kind]: event,
      event,
      highest_impact: highestImpact(group.impacts.map((impact) => impact.impact)),
      message_sequence: sequence + items.length,
    };
    const body = await render(merged.body, renderContext, 'body_template', requester);
    const bodies =
      merged.bodyFormat === 'html'
        ? { body_text: '', body_html: body }
        : merged.bodyFormat === 'markdown'
          ? { body_text: body, body_html: await render('{{ body | markdown }}', { body }, 'body_template', requester) }
          : { body_text: body, body_html: '' };
    const icalSource = merged.includeIcal && kind === 'maintenance' ? merged.ical || DEFAULT_ICAL_TEMPLATE : '';
    items.push({
      template: merged.primary.id,
      event_content_type: objectType,
      event_id: row.id,
      contacts: [...contacts.keys()],
      subject: (await render(merged.subject, renderContext, 'subject_template', requester)).trim().slice(0, 255),
      ...bodies,
      css: await render(merged.css, renderContext, 'css_template', requester),
      headers: merged.headers,
      ical_content: await render(icalSource, renderContext, 'ical_template', requester),
    });
  }
  const created = items.length > 0 ? await context.create('notices.preparednotification', items) : [];
  const results = await context.serializer.serialize(manager, PreparedNotificationResource, created, 'full', scope.baseUrl);
  return { count: results.length, results };
}
