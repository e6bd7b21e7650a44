import {
  boolean,
  choice,
  computedProperties,
  datetime,
  defineResource,
  type FieldSpec,
  integer,
  longText,
  ProviderResource,
  relation,
  type ResourceHookContext,
  type ResourceRow,
  text,
} from '../../platform/plugin-api';
import { NOTICES_API_PREFIX } from './api-prefix';
import { eventNestedLists } from './event-nested-lists';
import { eventPlaceFilters, objectTypeIdSql } from './impact-places';
import { prepareNotificationsAction } from './notification-preparation';
import { colourOf, MAINTENANCE_STATUSES, OUTAGE_STATUSES, pairs, type ColouredChoice } from './notices.choices';

/**
 * Maintenances (planned, BCOP statuses) and outages (unplanned, with an estimated time to repair):
 * the events that impacts, received notifications and prepared notifications hang off. Neither
 * enforces a status workflow (any move, backwards too); the change log keeps every change, the
 * ETR's included (old and new values in its snapshots).
 */
const apiPrefix = NOTICES_API_PREFIX;

function time(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = new Date(value as string | Date).getTime();
  return Number.isNaN(parsed) ? null : parsed;
}

/** `end >= start` (equal allowed); `start` not yet given is the time of the insert. Values are by column. */
function checkTimes(values: Record<string, unknown>): Record<string, string[]> {
  const start = time(values.start) ?? Date.now();
  const end = time(values.end);
  return end !== null && end < start ? { end: ['The end time must be after the start time.'] } : {};
}

function eventFields(statuses: readonly ColouredChoice[]): Record<string, FieldSpec> {
  return {
    name: text({ maxLength: 100, required: true, search: true }),
    summary: text({ maxLength: 200, required: true, search: true }),
    provider: relation(() => ProviderResource, { onDelete: 'CASCADE', required: true }),
    status: choice(pairs(statuses), { required: true }),
    original_timezone: text({ maxLength: 63 }),
    internal_ticket: text({ maxLength: 100, search: true }),
    acknowledged: boolean({ default: false }),
    comments: longText(),
    impact: longText({ search: true }),
  };
}

/** `status_color` and `impact_count`, computed for a page of events of one type. */
function eventProperties(objectType: string, statuses: readonly ColouredChoice[]) {
  return computedProperties(
    { status_color: { type: 'string', nullable: true }, impact_count: { type: 'integer' } },
    async (manager, rows) => {
      const counts = (await manager.query(
        `SELECT event_object_id AS id, count(*)::int AS n FROM notices_impact
        WHERE event_content_type_id = ${objectTypeIdSql(objectType)} AND event_object_id = ANY($1) GROUP BY event_object_id`,
        [rows.map((row) => row.id)],
      )) as Array<{ id: number; n: number }>;
      const byId = new Map(counts.map(({ id, n }) => [Number(id), n]));
      return new Map(rows.map((row) => [row.id, { status_color: colourOf(statuses, row.status), impact_count: byId.get(row.id) ?? 0 }]));
    },
  );
}

/**
 * Impacts and received notifications point at their event by object type and id (as upstream's
 * generic foreign keys), so deleting the event deletes them here, in the same transaction.
 */
function deleteAttached(objectType: string) {
  return async (context: ResourceHookContext, row: ResourceRow) => {
    for (const table of ['notices_impact', 'notices_eventnotification']) {
      await context.manager.query(
        `DELETE FROM ${table} WHERE event_content_type_id = ${objectTypeIdSql(objectType)} AND event_object_id = $1`,
        [row.id],
      );
    }
  };
}

const display = (row: ResourceRow) => String(row.name);
const brief = ['name', 'status', 'provider', 'start', 'end'];

/** A maintenance replaced by another (`replaces`) is RE-SCHEDULED. */
async function markReplaced(context: ResourceHookContext, replacedId: unknown): Promise<void> {
  if (replacedId === null || replacedId === undefined) return;
  await context.manager.query(`UPDATE notices_maintenance SET status = 'RE-SCHEDULED', last_updated = now() WHERE id = $1`, [replacedId]);
}

export const MaintenanceResource = defineResource({
  appLabel: 'notices',
  model: 'maintenance',
  path: 'maintenance',
  apiPrefix,
  verboseName: 'maintenance',
  graphqlName: 'maintenance',
  table: 'notices_maintenance',
  fields: {
    ...eventFields(MAINTENANCE_STATUSES),
    start: datetime({ required: true }),
    end: datetime({ required: true }),
    replaces: relation(() => MaintenanceResource, { onDelete: 'SET NULL' }),
    // The provider notice last applied by the inbound-email endpoint (its DTSTAMP or Date, and BCOP
    // SEQUENCE): a notice older than this one no longer changes the maintenance.
    notice_stamp: datetime({ nullable: true, readOnly: true }),
    notice_sequence: integer({ min: -1, max: 2_147_483_647, nullable: true, readOnly: true }),
  },
  display,
  brief,
  ordering: ['-created'],
  validate: (values) => {
    const problems = checkTimes(values);
    if (values.replaces_id !== null && values.replaces_id !== undefined && values.replaces_id === values.id)
      problems.replaces = ['A maintenance cannot replace itself.'];
    return problems;
  },
  extraFilters: {
    ...eventPlaceFilters('notices.maintenance'),
    has_replaces: (values, alias) => {
      const wanted = values.map((value) => value.toLowerCase());
      if (wanted.some((value) => !['true', 'false', '1', '0'].includes(value))) return { problem: 'Select a valid choice: true or false.' };
      const replaced = `EXISTS (SELECT 1 FROM notices_maintenance r WHERE r.replaces_id = ${alias}."id")`;
      return { where: ['true', '1'].includes(wanted[0]) ? replaced : `NOT ${replaced}`, params: {} };
    },
  },
  extensions: [eventNestedLists('notices.maintenance'), eventProperties('notices.maintenance', MAINTENANCE_STATUSES)],
  actions: [prepareNotificationsAction('maintenance')],
  afterCreate: (context, row) => markReplaced(context, row.replaces_id),
  afterUpdate: async (context, before, after) => {
    if (after.replaces_id !== before.replaces_id) await markReplaced(context, after.replaces_id);
  },
  afterDelete: deleteAttached('notices.maintenance'),
});

export const OutageResource = defineResource({
  appLabel: 'notices',
  model: 'outage',
  path: 'outage',
  apiPrefix,
  verboseName: 'outage',
  graphqlName: 'outage',
  table: 'notices_outage',
  fields: {
    ...eventFields(OUTAGE_STATUSES),
    // The spec lets a new outage omit its status: it is then REPORTED.
    status: choice(pairs(OUTAGE_STATUSES), { default: 'REPORTED' }),
    start: datetime({ default: 'now' }),
    end: datetime({ nullable: true }),
    reported_at: datetime({ default: 'now' }),
    estimated_time_to_repair: datetime({ nullable: true }),
  },
  display,
  brief,
  ordering: ['-created'],
  validate: (values) => {
    const problems = checkTimes(values);
    if (values.status === 'RESOLVED' && time(values.end) === null)
      (problems.end ??= []).push('End time is required when marking outage as resolved');
    return problems;
  },
  extraFilters: eventPlaceFilters('notices.outage'),
  extensions: [eventNestedLists('notices.outage'), eventProperties('notices.outage', OUTAGE_STATUSES)],
  actions: [prepareNotificationsAction('outage')],
  afterDelete: deleteAttached('notices.outage'),
});
