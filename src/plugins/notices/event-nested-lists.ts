import type { ResourceExtension } from '../../platform/plugin-api';
import { NOTICES_API_PREFIX } from './api-prefix';
import { objectTypeIdSql } from './impact-places';

/**
 * `impacts` and `notifications` of a page of events, as upstream's nested serializers show them:
 * each with its event (`event_type` "app.model", `event_object` {id, name}), an impact with its
 * target (`target_type`, `target_object` {id, name: the target's display}). Two statements for the
 * page, plus one per target type for the names; read-only.
 */
/** A timestamp as the platform serialises it (UTC, microseconds). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function eventNestedLists(objectType: string): ResourceExtension {
  return {
    keys: ['impacts', 'notifications'],
    readSchema: {
      impacts: { type: 'array', readOnly: true, items: { type: 'object', description: "an impact in upstream's nested shape" } },
      notifications: {
        type: 'array',
        readOnly: true,
        items: { type: 'object', description: "an event notification in upstream's nested shape" },
      },
    },
    represent: async (manager, rows, baseUrl, serializer) => {
      const ids = rows.map((row) => row.id);
      const names = new Map(rows.map((row) => [row.id, String(row.name)]));
      const impacts = (await manager.query(
        `SELECT i.id, i.event_object_id, ot.app_label || '.' || ot.model AS target_type, i.target_object_id, i.impact,
                ${iso('i.created')} AS created, ${iso('i.last_updated')} AS last_updated
           FROM notices_impact i JOIN core_objecttype ot ON ot.id = i.target_content_type_id
          WHERE i.event_content_type_id = ${objectTypeIdSql(objectType)} AND i.event_object_id = ANY($1) ORDER BY i.id`,
        [ids],
      )) as Array<Record<string, unknown> & { id: number; event_object_id: number; target_type: string; target_object_id: number }>;
      const notifications = (await manager.query(
        `SELECT id, event_object_id, subject, email_from, ${iso('email_received')} AS email_received, ${iso('created')} AS created,
                ${iso('last_updated')} AS last_updated FROM notices_eventnotification
          WHERE event_content_type_id = ${objectTypeIdSql(objectType)} AND event_object_id = ANY($1) ORDER BY email_received, id`,
        [ids],
      )) as Array<Record<string, unknown> & { id: number; event_object_id: number }>;
      const targetNames = new Map<string, Map<number, string>>();
      for (const type of new Set(impacts.map((impact) => impact.target_type))) {
        const targetIds = impacts.filter((impact) => impact.target_type === type).map((impact) => Number(impact.target_object_id));
        const briefs = await serializer.briefByIds(manager, type, targetIds, baseUrl).catch(() => new Map());
        targetNames.set(type, new Map([...briefs].map(([id, brief]) => [Number(id), String((brief as { display?: unknown }).display)])));
      }
      const event = (id: number) => ({ event_type: objectType, event_object: { id: Number(id), name: names.get(Number(id)) ?? '' } });
      const result = new Map(rows.map((row) => [row.id, { impacts: [] as unknown[], notifications: [] as unknown[] }]));
      for (const impact of impacts) {
        const targetId = Number(impact.target_object_id);
        result.get(Number(impact.event_object_id))?.impacts.push({
          id: Number(impact.id),
          url: `${baseUrl}${NOTICES_API_PREFIX}impact/${impact.id}/`,
          ...event(impact.event_object_id),
          target_type: impact.target_type,
          target_object: { id: targetId, name: targetNames.get(impact.target_type)?.get(targetId) ?? String(targetId) },
          impact: impact.impact,
          created: impact.created,
          last_updated: impact.last_updated,
        });
      }
      for (const notification of notifications) {
        result.get(Number(notification.event_object_id))?.notifications.push({
          id: Number(notification.id),
          url: `${baseUrl}${NOTICES_API_PREFIX}eventnotification/${notification.id}/`,
          ...event(notification.event_object_id),
          subject: notification.subject,
          email_from: notification.email_from,
          email_received: notification.email_received,
          created: notification.created,
          last_updated: notification.last_updated,
        });
      }
      return result;
    },
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}
