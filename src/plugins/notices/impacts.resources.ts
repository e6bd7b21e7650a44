import {
  canonicalObjectType,
  choice,
  defineResource,
  nonFieldError,
  type ResourceHookContext,
  resourceOf,
  type ResourceRow,
  ResourceValidationError,
} from '../../platform/plugin-api';
import { eventOf, eventProblems, nestedPointers, objectPointer, objectTypeLabelFilter, objectTypeLabels } from './event-attachment';
import { NOTICES_API_PREFIX } from './api-prefix';
import { impactPlaceFilters } from './impact-places';
import { DEFAULT_IMPACT_TARGETS } from './impact-targets';
import { CLOSED_EVENT_STATUSES, colourOf, IMPACT_LEVELS, pairs } from './notices.choices';

/**
 * An impact is frozen while its event is closed (RESOLVED, COMPLETED, CANCELLED): creating,
 * changing or deleting it is refused (upstream refuses only the first two; deleting is refused too,
 * as its notes suggest). Reopening the event unfreezes it.
 */
async function refuseWhileFrozen(context: ResourceHookContext, typeId: unknown, eventId: unknown): Promise<void> {
  const event = await eventOf(context.manager, typeId, eventId);
  if (event?.status && CLOSED_EVENT_STATUSES.has(event.status)) {
    const kind = event.objectType.split('.')[1];
    throw nonFieldError(`The ${kind}'s status is ${event.status}: its impacts are frozen and cannot be created, changed or deleted.`);
  }
}

/** The target's type must be one of the `allowed_content_types` setting (compared case-insensitively; upstream plugins' labels name ours). */
async function refuseDisallowedTarget(context: ResourceHookContext, typeId: unknown): Promise<void> {
  const allowed = ((context.settings.allowed_content_types as string[] | undefined) ?? DEFAULT_IMPACT_TARGETS).map((t) =>
    canonicalObjectType(t.toLowerCase()),
  );
  const label = (await objectTypeLabels(context.manager, [Number(typeId)])).get(Number(typeId)) ?? String(typeId);
  if (!allowed.includes(label.toLowerCase())) {
    throw new ResourceValidationError({
      target_content_type: [`Content type '${label}' is not allowed. Allowed types: ${allowed.join(', ')}`],
    });
  }
}

function tableOf(objectType: string): string | undefined {
  try {
    return resourceOf(objectType).table;
  } catch {
    return undefined;
  }
}

export const ImpactResource = defineResource({
  appLabel: 'notices',
  model: 'impact',
  path: 'impact',
  apiPrefix: NOTICES_API_PREFIX,
  verboseName: 'impact',
  graphqlName: 'impact',
  table: 'notices_impact',
  fields: {
    ...objectPointer('event'),
    ...objectPointer('target'),
    // Upstream's parser defaults a circuit's impact to OUTAGE; so do we when it is left out.
    impact: choice(pairs(IMPACT_LEVELS), { default: 'OUTAGE' }),
  },
  display: (row) => `Impact ${String(row.impact)} on ${String(row.target_content_type_id)}:${String(row.target_object_id)}`,
  brief: ['impact'],
  ordering: ['impact', 'id'],
  uniqueTogether: [['event_content_type', 'event_object_id', 'target_content_type', 'target_object_id']],
  validateAsync: async (manager, values) => {
    const problems = await eventProblems(manager, values);
    const target = (await objectTypeLabels(manager, [Number(values.target_content_type_id)])).get(Number(values.target_content_type_id));
    const table = target ? tableOf(target) : undefined;
    if (target && table) {
      const found = (await manager.query(`SELECT 1 FROM "${table}" WHERE id = $1`, [Number(values.target_object_id)])) as unknown[];
      if (found.length === 0) problems.target_object_id = [`No ${target} with ID ${String(values.target_object_id)} exists.`];
    }
    return problems;
  },
  extraFilters: {
    ...impactPlaceFilters(),
    event_content_type: objectTypeLabelFilter('event'),
    target_content_type: objectTypeLabelFilter('target'),
  },
  extensions: [
    nestedPointers(['event', 'target']),
    {
      keys: ['impact_color'],
      represent: async (_manager, rows) => new Map(rows.map((row) => [row.id, { impact_color: colourOf(IMPACT_LEVELS, row.impact) }])),
      snapshot: async () => new Map(),
      validate: async () => ({}),
      apply: async () => undefined,
    },
  ],
  afterCreate: async (context, row) => {
    await refuseDisallowedTarget(context, row.target_content_type_id);
    await refuseWhileFrozen(context, row.event_content_type_id, row.event_object_id);
  },
  beforeUpdate: async (context, existing, changes) => {
    await refuseWhileFrozen(context, existing.event_content_type_id, existing.event_object_id);
    const next: ResourceRow = { ...existing, ...changes };
    if (next.target_content_type_id !== existing.target_content_type_id) await refuseDisallowedTarget(context, next.target_content_type_id);
    await refuseWhileFrozen(context, next.event_content_type_id, next.event_object_id);
  },
  beforeDelete: async (context, row) => {
    // Deleting the event itself deletes its impacts by SQL, without this hook.
    await refuseWhileFrozen(context, row.event_content_type_id, row.event_object_id);
  },
});
