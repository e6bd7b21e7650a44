import type { EntityManager } from 'typeorm';
import { QueryParameters } from '../framework/query/filter-parser';
import { lastValue, pageLinks, parsePagination } from '../framework/query/pagination';
import { QueryValidationError } from '../framework/query/query-validation-error';
import type { ActionDocumentation, ObjectSerializer, ResourceRow } from '../framework/resource/resource-declaration';
import { MAX_OBJECT_ID } from '../framework/resource/field-input';

const FACES = ['front', 'rear'] as const;
const FACE_LABELS: Record<string, string> = { front: 'Front', rear: 'Rear' };

interface RackUnit {
  id: number;
  name: string;
  display: string;
  face: { value: string; label: string };
  device: Record<string, unknown> | null;
  occupied: boolean;
  height?: number;
}

interface Occupant {
  id: number;
  position: string;
  u_height: string;
}

export const RACK_ELEVATION_OPENAPI: ActionDocumentation = {
  summary: "The rack's units top to bottom (half units included) on one face, each with the device occupying it (NetBox's elevation JSON)",
  parameters: [
    { name: 'face', description: '`front` (default) or `rear`', schema: { type: 'string', enum: [...FACES] } },
    { name: 'exclude', description: 'A device id to leave out (when moving it within the rack)', schema: { type: 'integer' } },
    { name: 'expand_devices', description: 'false: only the lowest unit of each device, with its `height`', schema: { type: 'boolean' } },
    { name: 'q', description: 'Units whose number or name contains this', schema: { type: 'string' } },
    { name: 'limit', description: 'Page size', schema: { type: 'integer' } },
    { name: 'offset', description: 'Page start', schema: { type: 'integer' } },
  ],
  response: {
    type: 'object',
    required: ['count', 'next', 'previous', 'results'],
    properties: {
      count: { type: 'integer' },
      next: { type: 'string', nullable: true },
      previous: { type: 'string', nullable: true },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'name', 'display', 'face', 'device', 'occupied'],
          properties: {
            id: { type: 'number' },
            name: { type: 'string' },
            display: { type: 'string' },
            face: { type: 'object', properties: { value: { type: 'string' }, label: { type: 'string' } } },
            device: { type: 'object', nullable: true },
            occupied: { type: 'boolean' },
            height: { type: 'number' },
          },
        },
      },
    },
  },
};

/**
 * NetBox's `racks/{id}/elevation/` as JSON: every unit of the rack from the top (half units too),
 * on the asked face, with the device in it: devices mounted on that face or full depth. A device
 * the caller may not view still marks its units occupied but is shown as null. Paginated as a list.
 */
export async function rackElevation(
  manager: EntityManager,
  serializer: ObjectSerializer,
  baseUrl: string,
  rack: ResourceRow,
  query: QueryParameters,
  requestUrl: URL,
  viewable: (ids: readonly number[]) => Promise<Set<number>>,
): Promise<unknown> {
  const face = lastValue(query.face) ?? 'front';
  if (!(FACES as readonly string[]).includes(face)) throw new QueryValidationError({ face: [`"${face}" is not a valid choice.`] });
  const excludeRaw = lastValue(query.exclude);
  if (excludeRaw !== undefined && excludeRaw !== '' && (!/^\d+$/.test(excludeRaw) || Number(excludeRaw) > MAX_OBJECT_ID)) {
    throw new QueryValidationError({ exclude: ['A valid integer is required.'] });
  }
  const expand = !['false', 'False', '0'].includes(lastValue(query.expand_devices) ?? 'true');
  const pagination = parsePagination(query, { defaultLimit: 50, maxLimit: 1000 });

  const start = Number(rack.starting_unit);
  const height = Number(rack.u_height);
  const halves = Array.from({ length: height * 2 }, (_, index) => start + index / 2);
  const numbers = rack.desc_units ? halves : halves.reverse();
  const units = new Map<number, RackUnit>(
    numbers.map((unit) => {
      const name = `U${unit}`;
      return [unit, { id: unit, name, display: name, face: { value: face, label: FACE_LABELS[face] }, device: null, occupied: false }];
    }),
  );

  const occupants = (await manager.query(
    `SELECT d.id, d.position, t.u_height FROM dcim_device d JOIN dcim_devicetype t ON t.id = d.device_type_id
      WHERE d.rack_id = $1 AND d.position > 0 AND t.u_height > 0 AND (d.face = $2 OR t.is_full_depth) AND d.id <> $3
      ORDER BY d.position, d.id`,
    [rack.id, face, excludeRaw ? Number(excludeRaw) : 0],
  )) as Occupant[];
  const ids = occupants.map((occupant) => occupant.id);
  const shown = await viewable(ids);
  const devices = await serializer.briefByIds(
    manager,
    'dcim.device',
    ids.filter((id) => shown.has(id)),
    baseUrl,
  );
  for (const occupant of occupants) {
    const position = Number(occupant.position);
    const occupiedUnits = expand ? Array.from({ length: Number(occupant.u_height) * 2 }, (_, index) => position + index / 2) : [position];
    for (const number of occupiedUnits) {
      const unit = units.get(number);
      if (!unit) continue;
      unit.occupied = true;
      unit.device = devices.get(occupant.id) ?? null;
      if (!expand) unit.height = Number(occupant.u_height);
    }
  }

  const needle = lastValue(query.q)?.toLowerCase();
  const listed = [...units.values()].filter(
    (unit) => !needle || String(unit.id).includes(needle) || unit.name.toLowerCase().includes(needle),
  );
  return {
    count: listed.length,
    ...pageLinks({ requestUrl, count: listed.length, ...pagination }),
    results: listed.slice(pagination.offset, pagination.offset + pagination.limit),
  };
}
