import { EntityManager } from 'typeorm';
import { readObjectId } from '../framework/resource/field-input';
import { ExtraFilter, ResourceExtension, ResourceRow } from '../framework/resource/resource-definition';
import type { GraphqlUnionList, ObjectSerializer } from '../framework/resource/resource-declaration';
import { columnIsSetFilter, idFilterProblem } from '../framework/resource/extra-filters';

/** What a cable may end on, and the table holding each kind (each has `cable_id` and `cable_end`). */
export const CABLE_TERMINATION_TABLES: Readonly<Record<string, string>> = {
  'dcim.frontport': 'dcim_frontport',
  'dcim.rearport': 'dcim_rearport',
  'dcim.interface': 'dcim_interface',
  'dcim.consoleport': 'dcim_consoleport',
  'dcim.consoleserverport': 'dcim_consoleserverport',
  'dcim.powerport': 'dcim_powerport',
  'dcim.poweroutlet': 'dcim_poweroutlet',
  'dcim.powerfeed': 'dcim_powerfeed',
  'circuits.circuittermination': 'circuits_circuittermination',
};

/** What each end's objects may face across a cable (NetBox's COMPATIBLE_TERMINATION_TYPES). */
const PASS_THROUGH_PEERS = ['dcim.frontport', 'dcim.rearport'];
const COMPATIBLE_TERMINATION_TYPES: Readonly<Record<string, readonly string[]>> = {
  'dcim.consoleport': ['dcim.consoleserverport', ...PASS_THROUGH_PEERS],
  'dcim.consoleserverport': ['dcim.consoleport', ...PASS_THROUGH_PEERS],
  'dcim.powerport': ['dcim.poweroutlet', 'dcim.powerfeed'],
  'dcim.poweroutlet': ['dcim.powerport'],
  'dcim.powerfeed': ['dcim.powerport'],
  'dcim.interface': ['dcim.interface', 'circuits.circuittermination', ...PASS_THROUGH_PEERS],
  'dcim.frontport': ['dcim.consoleport', 'dcim.consoleserverport', 'dcim.interface', 'circuits.circuittermination', ...PASS_THROUGH_PEERS],
  'dcim.rearport': ['dcim.consoleport', 'dcim.consoleserverport', 'dcim.interface', 'circuits.circuittermination', ...PASS_THROUGH_PEERS],
  'circuits.circuittermination': ['dcim.interface', 'circuits.circuittermination', ...PASS_THROUGH_PEERS],
};

/** The column naming what one end's objects must share: their device, circuit or power panel. */
const PARENT_COLUMNS: Readonly<Record<string, string>> = {
  'circuits.circuittermination': 'circuit_id',
  'dcim.powerfeed': 'power_panel_id',
};
export const CABLE_TERMINATION_TYPES = Object.keys(CABLE_TERMINATION_TABLES);
export const CABLE_TERMINATION_TABLE = 'dcim_cabletermination';

const ENDS = [
  ['A', 'a_terminations'],
  ['B', 'b_terminations'],
] as const;

interface Termination {
  object_type: string;
  object_id: number;
  positions: number[] | null;
  /** Which connector of a multi-connector termination (NetBox 4.5 cable profiles); null when unused. */
  connector: number | null;
}

interface StoredTermination extends Termination {
  cable_id: number;
  cable_end: 'A' | 'B';
}

/**
 * A cable's `a_terminations` and `b_terminations` (NetBox's generic cable ends): read as
 * `[{object_type, object_id, object, positions, connector}]`, written as
 * `[{object_type, object_id, positions?, connector?}]`.
 * Writing an end replaces it; the terminated objects get `cable` and `cable_end` set (and cleared
 * when they leave). Every object of one end has the same type and parent (device or circuit), is
 * free or already on this cable, and positions exist on the port.
 */
export function cableTerminationsExtension(): ResourceExtension {
  return {
    keys: ENDS.map(([, key]) => key),

    async represent(manager: EntityManager, rows: readonly ResourceRow[], baseUrl: string, serializer: ObjectSerializer) {
      const stored = await storedTerminations(
        manager,
        rows.map((row) => row.id),
      );
      const objects = new Map<string, Map<number, Record<string, unknown>>>();
      for (const type of new Set(stored.map((termination) => termination.object_type))) {
        const ids = stored.filter((termination) => termination.object_type === type).map((termination) => termination.object_id);
        objects.set(type, await serializer.briefByIds(manager, type, ids, baseUrl));
      }
      return byCable(rows, stored, (termination) => ({
        object_type: termination.object_type,
        object_id: termination.object_id,
        object: objects.get(termination.object_type)?.get(termination.object_id) ?? null,
        positions: termination.positions,
        connector: termination.connector,
      }));
    },

    async snapshot(manager: EntityManager, rows: readonly ResourceRow[]) {
      const stored = await storedTerminations(
        manager,
        rows.map((row) => row.id),
      );
      return byCable(rows, stored, (termination) => ({ object_type: termination.object_type, object_id: termination.object_id }));
    },

    async validate(manager: EntityManager, body: Record<string, unknown>, existing: ResourceRow | null) {
      const problems: Record<string, string[]> = {};
      for (const [, key] of ENDS) {
        if (!Object.hasOwn(body, key)) {
          if (existing === null) problems[key] = ['This field is required.'];
          continue;
        }
        const messages = await endProblems(manager, body[key], existing?.id ?? null);
        if (messages.length > 0) problems[key] = messages;
      }
      if (Object.keys(problems).length === 0) {
        const mismatch = await incompatibleEnds(manager, body, existing?.id ?? null);
        if (mismatch) problems.b_terminations = [mismatch];
      }
      return problems;
    },

    async apply(manager: EntityManager, row: ResourceRow, body: Record<string, unknown>) {
      for (const [end, key] of ENDS) {
        if (!Object.hasOwn(body, key)) continue;
        const previous = (await storedTerminations(manager, [row.id])).filter((termination) => termination.cable_end === end);
        for (const termination of previous) {
          await manager.query(
            `UPDATE ${CABLE_TERMINATION_TABLES[termination.object_type]} SET cable_id = NULL, cable_end = NULL WHERE id = $1`,
            [termination.object_id],
          );
        }
        await manager.query(`DELETE FROM ${CABLE_TERMINATION_TABLE} WHERE cable_id = $1 AND cable_end = $2`, [row.id, end]);
        for (const termination of readEnd(body[key]) ?? []) {
          await manager.query(
            `INSERT INTO ${CABLE_TERMINATION_TABLE} (cable_id, cable_end, termination_type_id, termination_id, positions, connector)
             SELECT $1, $2, ot.id, $4, $5, $6
               FROM core_objecttype ot WHERE ot.app_label || '.' || ot.model = $3`,
            [
              row.id,
              end,
              termination.object_type,
              termination.object_id,
              termination.positions === null ? null : JSON.stringify(termination.positions),
              termination.connector,
            ],
          );
          await manager.query(
            `UPDATE ${CABLE_TERMINATION_TABLES[termination.object_type]} SET cable_id = $1, cable_end = $2 WHERE id = $3`,
            [row.id, end, termination.object_id],
          );
        }
      }
    },
  };
}

/**
 * A cable's `a_terminations` and `b_terminations` in GraphQL, as NetBox serves them: lists of the
 * terminated objects themselves, typed as the union of everything a cable may end on. Both ends of
 * every cable of a query level are read with one statement.
 */
export function cableEndsInGraphql(): Record<string, GraphqlUnionList> {
  const read = async (manager: EntityManager, cableIds: readonly number[]) => {
    const stored = await storedTerminations(manager, cableIds);
    return new Map(
      cableIds.map((id) => [
        id,
        Object.fromEntries(
          ENDS.map(([end, key]) => [
            key,
            stored
              .filter((termination) => termination.cable_id === id && termination.cable_end === end)
              .map((termination) => ({ objectType: termination.object_type, id: termination.object_id })),
          ]),
        ),
      ]),
    );
  };
  const end = { union: 'CableTerminationTerminationType', objectTypes: CABLE_TERMINATION_TYPES, read };
  return { a_terminations: end, b_terminations: end };
}

/** The cable ends of these cables, oldest first. */
export async function storedTerminations(manager: EntityManager, cableIds: readonly number[]): Promise<StoredTermination[]> {
  if (cableIds.length === 0) return [];
  return (await manager.query(
    `SELECT ct.cable_id, ct.cable_end, ot.app_label || '.' || ot.model AS object_type, ct.termination_id AS object_id, ct.positions, ct.connector
       FROM ${CABLE_TERMINATION_TABLE} ct JOIN core_objecttype ot ON ot.id = ct.termination_type_id
      WHERE ct.cable_id = ANY($1) ORDER BY ct.id`,
    [[...cableIds]],
  )) as StoredTermination[];
}

function byCable(
  rows: readonly ResourceRow[],
  stored: readonly StoredTermination[],
  shape: (termination: StoredTermination) => Record<string, unknown>,
): Map<number, Record<string, unknown>> {
  return new Map(
    rows.map((row) => [
      row.id,
      Object.fromEntries(ENDS.map(([end, key]) => [key, stored.filter((t) => t.cable_id === row.id && t.cable_end === end).map(shape)])),
    ]),
  );
}

/** The written list, or undefined when it is not a list of `{object_type, object_id, positions?, connector?}`. */
function readEnd(raw: unknown): Termination[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const terminations: Termination[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { object_type: objectType, object_id: objectId, positions, connector } = item as Record<string, unknown>;
    const id = readObjectId(objectId);
    if (typeof objectType !== 'string' || id === undefined) return undefined;
    if (
      positions !== undefined &&
      positions !== null &&
      !(Array.isArray(positions) && positions.every((p) => Number.isInteger(p) && p > 0))
    ) {
      return undefined;
    }
    if (
      connector !== undefined &&
      connector !== null &&
      !(Number.isInteger(connector) && (connector as number) >= 1 && (connector as number) <= 256)
    ) {
      return undefined;
    }
    terminations.push({
      object_type: objectType.toLowerCase(),
      object_id: id,
      positions: (positions as number[] | undefined) ?? null,
      connector: (connector as number | undefined) ?? null,
    });
  }
  return terminations;
}

async function endProblems(manager: EntityManager, raw: unknown, cableId: number | null): Promise<string[]> {
  const terminations = readEnd(raw);
  if (!terminations) {
    return [
      'Expected a list of {"object_type": "app.model", "object_id": n, "positions": [n, …], "connector": n} objects (connector 1–256).',
    ];
  }
  if (terminations.length === 0) return ['A cable end needs at least one termination.'];
  const types = new Set(terminations.map((termination) => termination.object_type));
  const [type] = types;
  if (types.size > 1) return ['All terminations of one cable end must be of the same type.'];
  const table = CABLE_TERMINATION_TABLES[type];
  if (!table) return [`Cables cannot terminate on ${type}; allowed: ${CABLE_TERMINATION_TYPES.join(', ')}.`];
  const parent = PARENT_COLUMNS[type] ?? 'device_id';
  const positionsColumn = type === 'dcim.frontport' || type === 'dcim.rearport' ? 'positions' : '1';
  const objects = (await manager.query(
    `SELECT id, cable_id, ${parent} AS parent_id, ${positionsColumn} AS positions FROM ${table} WHERE id = ANY($1)`,
    [terminations.map((termination) => termination.object_id)],
  )) as Array<{ id: number; cable_id: number | null; parent_id: number; positions: number }>;
  const problems: string[] = [];
  for (const termination of terminations) {
    const object = objects.find((candidate) => candidate.id === termination.object_id);
    if (!object) {
      problems.push(`No ${type} with ID ${termination.object_id} exists.`);
      continue;
    }
    if (object.cable_id !== null && object.cable_id !== cableId) {
      problems.push(`${type} ${termination.object_id} is already connected to cable ${object.cable_id}.`);
    }
    const outOfRange = (termination.positions ?? []).find((position) => position > Number(object.positions));
    if (outOfRange !== undefined) problems.push(`${type} ${termination.object_id} has no position ${outOfRange}.`);
  }
  if (problems.length === 0 && new Set(objects.map((object) => object.parent_id)).size > 1) {
    problems.push(`All terminations of one cable end must belong to the same ${parent.replace(/_id$/, '').replace('_', ' ')}.`);
  }
  return problems;
}

/** Why the two ends (as written, or as stored where the body leaves one out) cannot face each other; undefined when they can. */
async function incompatibleEnds(
  manager: EntityManager,
  body: Record<string, unknown>,
  cableId: number | null,
): Promise<string | undefined> {
  const stored = cableId === null ? [] : await storedTerminations(manager, [cableId]);
  const typeOf = (end: 'A' | 'B', key: string): string | undefined =>
    Object.hasOwn(body, key)
      ? readEnd(body[key])?.[0]?.object_type
      : stored.find((termination) => termination.cable_end === end)?.object_type;
  const a = typeOf('A', 'a_terminations');
  const b = typeOf('B', 'b_terminations');
  if (!a || !b || (COMPATIBLE_TERMINATION_TYPES[a] ?? []).includes(b)) return undefined;
  return `Incompatible termination types: ${a} and ${b}`;
}

/** Terminations whose object lies on one of the devices the `devices` SQL selects. */
function terminatedOnDevices(alias: string, devices: string): string {
  const kinds = Object.entries(CABLE_TERMINATION_TABLES).filter(([type]) => type.startsWith('dcim.') && !PARENT_COLUMNS[type]);
  const matches = kinds
    .map(
      ([type, table]) =>
        `(ot.app_label || '.' || ot.model = '${type}' AND ct.termination_id IN (SELECT id FROM ${table} WHERE device_id IN (${devices})))`,
    )
    .join(' OR ');
  return `EXISTS (SELECT 1 FROM ${CABLE_TERMINATION_TABLE} ct JOIN core_objecttype ot ON ot.id = ct.termination_type_id
                   WHERE ct.cable_id = ${alias}.id AND (${matches}))`;
}

function idsFilter(devices: (parameter: string) => string): ExtraFilter {
  return (values, alias, prefix) => {
    const problem = idFilterProblem(values);
    if (problem) return { problem };
    return { where: terminatedOnDevices(alias, devices(prefix)), params: { [prefix]: values.map(Number) } };
  };
}

function namesFilter(devices: (parameter: string) => string): ExtraFilter {
  return (values, alias, prefix) => ({ where: terminatedOnDevices(alias, devices(prefix)), params: { [prefix]: values } });
}

/** NetBox's cable filters by the devices and sites its ends are on: `device_id`, `device`, `site_id`, `site`. */
export const CABLE_FILTERS: Record<string, ExtraFilter> = {
  device_id: idsFilter((parameter) => `:...${parameter}`),
  device: namesFilter((parameter) => `SELECT id FROM dcim_device WHERE name IN (:...${parameter})`),
  site_id: idsFilter((parameter) => `SELECT id FROM dcim_device WHERE site_id IN (:...${parameter})`),
  site: namesFilter(
    (parameter) => `SELECT d.id FROM dcim_device d JOIN dcim_site s ON s.id = d.site_id WHERE s.slug IN (:...${parameter})`,
  ),
};

/** NetBox's `cabled=true|false` on anything a cable can end on. */
export const CABLED_FILTER: Record<string, ExtraFilter> = { cabled: columnIsSetFilter('cable_id') };
