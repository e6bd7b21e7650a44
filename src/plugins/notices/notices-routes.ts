import { createHash } from 'node:crypto';
import {
  idFilterProblem,
  NotFoundError,
  type PluginRoute,
  type PluginRouteContext,
  type QueryParameters,
  type ResourceRow,
  ResourceValidationError,
  RouteResponse,
} from '../../platform/plugin-api';
import { MaintenanceResource, OutageResource } from './events.resources';
import { objectTypeIdSql } from './impact-places';
import { ACTIVE_MAINTENANCE_STATUSES, ACTIVE_OUTAGE_STATUSES, MAINTENANCE_STATUSES } from './notices.choices';
import { PAGE_PARAMETERS, PAGE_SCHEMA, pagedList } from './paged-list';
import { PreparedNotificationResource } from './prepared-notifications.resources';

/**
 * The notices plugin's endpoints that belong to no one model: the dashboard summary, the event
 * history of one object, the maintenance calendar feed, and the read-only view of sent notifications.
 * Every read goes through `visibleRows`, so callers see only the events they may view.
 */
const ALL = { limit: 1000, offset: 0 };
const DAY = 86_400_000;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const iso = (ms: number) => new Date(ms).toISOString();

const integer = { type: 'integer' } as const;

export const SUMMARY_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'summary',
  permission: { objectType: 'notices.maintenance', action: 'view' },
  openapi: {
    summary: 'Dashboard counts: active outages, maintenances in progress and upcoming, unacknowledged events',
    response: {
      type: 'object',
      required: [
        'active_outages',
        'maintenances_in_progress',
        'confirmed_next_7_days',
        'upcoming_next_7_days',
        'upcoming_next_30_days',
        'unacknowledged',
      ],
      properties: {
        active_outages: integer,
        maintenances_in_progress: integer,
        confirmed_next_7_days: integer,
        upcoming_next_7_days: integer,
        upcoming_next_30_days: integer,
        unacknowledged: integer,
      },
    },
  },
  handle: async ({ countVisible: count }) => {
    const now = Date.now();
    const upcoming = (days: number, statuses: readonly string[]) =>
      count('notices.maintenance', { status: [...statuses], start__gte: [iso(now)], start__lte: [iso(now + days * DAY)] });
    return {
      active_outages: await count('notices.outage', { status: [...ACTIVE_OUTAGE_STATUSES] }),
      maintenances_in_progress: await count('notices.maintenance', { status: ['IN-PROCESS'] }),
      confirmed_next_7_days: await upcoming(7, ['CONFIRMED']),
      upcoming_next_7_days: await upcoming(7, ACTIVE_MAINTENANCE_STATUSES),
      upcoming_next_30_days: await upcoming(30, ACTIVE_MAINTENANCE_STATUSES),
      unacknowledged:
        (await count('notices.maintenance', { status: [...ACTIVE_MAINTENANCE_STATUSES], acknowledged: ['false'] })) +
        (await count('notices.outage', { status: [...ACTIVE_OUTAGE_STATUSES], acknowledged: ['false'] })),
    };
  },
};

/** Events shown for an object: impacting it (or, for a provider, its own), recent by `event_history_days`, open-ended outages always. */
export const EVENT_HISTORY_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'event-history',
  permission: 'authenticated',
  openapi: {
    summary: "The maintenances and outages of one object (impacting it, or a provider's own) within event_history_days",
    parameters: [
      {
        name: 'object_type',
        description: 'The object type, app_label.model (e.g. dcim.site, circuits.provider)',
        schema: { type: 'string' },
      },
      { name: 'object_id', description: 'The object id', schema: { type: 'integer', minimum: 1 } },
    ],
    response: {
      type: 'object',
      required: ['maintenances', 'outages'],
      properties: { maintenances: { type: 'array', items: { type: 'object' } }, outages: { type: 'array', items: { type: 'object' } } },
    },
  },
  handle: async (context) => {
    const objectType = first(context.query.object_type) ?? '';
    const objectId = first(context.query.object_id) ?? '';
    const problems: Record<string, string[]> = {};
    if (!/^[a-z0-9_]+\.[a-z0-9_]+$/.test(objectType)) problems.object_type = ['Give the object type as app_label.model.'];
    if (!/^[1-9]\d{0,9}$/.test(objectId)) problems.object_id = ['Give the object id, a whole number.'];
    if (Object.keys(problems).length > 0) throw new ResourceValidationError(problems);
    const days = Number(context.settings.event_history_days ?? 30);
    const since = Date.now() - days * DAY;
    const events = async (kind: 'maintenance' | 'outage') => {
      const ids =
        objectType === 'circuits.provider'
          ? null
          : ((await context.manager.query(
              `SELECT DISTINCT event_object_id AS id FROM notices_impact
                WHERE event_content_type_id = ${objectTypeIdSql(`notices.${kind}`)}
                  AND target_content_type_id = (SELECT id FROM core_objecttype WHERE app_label || '.' || model = $1) AND target_object_id = $2`,
              [objectType, Number(objectId)],
            )) as Array<{ id: number }>);
      if (ids !== null && ids.length === 0) return [];
      const filters: QueryParameters = ids === null ? { provider_id: [objectId] } : { id: ids.map(({ id }) => String(id)) };
      const rows = (await context.visibleRows(`notices.${kind}`, filters, ALL)).filter(
        (row) => row.end === null || new Date(row.start as Date).getTime() >= since || new Date(row.end as Date).getTime() >= Date.now(),
      );
      return context.serializer.serialize(
        context.manager,
        kind === 'outage' ? OutageResource : MaintenanceResource,
        rows,
        'brief',
        context.scope.baseUrl,
      );
    };
    return { maintenances: await events('maintenance'), outages: await events('outage') };
  },
};

/** BCOP status → iCalendar STATUS. */
const ICAL_STATUS: Readonly<Record<string, string>> = {
  TENTATIVE: 'TENTATIVE',
  UNKNOWN: 'TENTATIVE',
  CONFIRMED: 'CONFIRMED',
  'IN-PROCESS': 'CONFIRMED',
  COMPLETED: 'CONFIRMED',
  CANCELLED: 'CANCELLED',
  'RE-SCHEDULED': 'CANCELLED',
};

const icalTime = (value: unknown) =>
  new Date(value as string | Date)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const icalText = (value: unknown) =>
  String(value ?? '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r?\n/g, '\\n');

/** RFC 5545 folding: lines over 75 octets continue on lines starting with a space. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  for (const char of line) {
    if (Buffer.byteLength(current + char) > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
    }
    current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

async function providerFilter(context: PluginRouteContext): Promise<string | null> {
  const slug = first(context.query.provider);
  const id = first(context.query.provider_id);
  if (slug === undefined && id === undefined) return null;
  if (id !== undefined && idFilterProblem([id]) !== undefined)
    throw new ResourceValidationError({ provider_id: ['Give a provider id, a whole number from 1 to 2147483647.'] });
  const [row] = (await context.manager.query(
    id !== undefined ? 'SELECT id FROM circuits_provider WHERE id = $1' : 'SELECT id FROM circuits_provider WHERE slug = $1',
    [id !== undefined ? Number(id) : slug],
  )) as Array<{ id: number }>;
  if (!row)
    throw new ResourceValidationError(
      id !== undefined ? { provider_id: [`No provider with ID ${id}.`] } : { provider: [`No provider "${slug}".`] },
    );
  return String(row.id);
}

export const ICAL_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'ical/maintenances.ics',
  permission: { objectType: 'notices.maintenance', action: 'view' },
  queryToken: true,
  // Upstream serves the feed among its UI views: subscriptions made there keep working.
  alsoAtPluginUrl: true,
  openapi: {
    summary: 'The maintenances as an iCalendar feed (token as Authorization header or ?token= for calendar clients)',
    parameters: [
      { name: 'token', description: 'A platform API token, for clients that cannot send headers', schema: { type: 'string' } },
      {
        name: 'past_days',
        description: 'Days of ended maintenances to include (0–365; default the ical_past_days_default setting)',
        schema: integer,
      },
      { name: 'provider', description: 'Only this provider (slug)', schema: { type: 'string' } },
      { name: 'provider_id', description: 'Only this provider (id)', schema: integer },
      { name: 'status', description: 'Comma-separated statuses (unknown ones are ignored)', schema: { type: 'string' } },
      { name: 'download', description: 'true: served as an attachment', schema: { type: 'boolean' } },
    ],
    response: { type: 'string' },
    responseMediaType: 'text/calendar',
  },
  handle: async (context) => {
    const fallback = Number(context.settings.ical_past_days_default ?? 30);
    const rawDays = first(context.query.past_days);
    const pastDays = rawDays !== undefined && /^\d{1,3}$/.test(rawDays) && Number(rawDays) <= 365 ? Number(rawDays) : fallback;
    const known = new Set(MAINTENANCE_STATUSES.map((status) => status.value));
    const statuses = (first(context.query.status) ?? '')
      .split(',')
      .map((status) => status.trim().toUpperCase())
      .filter((status) => known.has(status));
    const providerId = await providerFilter(context);
    const filters: QueryParameters = { end__gte: [iso(Date.now() - pastDays * DAY)] };
    if (providerId) filters.provider_id = [providerId];
    if (statuses.length > 0) filters.status = statuses;
    const rows = (await context.visibleRows('notices.maintenance', filters, ALL)) as Array<ResourceRow & Record<string, unknown>>;
    const lastModified = rows.reduce((latest, row) => Math.max(latest, new Date(row.last_updated as Date).getTime()), 0);
    const etag = `"${createHash('md5')
      .update(JSON.stringify([pastDays, providerId, statuses, lastModified, rows.length, rows.map((row) => row.id)]))
      .digest('hex')}"`;
    const headers: Record<string, string> = { ETag: etag, 'Cache-Control': 'private, max-age=900' };
    if (lastModified > 0) headers['Last-Modified'] = new Date(lastModified).toUTCString();
    const ifNoneMatch = first(context.headers['if-none-match']);
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*'))
      return RouteResponse.text('', 'text/calendar; charset=utf-8', 304, headers);
    if (first(context.query.download) === 'true') headers['Content-Disposition'] = 'attachment; filename="maintenances.ics"';
    const providers = new Map(
      (
        (await context.manager.query('SELECT id, name FROM circuits_provider WHERE id = ANY($1)', [
          rows.map((row) => row.provider_id),
        ])) as Array<{
          id: number;
          name: string;
        }>
      ).map(({ id, name }) => [Number(id), name]),
    );
    const host = new URL(context.scope.baseUrl).host;
    const lines = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//notices plugin//maintenances//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'X-WR-CALNAME:Maintenances',
    ];
    for (const row of rows) {
      const provider = providers.get(Number(row.provider_id)) ?? '';
      lines.push(
        'BEGIN:VEVENT',
        `UID:maintenance-${row.id}@${host}`,
        `DTSTAMP:${icalTime(row.last_updated)}`,
        `LAST-MODIFIED:${icalTime(row.last_updated)}`,
        `DTSTART:${icalTime(row.start)}`,
        `DTEND:${icalTime(row.end)}`,
        `SUMMARY:${icalText(`${provider}: ${String(row.name)} – ${String(row.summary)}`)}`,
        `DESCRIPTION:${icalText([row.summary, row.impact, row.internal_ticket ? `Ticket: ${String(row.internal_ticket)}` : ''].filter(Boolean).join('\n'))}`,
        `STATUS:${ICAL_STATUS[String(row.status)] ?? 'TENTATIVE'}`,
        `URL:${context.scope.baseUrl}/api/plugins/notices/maintenance/${row.id}/`,
        `X-MAINTNOTE-PROVIDER:${icalText(provider)}`,
        `X-MAINTNOTE-MAINTENANCE-ID:${icalText(row.name)}`,
        `X-MAINTNOTE-STATUS:${String(row.status)}`,
        'END:VEVENT',
      );
    }
    lines.push('END:VCALENDAR');
    return RouteResponse.text(`${lines.map(fold).join('\r\n')}\r\n`, 'text/calendar; charset=utf-8', 200, headers);
  },
};

const SENT = ['sent', 'delivered'];

/** The list filters of prepared notifications, with the status kept to sent and delivered; null when the asked statuses leave none. */
function sentFilters(query: QueryParameters): QueryParameters | null {
  const { limit: _limit, offset: _offset, ...filters } = query;
  const asked = ([] as string[]).concat(filters.status ?? []);
  const statuses = asked.length > 0 ? asked.filter((status) => SENT.includes(status)) : SENT;
  return statuses.length > 0 ? { ...filters, status: statuses } : null;
}

export const SENT_NOTIFICATIONS_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'sent-notifications',
  permission: { objectType: 'notices.preparednotification', action: 'view' },
  openapi: {
    summary: 'Prepared notifications that were sent or delivered (read-only); the prepared-notification filters apply',
    parameters: PAGE_PARAMETERS,
    filtersOf: PreparedNotificationResource,
    response: PAGE_SCHEMA,
  },
  handle: (context) => pagedList(context, PreparedNotificationResource, sentFilters(context.query)),
};

export const SENT_NOTIFICATION_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'sent-notifications/{id}',
  permission: { objectType: 'notices.preparednotification', action: 'view' },
  openapi: {
    summary: 'One sent or delivered notification (read-only)',
    pathParameters: { id: { description: 'The notification', schema: { type: 'integer', minimum: 1 } } },
    response: { type: 'object' },
  },
  handle: async (context) => {
    const [row] = await context.visibleRows(
      'notices.preparednotification',
      { id: [context.params.id], status: SENT },
      { limit: 1, offset: 0 },
    );
    if (!row) throw new NotFoundError('Not found.');
    const [serialized] = await context.serializer.serialize(
      context.manager,
      PreparedNotificationResource,
      [row],
      'full',
      context.scope.baseUrl,
    );
    return serialized;
  },
};

/** Writes to sent notifications: 405, as a read-only NetBox endpoint answers. */
export const SENT_NOTIFICATIONS_WRITE_ROUTE: PluginRoute = {
  method: 'POST',
  path: 'sent-notifications',
  permission: { objectType: 'notices.preparednotification', action: 'view' },
  openapi: { summary: 'Not allowed: sent notifications are read-only (405)', response: { type: 'object' } },
  handle: async () => RouteResponse.json({ detail: 'Method "POST" not allowed.' }, 'application/json', 405),
};

export const NOTICES_ROUTES = [
  SUMMARY_ROUTE,
  EVENT_HISTORY_ROUTE,
  ICAL_ROUTE,
  SENT_NOTIFICATIONS_ROUTE,
  SENT_NOTIFICATION_ROUTE,
  SENT_NOTIFICATIONS_WRITE_ROUTE,
];
