import { type PluginRoute, ResourceValidationError } from '../../platform/plugin-api';
import { withErrorBody } from './endpoint-errors';

/**
 * `GET closures/{device_id}/fiber-claims/`: the fibres that non-archived splice plans of a closure
 * claim, as a bare array, so a planning tool can grey out taken fibres. Only plans the caller may
 * view count; `exclude_plan` leaves out the plan being edited.
 */
export const FIBER_CLAIMS_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'closures/{device_id}/fiber-claims',
  permission: 'authenticated',
  openapi: {
    summary: "Fibres claimed by the closure's non-archived splice plans the caller may view (a bare array)",
    pathParameters: { device_id: { description: 'The closure (a device) id', schema: { type: 'integer', minimum: 1 } } },
    parameters: [{ name: 'exclude_plan', description: 'Leave out the entries of this plan (id)', schema: { type: 'integer' } }],
    response: {
      type: 'array',
      items: {
        type: 'object',
        required: ['fiber_a', 'fiber_b', 'plan_id', 'plan_name', 'project_name', 'status'],
        properties: {
          fiber_a: { type: 'integer' },
          fiber_b: { type: 'integer' },
          plan_id: { type: 'integer' },
          plan_name: { type: 'string' },
          project_name: { type: 'string', nullable: true },
          status: { type: 'string', enum: ['draft', 'pending_approval', 'approved'] },
        },
      },
    },
  },
  handle: withErrorBody(async ({ manager, params, query, visibleRows }) => {
    const raw = query.exclude_plan;
    const excluded = raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).map(String);
    if (excluded.some((value) => !/^\d+$/.test(value)))
      throw new ResourceValidationError({ exclude_plan: ['Enter a whole number (a plan id).'] });
    const plans = await visibleRows('fms.spliceplan', { closure_id: [params.device_id], status__n: ['archived'] });
    const planIds = plans.map((plan) => plan.id).filter((id) => !excluded.includes(String(id)));
    if (planIds.length === 0) return [];
    return manager.query<Array<Record<string, unknown>>>(
      `SELECT e.fiber_a_id AS fiber_a, e.fiber_b_id AS fiber_b, p.id AS plan_id, p.name AS plan_name, pr.name AS project_name, p.status
         FROM fms_spliceplanentry e JOIN fms_spliceplan p ON p.id = e.plan_id LEFT JOIN fms_spliceproject pr ON pr.id = p.project_id
        WHERE p.id = ANY($1) ORDER BY p.id, e.id`,
      [planIds],
    );
  }),
};
