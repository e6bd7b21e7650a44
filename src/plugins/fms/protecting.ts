import {
  MAX_OBJECT_ID,
  type ActionDocumentation,
  type CollectionActionContext,
  resourceOf,
  ResourceValidationError,
} from '../../platform/plugin-api';

/** Which live fiber circuits hold given objects: the question a change-management tool asks before touching a cable or a port. */

const REFERENCE_COLUMNS: Record<string, string> = {
  cable: 'cable_id',
  front_port: 'front_port_id',
  rear_port: 'rear_port_id',
  fiber_strand: 'fiber_strand_id',
  splice_entry: 'splice_entry_id',
};
const REFERENCE_TYPES = Object.keys(REFERENCE_COLUMNS);
const ID_MESSAGE = `Every id must be an integer from 0 to ${MAX_OBJECT_ID}.`;
const isId = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_OBJECT_ID;

const circuitSummary = {
  type: 'object',
  required: ['id', 'url', 'display', 'name', 'status', 'strand_count'],
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    display: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'object', properties: { value: { type: 'string' }, label: { type: 'string' } } },
    strand_count: { type: 'integer' },
  },
};

export const PROTECTING_POST_DOCUMENTATION: ActionDocumentation = {
  summary:
    'The non-decommissioned fiber circuits that hold the given objects, de-duplicated, and for every given id the circuits holding it (a read: view_fibercircuit, read-only tokens allowed)',
  request: {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(REFERENCE_TYPES.map((type) => [type, { type: 'array', items: { type: 'integer' } }])),
  },
  response: {
    type: 'object',
    required: ['results', 'by_reference'],
    properties: {
      results: { type: 'array', items: circuitSummary },
      by_reference: {
        type: 'object',
        description: '{<reference type>: {<id as a string>: [circuit id, …]}}; an empty list: nothing protects it',
        additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } } },
      },
    },
  },
};

export const PROTECTING_GET_DOCUMENTATION: ActionDocumentation = {
  summary:
    'The non-decommissioned fiber circuits that hold any of the given objects (ids comma-separated or repeated), de-duplicated; none given: an empty list',
  parameters: REFERENCE_TYPES.map((type) => ({
    name: type,
    description: `${type.replace('_', ' ')} ids`,
    schema: { type: 'array', items: { type: 'integer' } },
  })),
  response: { type: 'array', items: circuitSummary },
};

/** Circuit ids holding each referenced id, limited to circuits the caller may view; then their summaries. */
async function protect(context: CollectionActionContext, references: Record<string, number[]>) {
  const holders: Record<string, Map<number, Set<number>>> = {};
  const allCircuits = new Set<number>();
  for (const [type, ids] of Object.entries(references)) {
    holders[type] = new Map(ids.map((id) => [id, new Set<number>()]));
    if (ids.length === 0) continue;
    const rows = (await context.manager.query(
      `SELECT DISTINCT n.${REFERENCE_COLUMNS[type]} AS object_id, p.circuit_id FROM fms_fibercircuitnode n
         JOIN fms_fibercircuitpath p ON p.id = n.path_id JOIN fms_fibercircuit c ON c.id = p.circuit_id
        WHERE n.${REFERENCE_COLUMNS[type]} = ANY($1) AND c.status <> 'decommissioned'`,
      [ids],
    )) as Array<{ object_id: number; circuit_id: number }>;
    for (const row of rows) {
      holders[type].get(row.object_id)!.add(row.circuit_id);
      allCircuits.add(row.circuit_id);
    }
  }
  const visible = allCircuits.size === 0 ? [] : await context.visibleRows('fms.fibercircuit', { id: [...allCircuits].map(String) });
  const visibleIds = new Set(visible.map((row) => row.id));
  const serialized = await context.serializer.serialize(
    context.manager,
    resourceOf('fms.fibercircuit'),
    visible,
    'full',
    context.scope.baseUrl,
  );
  const results = serialized.map(({ id, url, display, name, status, strand_count }) => ({ id, url, display, name, status, strand_count }));
  const byReference = Object.fromEntries(
    Object.entries(holders).map(([type, map]) => [
      type,
      Object.fromEntries(
        [...map.entries()].map(([id, circuits]) => [
          String(id),
          [...circuits].filter((circuit) => visibleIds.has(circuit)).sort((a, b) => a - b),
        ]),
      ),
    ]),
  );
  return { results, by_reference: byReference };
}

/** `POST fiber-circuits/protecting/`: `{cable: [ids], front_port: [...], …}`; unknown keys, non-lists and non-integer ids are 400s. */
export async function protectingByReference(context: CollectionActionContext) {
  const body = context.body;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ResourceValidationError({ non_field_errors: [`Expected an object with any of the keys ${REFERENCE_TYPES.join(', ')}.`] });
  const references: Record<string, number[]> = {};
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (!REFERENCE_TYPES.includes(key)) errors[key] = [`Unknown reference type; use ${REFERENCE_TYPES.join(', ')}.`];
    else if (!Array.isArray(value)) errors[key] = ['Expected a list of integer ids.'];
    else if (!value.every(isId)) errors[key] = [ID_MESSAGE];
    else references[key] = [...new Set(value as number[])];
  }
  if (Object.keys(errors).length > 0) throw new ResourceValidationError(errors);
  return protect(context, references);
}

/** `GET fiber-circuits/protecting/?cable=1,2&front_port=3`: the flat, de-duplicated list. */
export async function protectingByQuery(context: CollectionActionContext) {
  const references: Record<string, number[]> = {};
  const errors: Record<string, string[]> = {};
  for (const type of REFERENCE_TYPES) {
    const raw = context.query[type];
    if (raw === undefined) continue;
    const values = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => String(value).split(',')).filter((value) => value.trim() !== '');
    if (!values.every((value) => /^\d{1,10}$/.test(value.trim()) && isId(Number(value)))) errors[type] = [ID_MESSAGE];
    else references[type] = values.map((value) => Number(value));
  }
  if (Object.keys(errors).length > 0) throw new ResourceValidationError(errors);
  if (Object.keys(references).length === 0) return [];
  return (await protect(context, references)).results;
}
