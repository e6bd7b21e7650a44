import {
  boolean,
  choice,
  computedProperties,
  defineResource,
  DeviceResource,
  FrontPortResource,
  json,
  longText,
  ModuleResource,
  relation,
  type ResourceRow,
  ResourceValidationError,
  text,
} from '../../platform/plugin-api';
import { FMS_API_PREFIX } from './cable-types.resources';
import { SPLICE_PLAN_STATUS_CHOICES } from './fms.choices';
import { bulkUpdatePlan, BULK_UPDATE_DOCUMENTATION } from './splice-plan-bulk-update';
import { EndpointForbiddenError, withErrorBody } from './endpoint-errors';
import { importFromDevice, IMPORT_DOCUMENTATION, quickAddPlan, QUICK_ADD_DOCUMENTATION } from './splice-plan-import';
import { applyPlan, planDiff, PLAN_APPLY_DOCUMENTATION, PLAN_DIFF_DOCUMENTATION } from './splice-plan-apply';
import {
  assertMayPerform,
  assertMoveAllowed,
  checkPlanUpdate,
  PLAN_ACTIONS,
  PLAN_MOVES,
  PLAN_VERSION_SQL,
  type PlanAction,
} from './splice-plan-lifecycle';

/** Splice projects, splice plans with their approval lifecycle, and the plans' entries (fibre pairs on a closure's trays). */

export const SpliceProjectResource = defineResource({
  appLabel: 'fms',
  model: 'spliceproject',
  path: 'splice-projects',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'splice project',
  graphqlName: 'splice_project',
  graphql: { deprecatedNames: ['fms_splice_project'] },
  table: 'fms_spliceproject',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
});

export const SplicePlanResource = defineResource({
  appLabel: 'fms',
  model: 'spliceplan',
  path: 'splice-plans',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'splice plan',
  graphqlName: 'splice_plan',
  graphql: {
    deprecatedNames: ['fms_splice_plan'],
    lists: { entries: { objectType: 'fms.spliceplanentry', field: 'plan' } },
  },
  table: 'fms_spliceplan',
  fields: {
    closure: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true, createOnly: true }),
    project: relation(() => SpliceProjectResource, { onDelete: 'SET NULL' }),
    name: text({ maxLength: 100, required: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    status: choice(SPLICE_PLAN_STATUS_CHOICES, { default: 'draft' }),
    submitted_by: relation('users.user', { onDelete: 'SET NULL', readOnly: true }),
    cached_diff: json({ nullable: true, readOnly: true, noFilter: true }),
    diff_stale: boolean({ default: true, readOnly: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'status'],
  ordering: ['closure', 'name'],
  relatedObject: 'closure',
  validate: (values): Record<string, string[]> =>
    values.id === undefined && values.status !== undefined && values.status !== 'draft'
      ? { status: ['A new plan starts as a draft; move it with the transition action.'] }
      : {},
  beforeUpdate: checkPlanUpdate,
  beforeDelete: async (context, plan) => {
    // A plan under review or approved is the approvers' to delete (reference §1.5).
    if (['pending_approval', 'approved'].includes(String(plan.status)) && !(await context.permits('fms.spliceplan', 'approve', plan.id))) {
      throw new EndpointForbiddenError(
        `Plan "${String(plan.name)}" is ${String(plan.status)}: deleting it needs the approve_spliceplan permission.`,
        'permission_denied',
      );
    }
  },
  extensions: [
    computedProperties({ plan_version: { type: 'string' }, entry_count: { type: 'integer' } }, async (manager, rows) => {
      const found = (await manager.query(
        `SELECT id, ${PLAN_VERSION_SQL} AS plan_version,
                (SELECT count(*)::int FROM fms_spliceplanentry e WHERE e.plan_id = fms_spliceplan.id) AS entry_count
           FROM fms_spliceplan WHERE id = ANY($1)`,
        [rows.map((row) => row.id)],
      )) as Array<{ id: number; plan_version: string; entry_count: number }>;
      return new Map(found.map(({ id, ...values }) => [id, values]));
    }),
  ],
  actions: [
    {
      name: 'import-from-device',
      method: 'POST',
      permission: 'change',
      openapi: IMPORT_DOCUMENTATION,
      handle: withErrorBody(importFromDevice),
    },
    {
      name: 'transition',
      method: 'POST',
      // Who may do what depends on the action (change_spliceplan or approve_spliceplan): checked in the handler.
      permission: 'view',
      openapi: {
        summary: 'Move the plan through its lifecycle: submit, approve, reject, withdraw (the submitter), reopen or archive',
        request: {
          type: 'object',
          required: ['action'],
          properties: { action: { type: 'string', enum: PLAN_ACTIONS } },
        },
        response: { type: 'object', description: 'The plan after the move (its full representation)' },
      },
      handle: withErrorBody(async (context) => {
        const action = (context.body as Record<string, unknown> | null)?.action;
        if (typeof action !== 'string' || !(PLAN_ACTIONS as string[]).includes(action)) {
          throw new ResourceValidationError({ action: [`Choose one of: ${PLAN_ACTIONS.join(', ')}.`] });
        }
        assertMoveAllowed(String(context.row.status), action as PlanAction, 'action');
        await assertMayPerform(context, context.row, action as PlanAction);
        return context.update('fms.spliceplan', context.row.id, { status: PLAN_MOVES[action as PlanAction].to });
      }),
    },
    {
      name: 'bulk-update',
      method: 'POST',
      permission: 'change',
      openapi: BULK_UPDATE_DOCUMENTATION,
      handle: withErrorBody(bulkUpdatePlan),
    },
    {
      name: 'diff',
      method: 'GET',
      permission: 'view',
      openapi: PLAN_DIFF_DOCUMENTATION,
      handle: withErrorBody(({ manager, row }) => planDiff(manager, row)),
    },
    {
      name: 'apply',
      method: 'POST',
      permission: 'approve',
      openapi: PLAN_APPLY_DOCUMENTATION,
      handle: withErrorBody(applyPlan),
    },
  ],
  collectionActions: [
    {
      name: 'quick-add',
      method: 'POST',
      permission: 'add',
      status: 201,
      openapi: QUICK_ADD_DOCUMENTATION,
      handle: (context) => quickAddPlan(context, SplicePlanResource),
    },
  ],
});

/** Ports of the plan's closure with their module (tray), for the entry rules. */
async function entryProblems(
  manager: Parameters<NonNullable<typeof SplicePlanResource.validateAsync>>[0],
  values: Record<string, unknown>,
): Promise<Record<string, string[]>> {
  const [plan] = (await manager.query('SELECT status, closure_id FROM fms_spliceplan WHERE id = $1', [values.plan_id])) as Array<{
    status: string;
    closure_id: number;
  }>;
  if (plan.status !== 'draft') return { plan: [`Plan is '${plan.status}' — only draft plans can be edited.`] };
  const ports = (await manager.query('SELECT id, device_id, module_id FROM dcim_frontport WHERE id = ANY($1)', [
    [values.fiber_a_id, values.fiber_b_id],
  ])) as Array<{
    id: number;
    device_id: number;
    module_id: number | null;
  }>;
  const problems: Record<string, string[]> = {};
  for (const field of ['fiber_a', 'fiber_b']) {
    const port = ports.find((candidate) => candidate.id === values[`${field}_id`]);
    if (port && port.device_id !== plan.closure_id)
      problems[field] = [`Front port ${port.id} is not on the plan's closure (device ${plan.closure_id}).`];
  }
  if (values.fiber_a_id === values.fiber_b_id) problems.fiber_b = ['A fiber cannot be spliced to itself.'];
  if (Object.keys(problems).length > 0) return problems;
  const fiberA = ports.find((port) => port.id === values.fiber_a_id);
  if (fiberA?.module_id === null) return { fiber_a: [`Front port ${fiberA.id} is on no module: splice it on a tray module.`] };
  if (fiberA && fiberA.module_id !== values.tray_id) return { tray: [`The tray must be fiber_a's module (module ${fiberA.module_id}).`] };
  const claims = (await manager.query(
    `SELECT e.fiber_a_id, e.fiber_b_id, p.name FROM fms_spliceplanentry e JOIN fms_spliceplan p ON p.id = e.plan_id
      WHERE p.closure_id = $1 AND p.status <> 'archived' AND p.id <> $2
        AND (e.fiber_a_id = ANY($3) OR e.fiber_b_id = ANY($3))`,
    [plan.closure_id, values.plan_id, [values.fiber_a_id, values.fiber_b_id]],
  )) as Array<{ fiber_a_id: number; fiber_b_id: number; name: string }>;
  for (const field of ['fiber_a', 'fiber_b']) {
    const id = values[`${field}_id`];
    const claim = claims.find((candidate) => candidate.fiber_a_id === id || candidate.fiber_b_id === id);
    if (claim) problems[field] = [`Front port ${String(id)} is already claimed by plan "${claim.name}" on this closure.`];
  }
  return problems;
}

async function markPlanStale(
  manager: Parameters<NonNullable<typeof SplicePlanResource.validateAsync>>[0],
  entry: ResourceRow,
): Promise<void> {
  await manager.query('UPDATE fms_spliceplan SET diff_stale = true WHERE id = $1 AND NOT diff_stale', [entry.plan_id]);
}

async function planIsDraft(
  manager: Parameters<NonNullable<typeof SplicePlanResource.validateAsync>>[0],
  entry: ResourceRow,
): Promise<void> {
  const [plan] = (await manager.query('SELECT status FROM fms_spliceplan WHERE id = $1', [entry.plan_id])) as Array<{ status: string }>;
  if (plan && plan.status !== 'draft')
    throw new ResourceValidationError({ plan: [`Plan is '${plan.status}' — only draft plans can be edited.`] });
}

export const SplicePlanEntryResource = defineResource({
  appLabel: 'fms',
  model: 'spliceplanentry',
  path: 'splice-plan-entries',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'splice plan entry',
  graphqlName: 'splice_plan_entry',
  graphql: { deprecatedNames: ['fms_splice_plan_entry'] },
  table: 'fms_spliceplanentry',
  fields: {
    plan: relation(() => SplicePlanResource, { onDelete: 'CASCADE', required: true, createOnly: true }),
    tray: relation(() => ModuleResource, { onDelete: 'CASCADE', required: true }),
    fiber_a: relation(() => FrontPortResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    fiber_b: relation(() => FrontPortResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    notes: longText({ search: true }),
    is_express: boolean({ default: false }),
    change_note: text({ maxLength: 200 }),
  },
  display: (row) => `${String(row.fiber_a_id)} ↔ ${String(row.fiber_b_id)}`,
  brief: ['fiber_a', 'fiber_b', 'tray'],
  ordering: ['plan', 'tray', 'id'],
  uniqueTogether: [
    ['plan', 'fiber_a'],
    ['plan', 'fiber_b'],
  ],
  relatedObject: 'plan',
  validateAsync: entryProblems,
  // The plan's cached diff no longer says what applying it would do.
  afterCreate: (context, entry) => markPlanStale(context.manager, entry),
  afterUpdate: (context, _before, entry) => markPlanStale(context.manager, entry),
  afterDelete: (context, entry) => markPlanStale(context.manager, entry),
  beforeUpdate: async (context, entry) => planIsDraft(context.manager, entry),
  beforeDelete: async (context, entry) => {
    // Entries go with their plan, port or tray whatever the plan's state; deleted on their own, only from a draft.
    if (context.cascadeFrom === undefined) await planIsDraft(context.manager, entry);
  },
});
