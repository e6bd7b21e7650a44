import {
  type ActionDocumentation,
  ConflictError,
  ForbiddenError,
  type ResourceActionContext,
  ResourceValidationError,
} from '../../platform/plugin-api';
import { circuitsHoldingPorts, type FiberPair, pairKey } from './closure-splices';
import { PLAN_VERSION_SQL } from './splice-plan-lifecycle';

interface BulkItem extends FiberPair {
  is_express: boolean;
}

const pairSchema = {
  type: 'object',
  required: ['fiber_a', 'fiber_b'],
  properties: {
    fiber_a: { type: 'integer', description: 'Front port id' },
    fiber_b: { type: 'integer', description: 'Front port id' },
    is_express: { type: 'boolean' },
  },
};

export const BULK_UPDATE_DOCUMENTATION: ActionDocumentation = {
  summary:
    'Add and remove splice pairs of a draft plan atomically. Needs a non-empty X-Changelog-Message header (stored as change_note on each created entry); plan_version from the previous answer makes it optimistic (stale → 409)',
  request: {
    type: 'object',
    properties: {
      add: { type: 'array', items: pairSchema },
      remove: { type: 'array', items: pairSchema },
      plan_version: { type: 'string', description: 'The plan_version this change was made against (ISO 8601 timestamp)' },
    },
  },
  response: {
    type: 'object',
    required: ['entries', 'plan_version'],
    properties: {
      entries: {
        type: 'array',
        description: "The plan's entries after the change",
        items: {
          type: 'object',
          required: ['id', 'fiber_a', 'fiber_b', 'tray', 'is_express'],
          properties: {
            id: { type: 'integer' },
            fiber_a: { type: 'integer' },
            fiber_b: { type: 'integer' },
            tray: { type: 'integer' },
            is_express: { type: 'boolean' },
          },
        },
      },
      plan_version: { type: 'string' },
    },
  },
};

/** `add`/`remove` as pairs, or the 400 naming the key and the item. */
function readPairs(body: Record<string, unknown>, key: 'add' | 'remove'): BulkItem[] {
  const raw = body[key];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ResourceValidationError({ [key]: ['Expected a list of {fiber_a, fiber_b} objects.'] });
  return raw.map((item: unknown, index) => {
    const pair = item as Record<string, unknown> | null;
    const missing = ['fiber_a', 'fiber_b'].filter(
      (field) => !pair || typeof pair !== 'object' || !Number.isSafeInteger(pair[field]) || (pair[field] as number) < 1,
    );
    if (missing.length > 0)
      throw new ResourceValidationError({
        [key]: [`Item ${index}: ${missing.join(' and ')} must be a front port id (a positive integer).`],
      });
    if (pair!.is_express !== undefined && typeof pair!.is_express !== 'boolean')
      throw new ResourceValidationError({ [key]: [`Item ${index}: is_express must be true or false.`] });
    return { fiber_a: pair!.fiber_a as number, fiber_b: pair!.fiber_b as number, is_express: pair!.is_express === true };
  });
}

/**
 * `POST splice-plans/{id}/bulk-update/`: the checks of reference §1.6 in its order (draft, version,
 * changelog message, shape, circuit protection, ports exist, exclusivity, trays), then removes and
 * re-splices through the entry model (validated and change-logged), all in one transaction; the plan
 * row is locked first, so of two requests made against one plan_version exactly one succeeds.
 */
export async function bulkUpdatePlan(context: ResourceActionContext): Promise<unknown> {
  const { manager, row } = context;
  const body = (context.body && typeof context.body === 'object' && !Array.isArray(context.body) ? context.body : {}) as Record<
    string,
    unknown
  >;
  const [plan] = (await manager.query(
    `SELECT status, closure_id, ${PLAN_VERSION_SQL} AS plan_version FROM fms_spliceplan WHERE id = $1 FOR UPDATE`,
    [row.id],
  )) as Array<{
    status: string;
    closure_id: number;
    plan_version: string;
  }>;
  if (plan.status !== 'draft') throw new ForbiddenError(`Plan is '${plan.status}' — only draft plans can be edited.`, 'plan_not_draft');
  if (body.plan_version !== undefined && body.plan_version !== null) {
    if (typeof body.plan_version !== 'string')
      throw new ResourceValidationError({ plan_version: ['Expected the plan_version string of a previous answer.'] });
    if (body.plan_version !== plan.plan_version) {
      throw new ConflictError(
        `The plan changed since version ${body.plan_version} (now ${plan.plan_version}); reload it and apply your change again.`,
        'stale_plan_version',
      );
    }
  }
  const message = context.scope.changelogMessage?.trim() ?? '';
  if (message === '')
    throw new ResourceValidationError({
      'X-Changelog-Message': ['This header is required and must not be blank: it is stored as change_note on each created entry.'],
    });
  const add = readPairs(body, 'add');
  const remove = readPairs(body, 'remove');

  const touched = [...new Set([...add, ...remove].flatMap((pair) => [pair.fiber_a, pair.fiber_b]))];
  const protectors = await circuitsHoldingPorts(manager, touched);
  if (protectors.length > 0)
    throw new ConflictError(`Cannot modify protected splices (circuit(s): ${protectors.join(', ')}).`, 'protected_splice');

  const ports = (await manager.query('SELECT id, device_id, module_id FROM dcim_frontport WHERE id = ANY($1)', [touched])) as Array<{
    id: number;
    device_id: number;
    module_id: number | null;
  }>;
  const portById = new Map(ports.map((port) => [port.id, port]));
  for (const [key, pairs] of [
    ['add', add],
    ['remove', remove],
  ] as const) {
    const missing = [...new Set(pairs.flatMap((pair) => [pair.fiber_a, pair.fiber_b]).filter((id) => !portById.has(id)))];
    if (missing.length > 0) throw new ResourceValidationError({ [key]: [`Front port(s) ${missing.join(', ')} do not exist.`] });
    const elsewhere = [
      ...new Set(pairs.flatMap((pair) => [pair.fiber_a, pair.fiber_b]).filter((id) => portById.get(id)!.device_id !== plan.closure_id)),
    ];
    if (elsewhere.length > 0)
      throw new ResourceValidationError({
        [key]: [`Front port(s) ${elsewhere.join(', ')} are not on the plan's closure (device ${plan.closure_id}).`],
      });
  }

  const added = add.flatMap((pair) => [pair.fiber_a, pair.fiber_b]);
  const twice = added.find((id, index) => added.indexOf(id) !== index);
  if (twice !== undefined) throw new ConflictError(`Front port ${twice} appears in more than one added pair.`, 'fiber_claimed');
  const claims = (await manager.query(
    `SELECT DISTINCT p.name, f.id FROM fms_spliceplanentry e JOIN fms_spliceplan p ON p.id = e.plan_id
       JOIN unnest($3::int[]) AS f(id) ON f.id IN (e.fiber_a_id, e.fiber_b_id)
      WHERE p.closure_id = $1 AND p.status <> 'archived' AND p.id <> $2 ORDER BY f.id`,
    [plan.closure_id, row.id, added],
  )) as Array<{ name: string; id: number }>;
  if (claims.length > 0) {
    throw new ConflictError(
      `Fiber(s) already claimed by another plan on this closure: ${claims.map((claim) => `${claim.id} (plan "${claim.name}")`).join(', ')}.`,
      'fiber_claimed',
    );
  }
  const trayless = add.find((pair) => portById.get(pair.fiber_a)!.module_id === null);
  if (trayless)
    throw new ResourceValidationError({ add: [`Front port ${trayless.fiber_a} (fiber_a) is on no module: splice it on a tray module.`] });

  const entries = (await manager.query('SELECT id, fiber_a_id, fiber_b_id FROM fms_spliceplanentry WHERE plan_id = $1', [
    row.id,
  ])) as Array<{
    id: number;
    fiber_a_id: number;
    fiber_b_id: number;
  }>;
  const removing = new Set(remove.map((pair) => pairKey(pair.fiber_a, pair.fiber_b)));
  const addedPorts = new Set(added);
  const doomed = entries
    .filter(
      (entry) =>
        removing.has(pairKey(entry.fiber_a_id, entry.fiber_b_id)) || addedPorts.has(entry.fiber_a_id) || addedPorts.has(entry.fiber_b_id),
    )
    .map((entry) => entry.id);
  if (doomed.length > 0) await context.remove('fms.spliceplanentry', doomed);
  if (add.length > 0) {
    await context.create(
      'fms.spliceplanentry',
      add.map((pair) => ({
        plan: row.id,
        tray: portById.get(pair.fiber_a)!.module_id,
        fiber_a: pair.fiber_a,
        fiber_b: pair.fiber_b,
        is_express: pair.is_express,
        change_note: message,
      })),
    );
  }
  // clock_timestamp, not now(): two changes in one transaction's lifetime still get distinct versions.
  await manager.query('UPDATE fms_spliceplan SET diff_stale = true, last_updated = clock_timestamp() WHERE id = $1', [row.id]);
  const [version] = (await manager.query(`SELECT ${PLAN_VERSION_SQL} AS plan_version FROM fms_spliceplan WHERE id = $1`, [
    row.id,
  ])) as Array<{ plan_version: string }>;
  const after = (await manager.query(
    'SELECT id, fiber_a_id, fiber_b_id, tray_id, is_express FROM fms_spliceplanentry WHERE plan_id = $1 ORDER BY id',
    [row.id],
  )) as Array<{
    id: number;
    fiber_a_id: number;
    fiber_b_id: number;
    tray_id: number;
    is_express: boolean;
  }>;
  return {
    entries: after.map((entry) => ({
      id: entry.id,
      fiber_a: entry.fiber_a_id,
      fiber_b: entry.fiber_b_id,
      tray: entry.tray_id,
      is_express: entry.is_express,
    })),
    plan_version: version.plan_version,
  };
}
