import type { EntityManager } from 'typeorm';
import { MAX_OBJECT_ID, type ResourceExtension, type ResourceRow } from '../../platform/plugin-api';

/**
 * A template's `scopes` as upstream's serializer reads and writes them: each scope's `content_type`
 * is the model name (`"tenant"`, upstream's slug field), with `object_repr` (the scoped object's
 * display, or "All <model>s"). Written on a template, the list replaces all its scopes; absent, they
 * stay. A content type may also be written as `"app.model"` or its id; a bare model name that
 * several apps share is refused, naming the `"app.model"` choices.
 */
const SCOPE_KEYS = new Set(['id', 'content_type', 'object_id', 'object_repr', 'event_type', 'event_status', 'weight']);
const EVENT_TYPES = ['', 'maintenance', 'outage'];

interface ScopeInput {
  content_type_id: number;
  object_id: number | null;
  event_type: string;
  event_status: string;
  weight: number;
}

async function objectTypes(manager: EntityManager): Promise<Array<{ id: number; app_label: string; model: string }>> {
  return (await manager.query('SELECT id, app_label, model FROM core_objecttype ORDER BY id')) as Array<{
    id: number;
    app_label: string;
    model: string;
  }>;
}

/** The scopes of a body as rows to write, or the problems (each naming the scope's position). */
async function readScopes(manager: EntityManager, raw: unknown): Promise<{ scopes: ScopeInput[] } | { problems: string[] }> {
  if (!Array.isArray(raw)) return { problems: ['Expected a list of scopes.'] };
  const types = await objectTypes(manager);
  const problems: string[] = [];
  const scopes: ScopeInput[] = [];
  const seen = new Set<string>();
  raw.forEach((item: unknown, index) => {
    const at = `Scope ${index + 1}: `;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return problems.push(`${at}expected an object.`);
    const scope = item as Record<string, unknown>;
    const unknownKey = Object.keys(scope).find((key) => !SCOPE_KEYS.has(key));
    if (unknownKey !== undefined) return problems.push(`${at}unknown field ${JSON.stringify(unknownKey)}.`);
    const given = scope.content_type;
    const matches =
      typeof given === 'number'
        ? types.filter((type) => Number(type.id) === given)
        : typeof given === 'string'
          ? types.filter((type) => (given.includes('.') ? `${type.app_label}.${type.model}` === given : type.model === given))
          : [];
    if (given === undefined || given === null) return problems.push(`${at}content_type is required.`);
    if (matches.length === 0) return problems.push(`${at}content_type ${JSON.stringify(given)} is not an object type.`);
    if (matches.length > 1)
      return problems.push(
        `${at}content_type ${JSON.stringify(given)} is ambiguous: give one of ${matches.map((t) => `${t.app_label}.${t.model}`).join(', ')}.`,
      );
    const objectId = scope.object_id ?? null;
    if (objectId !== null && !(Number.isSafeInteger(objectId) && (objectId as number) >= 1 && (objectId as number) <= MAX_OBJECT_ID))
      return problems.push(`${at}object_id must be a positive integer or null.`);
    const eventType = scope.event_type ?? '';
    if (typeof eventType !== 'string' || !EVENT_TYPES.includes(eventType))
      return problems.push(`${at}event_type must be one of maintenance, outage or blank.`);
    const eventStatus = scope.event_status ?? '';
    if (typeof eventStatus !== 'string' || eventStatus.length > 30)
      return problems.push(`${at}event_status must be text of at most 30 characters.`);
    const weight = scope.weight ?? 1000;
    if (!Number.isSafeInteger(weight) || (weight as number) < 0 || (weight as number) > 32767)
      return problems.push(`${at}weight must be an integer from 0 to 32767.`);
    const row = {
      content_type_id: Number(matches[0].id),
      object_id: objectId as number | null,
      event_type: eventType,
      event_status: eventStatus,
      weight: weight as number,
    };
    const key = JSON.stringify([row.content_type_id, row.object_id, row.event_type, row.event_status]);
    if (seen.has(key)) return problems.push(`${at}the same content_type, object_id, event_type and event_status as an earlier scope.`);
    seen.add(key);
    scopes.push(row);
  });
  return problems.length > 0 ? { problems } : { scopes };
}

/** The scopes of a page of templates in upstream's shape, by template id. */
async function scopesOf(
  manager: EntityManager,
  rows: readonly ResourceRow[],
  displays: ((objectType: string, ids: number[]) => Promise<Map<number, string>>) | null,
): Promise<Map<number, Record<string, unknown>>> {
  const found = (await manager.query(
    `SELECT s.id, s.template_id, ot.app_label, ot.model, s.object_id, s.event_type, s.event_status, s.weight
       FROM notices_templatescope s JOIN core_objecttype ot ON ot.id = s.content_type_id
      WHERE s.template_id = ANY($1) ORDER BY s.id`,
    [rows.map((row) => row.id)],
  )) as Array<{ id: number; template_id: number; app_label: string; model: string; object_id: number | null } & Record<string, unknown>>;
  const names = new Map<string, Map<number, string>>();
  if (displays) {
    const idsByType = new Map<string, number[]>();
    for (const scope of found)
      if (scope.object_id !== null)
        idsByType.set(`${scope.app_label}.${scope.model}`, [
          ...(idsByType.get(`${scope.app_label}.${scope.model}`) ?? []),
          Number(scope.object_id),
        ]);
    for (const [objectType, ids] of idsByType) names.set(objectType, await displays(objectType, ids));
  }
  const result = new Map(rows.map((row) => [row.id, { scopes: [] as unknown[] }]));
  for (const { template_id, app_label, model, ...scope } of found) {
    const objectId = scope.object_id === null ? null : Number(scope.object_id);
    result.get(Number(template_id))?.scopes.push({
      id: Number(scope.id),
      content_type: model,
      object_id: objectId,
      ...(displays
        ? {
            object_repr:
              objectId === null ? `All ${model}s` : (names.get(`${app_label}.${model}`)?.get(objectId) ?? `${model} ${objectId}`),
          }
        : {}),
      event_type: scope.event_type,
      event_status: scope.event_status,
      weight: Number(scope.weight),
    });
  }
  return result;
}

export const inlineTemplateScopes: ResourceExtension = {
  keys: ['scopes'],
  readSchema: {
    scopes: {
      type: 'array',
      readOnly: true,
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          content_type: { type: 'string', description: 'the model name ("tenant")' },
          object_id: { type: 'integer', nullable: true },
          object_repr: { type: 'string' },
          event_type: { type: 'string' },
          event_status: { type: 'string' },
          weight: { type: 'integer' },
        },
      },
    },
  },
  // GraphQL's field: the scopes without object_repr (read from the rows alone).
  computed: (manager, rows) => scopesOf(manager, rows, null),
  represent: (manager, rows, baseUrl, serializer) =>
    scopesOf(manager, rows, async (objectType, ids) => {
      const briefs = await serializer.briefByIds(manager, objectType, ids, baseUrl).catch(() => new Map());
      return new Map([...briefs].map(([id, brief]) => [id, String((brief as { display?: unknown }).display ?? '')]));
    }),
  // The change record of a template carries its scopes, so a replacement shows in its diff.
  snapshot: (manager, rows) => scopesOf(manager, rows, null),
  validate: async (manager, body): Promise<Record<string, string[]>> => {
    if (!Object.hasOwn(body, 'scopes')) return {};
    const read = await readScopes(manager, body.scopes);
    return 'problems' in read ? { scopes: read.problems } : {};
  },
  apply: async (manager, row, body) => {
    if (!Object.hasOwn(body, 'scopes')) return;
    const read = await readScopes(manager, body.scopes);
    if ('problems' in read) return;
    await manager.query('DELETE FROM notices_templatescope WHERE template_id = $1', [row.id]);
    for (const scope of read.scopes) {
      await manager.query(
        `INSERT INTO notices_templatescope (template_id, content_type_id, object_id, event_type, event_status, weight)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [row.id, scope.content_type_id, scope.object_id, scope.event_type, scope.event_status, scope.weight],
      );
    }
  },
};
