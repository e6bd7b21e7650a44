import { DeviceResource, ModuleResource, type PluginRoute, type PluginRouteContext } from '../../platform/plugin-api';
import { FMS_API_PREFIX } from './cable-types.resources';
import { liveSplices } from './closure-splices';
import { withErrorBody, EndpointValidationError } from './endpoint-errors';
import { PLAN_VERSION_SQL } from './splice-plan-lifecycle';
import { MODULE_NAME_SQL } from './trace-hops';

/**
 * `GET closure-strands/{device_id}/?plan_id=`: the strand map behind a splice editor. For each
 * fiber cable on the closure (terminated on one of its ports, or entered by a closure cable entry),
 * its strands by tube, each with what it is spliced to now (`live_spliced_to`), in the plan
 * (`plan_spliced_to`, `plan_entry_id`, `plan_is_express`) and whether a live circuit holds it;
 * then the closure's trays and the plan's version. Every object shown is one the caller may view.
 */

const nullable = (type: string) => ({ type, nullable: true });

const STRAND_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    position: { type: 'integer' },
    color: { type: 'string' },
    tube_color: nullable('string'),
    tube_name: nullable('string'),
    ribbon_name: nullable('string'),
    ribbon_color: nullable('string'),
    front_port_a_id: { ...nullable('integer'), description: "The strand's front port on this closure (a tray's first), else its A port" },
    live_spliced_to: { ...nullable('integer'), description: 'The strand spliced to it on the closure now' },
    plan_entry_id: nullable('integer'),
    plan_spliced_to: { ...nullable('integer'), description: 'The strand the plan splices it to' },
    plan_is_express: { type: 'boolean' },
    protected: { type: 'boolean', description: 'A live fiber circuit (one the caller may view) holds its front port' },
    circuit_name: nullable('string'),
    circuit_url: nullable('string'),
  },
};

const RESPONSE_SCHEMA = {
  type: 'object',
  required: ['cables', 'trays', 'plan_version'],
  properties: {
    cables: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          fiber_cable_id: { type: 'integer' },
          cable_label: { type: 'string' },
          cable_url: { type: 'string' },
          fiber_type: nullable('string'),
          strand_count: { type: 'integer' },
          far_device_name: nullable('string'),
          far_device_url: nullable('string'),
          tubes: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'integer' },
                name: { type: 'string' },
                color: { type: 'string' },
                marker_count: { type: 'integer' },
                marker_color: { type: 'string' },
                marker_type: { type: 'string' },
                strand_count: { type: 'integer' },
                strands: { type: 'array', items: STRAND_SCHEMA },
                tray_assignment: {
                  type: 'object',
                  nullable: true,
                  properties: {
                    tray_id: { type: 'integer' },
                    tray_name: { type: 'string' },
                    tray_url: { type: 'string' },
                    assignment_id: { type: 'integer' },
                  },
                },
              },
            },
          },
          loose_strands: { type: 'array', items: STRAND_SCHEMA },
        },
      },
    },
    trays: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          role: { type: 'string', enum: ['splice_tray', 'express_basket'] },
          capacity: { type: 'integer', description: 'Front ports on the tray module' },
        },
      },
    },
    plan_version: { ...nullable('string'), description: "The plan's version (with plan_id), for bulk-update" },
  },
};

interface StrandRow {
  id: number;
  name: string;
  position: number;
  color: string;
  fiber_cable_id: number;
  front_port_a_id: number | null;
  front_port_b_id: number | null;
  port_a_device: number | null;
  port_b_device: number | null;
  port_a_module: number | null;
  port_b_module: number | null;
  tube_id: number | null;
  tube_name: string | null;
  tube_color: string | null;
  tube_marker_count: number | null;
  tube_marker_color: string | null;
  tube_marker_type: string | null;
  ribbon_name: string | null;
  ribbon_color: string | null;
}

async function closureStrands(context: PluginRouteContext): Promise<unknown> {
  const { manager, params, query, scope, permittedIds } = context;
  const deviceId = Number(params.device_id);
  const rawPlan = query.plan_id;
  const planParameter = rawPlan === undefined ? undefined : String(Array.isArray(rawPlan) ? rawPlan[0] : rawPlan);
  if (planParameter !== undefined && planParameter !== '' && !/^\d{1,9}$/.test(planParameter))
    throw new EndpointValidationError({ plan_id: ['Enter a whole number (a splice plan id).'] });
  const planId = planParameter ? Number(planParameter) : null;
  const empty = { cables: [], trays: [], plan_version: null };
  if (!(await context.permits('dcim.device', 'view', deviceId))) return empty;
  const url = (listPath: string, id: number) => `${scope.baseUrl}${listPath}${id}/`;

  // Fiber cables whose platform cable ends on a port of the closure, or that a closure cable entry brings in.
  const cableRows = (await manager.query(
    `WITH ends AS (
       SELECT t.cable_id, coalesce(fp.device_id, rp.device_id, i.device_id) AS device_id
         FROM dcim_cabletermination t JOIN core_objecttype ot ON ot.id = t.termination_type_id
         LEFT JOIN dcim_frontport fp ON ot.app_label = 'dcim' AND ot.model = 'frontport' AND fp.id = t.termination_id
         LEFT JOIN dcim_rearport rp ON ot.app_label = 'dcim' AND ot.model = 'rearport' AND rp.id = t.termination_id
         LEFT JOIN dcim_interface i ON ot.app_label = 'dcim' AND ot.model = 'interface' AND i.id = t.termination_id)
     SELECT f.id, f.cable_id, coalesce(nullif(c.label, ''), '#' || c.id) AS cable_label, c.type, ct.strand_count,
            (SELECT min(e.device_id) FROM ends e WHERE e.cable_id = f.cable_id AND e.device_id <> $1) AS far_device_id
       FROM fms_fibercable f JOIN dcim_cable c ON c.id = f.cable_id JOIN fms_fibercabletype ct ON ct.id = f.fiber_cable_type_id
      WHERE f.cable_id IN (SELECT cable_id FROM ends WHERE device_id = $1)
         OR f.id IN (SELECT fiber_cable_id FROM fms_closurecableentry WHERE closure_id = $1)
      ORDER BY f.id`,
    [deviceId],
  )) as Array<{
    id: number;
    cable_id: number;
    cable_label: string;
    type: string;
    strand_count: number;
    far_device_id: number | null;
  }>;
  const visibleCables = await permittedIds(
    'fms.fibercable',
    'view',
    cableRows.map((cable) => cable.id),
  );
  const cables = cableRows.filter((cable) => visibleCables.has(cable.id));

  const strandRows = (await manager.query(
    `SELECT s.id, s.name, s.position, s.color, s.fiber_cable_id, s.front_port_a_id, s.front_port_b_id,
            pa.device_id AS port_a_device, pb.device_id AS port_b_device, pa.module_id AS port_a_module, pb.module_id AS port_b_module,
            t.id AS tube_id, t.name AS tube_name, t.color AS tube_color, t.marker_count AS tube_marker_count,
            t.marker_color AS tube_marker_color, t.marker_type AS tube_marker_type, r.name AS ribbon_name, r.color AS ribbon_color
       FROM fms_fiberstrand s
       LEFT JOIN dcim_frontport pa ON pa.id = s.front_port_a_id LEFT JOIN dcim_frontport pb ON pb.id = s.front_port_b_id
       LEFT JOIN fms_buffertube t ON t.id = s.buffer_tube_id LEFT JOIN fms_ribbon r ON r.id = s.ribbon_id
      WHERE s.fiber_cable_id = ANY($1) ORDER BY s.fiber_cable_id, s.position`,
    [cables.map((cable) => cable.id)],
  )) as StrandRow[];
  const visibleStrands = await permittedIds(
    'fms.fiberstrand',
    'view',
    strandRows.map((strand) => strand.id),
  );
  const strands = strandRows.filter((strand) => visibleStrands.has(strand.id));

  // The strand's port on this closure, a tray's first; else its A port, else its B port.
  const localPort = (strand: StrandRow): number | null => {
    const sides = [
      { id: strand.front_port_a_id, device: strand.port_a_device, module: strand.port_a_module },
      { id: strand.front_port_b_id, device: strand.port_b_device, module: strand.port_b_module },
    ];
    return (
      sides.find((side) => side.id !== null && side.device === deviceId && side.module !== null)?.id ??
      sides.find((side) => side.id !== null && side.device === deviceId)?.id ??
      strand.front_port_a_id ??
      strand.front_port_b_id
    );
  };
  const strandOfPort = new Map<number, number>();
  for (const strand of strands) {
    if (strand.front_port_a_id !== null) strandOfPort.set(strand.front_port_a_id, strand.id);
    if (strand.front_port_b_id !== null) strandOfPort.set(strand.front_port_b_id, strand.id);
  }

  const liveTo = new Map<number, number>();
  for (const splice of await liveSplices(manager, deviceId)) {
    liveTo.set(splice.fiber_a, splice.fiber_b);
    liveTo.set(splice.fiber_b, splice.fiber_a);
  }

  const planTo = new Map<number, { entry: number; other: number; express: boolean }>();
  let planVersion: string | null = null;
  if (planId !== null && (await context.permits('fms.spliceplan', 'view', planId))) {
    const [plan] = (await manager.query(`SELECT ${PLAN_VERSION_SQL} AS version FROM fms_spliceplan WHERE id = $1`, [planId])) as Array<{
      version: string;
    }>;
    planVersion = plan?.version ?? null;
    const entries = (await manager.query(
      `SELECT e.id, e.fiber_a_id, e.fiber_b_id, e.is_express FROM fms_spliceplanentry e
         JOIN dcim_frontport a ON a.id = e.fiber_a_id JOIN dcim_frontport b ON b.id = e.fiber_b_id
        WHERE e.plan_id = $1 AND a.device_id = $2 AND b.device_id = $2`,
      [planId, deviceId],
    )) as Array<{ id: number; fiber_a_id: number; fiber_b_id: number; is_express: boolean }>;
    const visibleEntries = await permittedIds(
      'fms.spliceplanentry',
      'view',
      entries.map((entry) => entry.id),
    );
    for (const entry of entries.filter((candidate) => visibleEntries.has(candidate.id))) {
      planTo.set(entry.fiber_a_id, { entry: entry.id, other: entry.fiber_b_id, express: entry.is_express });
      planTo.set(entry.fiber_b_id, { entry: entry.id, other: entry.fiber_a_id, express: entry.is_express });
    }
  }

  const holders = (await manager.query(
    `SELECT DISTINCT ON (n.front_port_id) n.front_port_id, c.id, c.name FROM fms_fibercircuitnode n
       JOIN fms_fibercircuitpath p ON p.id = n.path_id JOIN fms_fibercircuit c ON c.id = p.circuit_id
      WHERE n.front_port_id = ANY($1) AND c.status <> 'decommissioned' ORDER BY n.front_port_id, c.name`,
    [[...strandOfPort.keys()]],
  )) as Array<{ front_port_id: number; id: number; name: string }>;
  const visibleCircuits = await permittedIds(
    'fms.fibercircuit',
    'view',
    holders.map((holder) => holder.id),
  );
  const heldBy = new Map(holders.filter((holder) => visibleCircuits.has(holder.id)).map((holder) => [holder.front_port_id, holder]));

  const assignmentRows = (await manager.query(
    `SELECT a.id, a.buffer_tube_id, a.tray_id, ${MODULE_NAME_SQL('a.tray_id')} AS tray_name FROM fms_tubeassignment a WHERE a.closure_id = $1`,
    [deviceId],
  )) as Array<{ id: number; buffer_tube_id: number; tray_id: number; tray_name: string }>;
  const visibleAssignments = await permittedIds(
    'fms.tubeassignment',
    'view',
    assignmentRows.map((assignment) => assignment.id),
  );
  const assignmentOfTube = new Map(
    assignmentRows
      .filter((assignment) => visibleAssignments.has(assignment.id))
      .map((assignment) => [
        assignment.buffer_tube_id,
        {
          tray_id: assignment.tray_id,
          tray_name: assignment.tray_name,
          tray_url: url(ModuleResource.listPath, assignment.tray_id),
          assignment_id: assignment.id,
        },
      ]),
  );

  const farIds = [...new Set(cables.map((cable) => cable.far_device_id).filter((id): id is number => id !== null))];
  const visibleFar = await permittedIds('dcim.device', 'view', farIds);
  const farNames = new Map(
    (
      (await manager.query('SELECT id, name FROM dcim_device WHERE id = ANY($1)', [[...visibleFar]])) as Array<{
        id: number;
        name: string | null;
      }>
    ).map((device) => [device.id, device.name]),
  );

  const represent = (strand: StrandRow) => {
    const port = localPort(strand);
    const live = port === null ? undefined : liveTo.get(port);
    const planned = port === null ? undefined : planTo.get(port);
    const holder = port === null ? undefined : heldBy.get(port);
    return {
      id: strand.id,
      name: strand.name,
      position: strand.position,
      color: strand.color,
      tube_color: strand.tube_color,
      tube_name: strand.tube_name,
      ribbon_name: strand.ribbon_name,
      ribbon_color: strand.ribbon_color,
      front_port_a_id: port,
      live_spliced_to: live === undefined ? null : (strandOfPort.get(live) ?? null),
      plan_entry_id: planned?.entry ?? null,
      plan_spliced_to: planned === undefined ? null : (strandOfPort.get(planned.other) ?? null),
      plan_is_express: planned?.express ?? false,
      protected: holder !== undefined,
      circuit_name: holder?.name ?? null,
      circuit_url: holder ? url(`${FMS_API_PREFIX}fiber-circuits/`, holder.id) : null,
    };
  };

  const cableGroups = cables.map((cable) => {
    const tubes = new Map<number, Record<string, unknown> & { strands: unknown[]; strand_count: number }>();
    const loose: unknown[] = [];
    for (const strand of strands.filter((candidate) => candidate.fiber_cable_id === cable.id)) {
      if (strand.tube_id === null) {
        loose.push(represent(strand));
        continue;
      }
      let tube = tubes.get(strand.tube_id);
      if (!tube) {
        tube = {
          id: strand.tube_id,
          name: strand.tube_name,
          color: strand.tube_color,
          marker_count: strand.tube_marker_count,
          marker_color: strand.tube_marker_color,
          marker_type: strand.tube_marker_type,
          strand_count: 0,
          strands: [],
          tray_assignment: assignmentOfTube.get(strand.tube_id) ?? null,
        };
        tubes.set(strand.tube_id, tube);
      }
      tube.strand_count += 1;
      tube.strands.push(represent(strand));
    }
    const far = cable.far_device_id !== null && visibleFar.has(cable.far_device_id) ? cable.far_device_id : null;
    return {
      fiber_cable_id: cable.id,
      cable_label: cable.cable_label,
      cable_url: url(`${FMS_API_PREFIX}fiber-cables/`, cable.id),
      fiber_type: cable.type || null,
      strand_count: cable.strand_count,
      far_device_name: far === null ? null : (farNames.get(far) ?? null),
      far_device_url: far === null ? null : url(DeviceResource.listPath, far),
      tubes: [...tubes.values()],
      loose_strands: loose,
    };
  });

  const trayRows = (await manager.query(
    `SELECT m.id, ${MODULE_NAME_SQL('m.id')} AS name, tp.tray_role AS role,
            (SELECT count(*)::int FROM dcim_frontport fp WHERE fp.module_id = m.id) AS capacity
       FROM dcim_module m JOIN fms_trayprofile tp ON tp.module_type_id = m.module_type_id
      WHERE m.device_id = $1 ORDER BY m.id`,
    [deviceId],
  )) as Array<{ id: number; name: string; role: string; capacity: number }>;
  const visibleTrays = await permittedIds(
    'dcim.module',
    'view',
    trayRows.map((tray) => tray.id),
  );

  return { cables: cableGroups, trays: trayRows.filter((tray) => visibleTrays.has(tray.id)), plan_version: planVersion };
}

export const CLOSURE_STRANDS_ROUTE: PluginRoute = {
  method: 'GET',
  path: 'closure-strands/{device_id}',
  permission: 'authenticated',
  openapi: {
    summary:
      "The closure's strand map for a splice editor: its fiber cables' strands by tube with live, planned and protected state, and its trays",
    pathParameters: { device_id: { description: 'The closure (a device) id', schema: { type: 'integer', minimum: 1 } } },
    parameters: [
      { name: 'plan_id', description: "Show this splice plan's entries (plan_spliced_to) and version", schema: { type: 'integer' } },
    ],
    response: RESPONSE_SCHEMA,
  },
  handle: withErrorBody(closureStrands),
};
