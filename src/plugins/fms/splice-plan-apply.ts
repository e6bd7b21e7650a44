import { type ActionDocumentation, ConflictError, type ResourceActionContext, type ResourceRow } from '../../platform/plugin-api';
import type { EntityManager } from 'typeorm';
import { circuitsHoldingPorts, liveSplices, pairKey } from './closure-splices';

type Pair = [number, number];
interface TrayDiff {
  add: Pair[];
  remove: Pair[];
  unchanged: Pair[];
}

const pairsSchema = { type: 'array', items: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 } };

export const PLAN_DIFF_DOCUMENTATION: ActionDocumentation = {
  summary:
    "What applying the plan would change on its closure, by tray id ('0': ports on no tray): pairs to add (in the plan, not spliced), to remove (spliced on a fiber the plan touches, not in the plan) and unchanged",
  response: {
    type: 'object',
    additionalProperties: {
      type: 'object',
      required: ['add', 'remove', 'unchanged'],
      properties: { add: pairsSchema, remove: pairsSchema, unchanged: pairsSchema },
    },
  },
};

export const PLAN_APPLY_DOCUMENTATION: ActionDocumentation = {
  summary:
    'Apply an approved plan to its closure: one cable per added pair (A = fiber_a, B = fiber_b), the cables of removed pairs deleted; the plan is archived',
  response: { type: 'object', required: ['added', 'removed'], properties: { added: { type: 'integer' }, removed: { type: 'integer' } } },
};

/**
 * The plan against the closure's live splices. A plan states the splices of the fibers it names:
 * a live splice on one of those fibers that the plan does not contain is removed by applying it;
 * splices of fibers the plan does not name are left alone.
 */
async function computeDiff(manager: EntityManager, plan: ResourceRow): Promise<{ diff: Record<string, TrayDiff>; removeCables: number[] }> {
  const entries = (await manager.query('SELECT fiber_a_id, fiber_b_id, tray_id FROM fms_spliceplanentry WHERE plan_id = $1 ORDER BY id', [
    plan.id,
  ])) as Array<{
    fiber_a_id: number;
    fiber_b_id: number;
    tray_id: number;
  }>;
  const live = await liveSplices(manager, plan.closure_id as number);
  const liveKeys = new Set(live.map((splice) => pairKey(splice.fiber_a, splice.fiber_b)));
  const planned = new Set(entries.map((entry) => pairKey(entry.fiber_a_id, entry.fiber_b_id)));
  const plannedPorts = new Set(entries.flatMap((entry) => [entry.fiber_a_id, entry.fiber_b_id]));
  const diff: Record<string, TrayDiff> = {};
  const trayOf = (tray: number | null) => (diff[String(tray ?? 0)] ??= { add: [], remove: [], unchanged: [] });
  for (const entry of entries) {
    const pair: Pair = [entry.fiber_a_id, entry.fiber_b_id];
    trayOf(entry.tray_id)[liveKeys.has(pairKey(...pair)) ? 'unchanged' : 'add'].push(pair);
  }
  const removeCables: number[] = [];
  for (const splice of live) {
    if (planned.has(pairKey(splice.fiber_a, splice.fiber_b))) continue;
    if (!plannedPorts.has(splice.fiber_a) && !plannedPorts.has(splice.fiber_b)) continue;
    trayOf(splice.tray_id).remove.push([splice.fiber_a, splice.fiber_b]);
    removeCables.push(splice.cable_id);
  }
  return { diff, removeCables };
}

/** `GET splice-plans/{id}/diff/`; the answer is cached on the plan until a change makes it stale. */
export async function planDiff(manager: EntityManager, plan: ResourceRow): Promise<Record<string, TrayDiff>> {
  if (!plan.diff_stale && plan.cached_diff) return plan.cached_diff as Record<string, TrayDiff>;
  const { diff } = await computeDiff(manager, plan);
  await manager.query('UPDATE fms_spliceplan SET cached_diff = $2, diff_stale = false WHERE id = $1', [plan.id, JSON.stringify(diff)]);
  return diff;
}

/**
 * `POST splice-plans/{id}/apply/` (approve permission): an approved plan's diff becomes cables on
 * the closure through the cable model (validated, change-logged), then the plan is archived. Refused
 * with 409 when the plan is not approved or a splice it changes is held by a live fiber circuit.
 */
export async function applyPlan(context: ResourceActionContext): Promise<{ added: number; removed: number }> {
  const { manager, row } = context;
  const [plan] = (await manager.query('SELECT * FROM fms_spliceplan WHERE id = $1 FOR UPDATE', [row.id])) as ResourceRow[];
  if (plan.status !== 'approved')
    throw new ConflictError(`Plan is '${String(plan.status)}': only an approved plan can be applied.`, 'plan_not_approved');
  const { diff, removeCables } = await computeDiff(manager, plan);
  const adds = Object.values(diff).flatMap((tray) => tray.add);
  const removes = Object.values(diff).flatMap((tray) => tray.remove);
  const protectors = await circuitsHoldingPorts(manager, [...adds, ...removes].flat());
  if (protectors.length > 0)
    throw new ConflictError(`Cannot apply: splices are protected by circuit(s): ${protectors.join(', ')}.`, 'protected_splice');
  if (removeCables.length > 0) await context.remove('dcim.cable', removeCables);
  if (adds.length > 0) {
    await context.create(
      'dcim.cable',
      adds.map(([a, b]) => ({
        status: 'connected',
        a_terminations: [{ object_type: 'dcim.frontport', object_id: a }],
        b_terminations: [{ object_type: 'dcim.frontport', object_id: b }],
      })),
    );
  }
  await context.update('fms.spliceplan', row.id, { status: 'archived' });
  return { added: adds.length, removed: removes.length };
}
