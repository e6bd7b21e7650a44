import {
  type ActionDocumentation,
  type CollectionActionContext,
  ForbiddenError,
  nonFieldError,
  type ResourceActionContext,
  type ResourceDefinition,
} from '../../platform/plugin-api';
import { liveSplices, pairKey } from './closure-splices';
import { EndpointValidationError } from './endpoint-errors';

export const IMPORT_DOCUMENTATION: ActionDocumentation = {
  summary:
    "Seed a draft plan from its closure's live splices: one entry per spliced pair whose fibres the plan does not name yet and no other non-archived plan of the closure claims",
  response: {
    type: 'object',
    required: ['imported', 'skipped_existing', 'skipped_claimed', 'skipped_no_tray'],
    properties: {
      imported: { type: 'integer', description: 'Entries created' },
      skipped_existing: { type: 'integer', description: 'Live splices on a fibre this plan already names' },
      skipped_claimed: { type: 'integer', description: 'Live splices on a fibre another non-archived plan of the closure claims' },
      skipped_no_tray: { type: 'integer', description: 'Live splices whose two ports are on no module (an entry needs a tray)' },
    },
  },
};

/**
 * `POST splice-plans/{id}/import-from-device/`: the closure's live splices become entries of the
 * plan, each through the entry model (validated, change-logged). A port on a module is `fiber_a`
 * (the cable's A end when both are), its module the tray; so applying the plan unchanged changes
 * nothing. The plan must be a draft; its version moves and its cached diff is stale.
 */
export async function importFromDevice(context: ResourceActionContext): Promise<Record<string, number>> {
  const { manager, row } = context;
  const [plan] = (await manager.query('SELECT status, closure_id FROM fms_spliceplan WHERE id = $1 FOR UPDATE', [row.id])) as Array<{
    status: string;
    closure_id: number;
  }>;
  if (plan.status !== 'draft')
    throw new EndpointValidationError({ non_field_errors: [`Plan is '${plan.status}' — only draft plans can be edited.`] });
  const named = (await manager.query('SELECT fiber_a_id, fiber_b_id FROM fms_spliceplanentry WHERE plan_id = $1', [row.id])) as Array<{
    fiber_a_id: number;
    fiber_b_id: number;
  }>;
  const namedPorts = new Set(named.flatMap((entry) => [entry.fiber_a_id, entry.fiber_b_id]));
  const claimed = (await manager.query(
    `SELECT e.fiber_a_id, e.fiber_b_id FROM fms_spliceplanentry e JOIN fms_spliceplan p ON p.id = e.plan_id
      WHERE p.closure_id = $1 AND p.status <> 'archived' AND p.id <> $2`,
    [plan.closure_id, row.id],
  )) as Array<{ fiber_a_id: number; fiber_b_id: number }>;
  const claimedPorts = new Set(claimed.flatMap((entry) => [entry.fiber_a_id, entry.fiber_b_id]));

  const counts = { imported: 0, skipped_existing: 0, skipped_claimed: 0, skipped_no_tray: 0 };
  const items: Array<Record<string, unknown>> = [];
  const seen = new Set<string>();
  for (const splice of await liveSplices(manager, plan.closure_id)) {
    // Two cables on one pair of ports are one splice.
    if (seen.has(pairKey(splice.fiber_a, splice.fiber_b))) continue;
    seen.add(pairKey(splice.fiber_a, splice.fiber_b));
    if (namedPorts.has(splice.fiber_a) || namedPorts.has(splice.fiber_b)) counts.skipped_existing += 1;
    else if (claimedPorts.has(splice.fiber_a) || claimedPorts.has(splice.fiber_b)) counts.skipped_claimed += 1;
    else if (splice.tray_id === null && splice.tray_b_id === null) counts.skipped_no_tray += 1;
    else {
      const aOnTray = splice.tray_id !== null;
      items.push({
        plan: row.id,
        fiber_a: aOnTray ? splice.fiber_a : splice.fiber_b,
        fiber_b: aOnTray ? splice.fiber_b : splice.fiber_a,
        tray: aOnTray ? splice.tray_id : splice.tray_b_id,
      });
      namedPorts.add(splice.fiber_a).add(splice.fiber_b);
    }
  }
  if (items.length > 0) {
    await context.create('fms.spliceplanentry', items);
    await manager.query('UPDATE fms_spliceplan SET diff_stale = true, last_updated = clock_timestamp() WHERE id = $1', [row.id]);
  }
  counts.imported = items.length;
  return counts;
}

export const QUICK_ADD_DOCUMENTATION: ActionDocumentation = {
  summary: 'Create a draft plan from a minimal body (closure, name, optional project and description); answers the plan (201)',
  request: {
    type: 'object',
    required: ['closure', 'name'],
    properties: {
      closure: { type: 'integer', description: 'The closure (a device) id' },
      name: { type: 'string', maxLength: 100 },
      project: { type: 'integer', nullable: true },
      description: { type: 'string', maxLength: 200 },
    },
  },
  response: { type: 'object', description: 'The plan (its full representation)' },
};

/**
 * `POST splice-plans/quick-add/` (add permission): a plan created as `POST splice-plans/` creates it,
 * answered 201; a body the model refuses answers its field map. The add permission's constraints
 * apply to the new plan (outside them: 403, nothing written).
 */
export async function quickAddPlan(context: CollectionActionContext, plans: ResourceDefinition): Promise<unknown> {
  const { body, manager, scope, serializer } = context;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw nonFieldError('Expected a JSON object.');
  const [plan] = await context.create('fms.spliceplan', [body as Record<string, unknown>]);
  if (!(await context.permits('fms.spliceplan', 'add', plan.id)))
    throw new ForbiddenError('The new plan lies outside your add_spliceplan permission.', 'permission_denied');
  const [represented] = await serializer.serialize(manager, plans, [plan], 'full', scope.baseUrl);
  return represented;
}
