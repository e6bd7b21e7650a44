import { ForbiddenError, type ResourceHookContext, type ResourceRow, ResourceValidationError } from '../../platform/plugin-api';

/** The spec's splice plan lifecycle: which action moves a plan from where to where, and the permission it needs. */

/** `plan_version` is the plan's `last_updated` to the microsecond, formatted by the database so it round-trips exactly. */
export const PLAN_VERSION_SQL = `to_char(last_updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export type PlanStatus = 'draft' | 'pending_approval' | 'approved' | 'archived';
export type PlanAction = 'submit' | 'approve' | 'reject' | 'withdraw' | 'reopen' | 'archive';

interface Move {
  from: readonly PlanStatus[];
  to: PlanStatus;
  /** `change` → change_spliceplan, `approve` → approve_spliceplan. */
  permission: 'change' | 'approve';
  /** Only the user who submitted the plan. */
  submitterOnly?: boolean;
}

export const PLAN_MOVES: Readonly<Record<PlanAction, Move>> = {
  submit: { from: ['draft'], to: 'pending_approval', permission: 'change' },
  approve: { from: ['pending_approval'], to: 'approved', permission: 'approve' },
  reject: { from: ['pending_approval'], to: 'draft', permission: 'approve' },
  withdraw: { from: ['pending_approval'], to: 'draft', permission: 'change', submitterOnly: true },
  reopen: { from: ['approved'], to: 'draft', permission: 'approve' },
  archive: { from: ['draft', 'pending_approval', 'approved'], to: 'archived', permission: 'approve' },
};

export const PLAN_ACTIONS = Object.keys(PLAN_MOVES) as PlanAction[];

/** The actions open to a plan in this status. */
export function actionsFrom(status: string): PlanAction[] {
  return PLAN_ACTIONS.filter((action) => PLAN_MOVES[action].from.includes(status as PlanStatus));
}

function allowedList(status: string): string {
  const open = actionsFrom(status);
  return open.length > 0 ? open.join(', ') : 'none (an archived plan is final)';
}

/** 400 unless `action` may move a plan out of `status`. */
export function assertMoveAllowed(status: string, action: PlanAction, field: string): void {
  if (!PLAN_MOVES[action].from.includes(status as PlanStatus)) {
    throw new ResourceValidationError({
      [field]: [`A plan in status '${status}' cannot ${action}; allowed actions: ${allowedList(status)}.`],
    });
  }
}

/** Whether the caller may perform this move on the plan (the `change` permission on it is checked by the caller of this). */
async function mayPerform(
  context: Pick<ResourceHookContext, 'permits' | 'scope'>,
  plan: ResourceRow,
  action: PlanAction,
): Promise<boolean> {
  const move = PLAN_MOVES[action];
  if (move.submitterOnly && plan.submitted_by_id !== context.scope.principal.id) return false;
  return context.permits('fms.spliceplan', move.permission, plan.id);
}

/** 403 unless the caller may perform the action; withdraw needs the caller to be the submitter. */
export async function assertMayPerform(
  context: Pick<ResourceHookContext, 'permits' | 'scope'>,
  plan: ResourceRow,
  action: PlanAction,
): Promise<void> {
  const move = PLAN_MOVES[action];
  if (move.submitterOnly && plan.submitted_by_id !== context.scope.principal.id) {
    throw new ForbiddenError(`Only the user who submitted this plan may ${action} it.`, 'permission_denied');
  }
  if (!(await context.permits('fms.spliceplan', move.permission, plan.id))) {
    throw new ForbiddenError(`You need the ${move.permission}_spliceplan permission to ${action} this plan.`, 'permission_denied');
  }
}

/**
 * The plan's `beforeUpdate`: a change of `status` is one of the lifecycle's moves (PATCH and the
 * transition action alike), checked and answered with the server-set columns it implies. From
 * pending approval back to draft is a reject for an approver, else a withdrawal by the submitter.
 */
export async function checkPlanUpdate(
  context: ResourceHookContext,
  plan: ResourceRow,
  changes: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown> | void> {
  const from = String(plan.status);
  const to = changes.status as string | undefined;
  if (from === 'archived')
    throw new ResourceValidationError({ status: ['This plan is archived; an archived plan is final and cannot be changed.'] });
  if (to === undefined || to === from) return;
  const candidates = actionsFrom(from).filter((action) => PLAN_MOVES[action].to === to);
  if (candidates.length === 0) {
    throw new ResourceValidationError({ status: [`A plan cannot move from '${from}' to '${to}'; allowed actions: ${allowedList(from)}.`] });
  }
  let chosen: PlanAction | undefined;
  for (const action of candidates) {
    if (await mayPerform(context, plan, action)) {
      chosen = action;
      break;
    }
  }
  if (!chosen) await assertMayPerform(context, plan, candidates[0]);
  if (chosen === 'submit') return { submitted_by_id: context.scope.principal.id, diff_stale: true };
}
