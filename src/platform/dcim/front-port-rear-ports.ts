import { EntityManager } from 'typeorm';
import { readObjectId } from '../framework/resource/field-input';
import { ResourceExtension, ResourceRow } from '../framework/resource/resource-definition';

interface MappingTables {
  mapping: string;
  rear: string;
  /** Body key and column of the parent the front and rear port must share (`device`, or the template's type). */
  parents: ReadonlyArray<{ key: string; column: string }>;
}

interface RearPortLink {
  position: number;
  rear_port: number;
  rear_port_position: number;
}

/**
 * NetBox 4.5's `rear_ports` on front ports and front-port templates: the front port's positions
 * and the rear-port positions they are wired to, read and written with the front port (stored in
 * the same mapping table the `port-mappings` endpoints serve).
 */
export function frontPortRearPortsExtension(tables: MappingTables): ResourceExtension {
  const links = async (manager: EntityManager, frontIds: readonly number[]) =>
    (await manager.query(
      `SELECT front_port_id, front_port_position AS position, rear_port_id AS rear_port, rear_port_position
         FROM ${tables.mapping} WHERE front_port_id = ANY($1) ORDER BY front_port_position, id`,
      [[...frontIds]],
    )) as Array<RearPortLink & { front_port_id: number }>;
  const byFront = async (manager: EntityManager, rows: readonly ResourceRow[]) => {
    const all = await links(
      manager,
      rows.map((row) => row.id),
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          rear_ports: all
            .filter((link) => link.front_port_id === row.id)
            .map(({ position, rear_port, rear_port_position }) => ({ position, rear_port, rear_port_position })),
        },
      ]),
    );
  };
  return {
    keys: ['rear_ports'],
    represent: (manager, rows) => byFront(manager, rows),
    snapshot: (manager, rows) => byFront(manager, rows),

    async validate(manager, body, existing): Promise<Record<string, string[]>> {
      if (!Object.hasOwn(body, 'rear_ports')) return {};
      const parsed = readLinks(body.rear_ports);
      if (!parsed) return { rear_ports: ['Expected a list of {"position": n, "rear_port": id, "rear_port_position": n} objects.'] };
      const frontPositions = Number(body.positions ?? existing?.positions ?? 1);
      const problems: string[] = [];
      if (new Set(parsed.map((link) => link.position)).size !== parsed.length)
        problems.push('Each front-port position may be mapped once.');
      const rears = (await manager.query(`SELECT * FROM ${tables.rear} WHERE id = ANY($1)`, [
        parsed.map((link) => link.rear_port),
      ])) as Array<Record<string, unknown> & { id: number; positions: number }>;
      for (const link of parsed) {
        const rear = rears.find((candidate) => candidate.id === link.rear_port);
        if (!rear) {
          problems.push(`Rear port ${link.rear_port} does not exist.`);
          continue;
        }
        for (const parent of tables.parents) {
          const frontParent = Object.hasOwn(body, parent.key)
            ? (readObjectId(body[parent.key]) ?? null)
            : (existing?.[parent.column] ?? null);
          if ((rear[parent.column] ?? null) !== frontParent)
            problems.push(`Rear port ${link.rear_port} belongs to another ${parent.key.replace('_', ' ')}.`);
        }
        if (link.position > frontPositions) problems.push(`The front port has no position ${link.position}.`);
        if (link.rear_port_position > rear.positions)
          problems.push(`Rear port ${link.rear_port} has no position ${link.rear_port_position}.`);
      }
      return problems.length > 0 ? { rear_ports: problems } : {};
    },

    async apply(manager, row, body) {
      if (!Object.hasOwn(body, 'rear_ports')) return;
      await manager.query(`DELETE FROM ${tables.mapping} WHERE front_port_id = $1`, [row.id]);
      const columns = tables.parents.map((parent) => parent.column);
      for (const link of readLinks(body.rear_ports) ?? []) {
        await manager.query(
          `INSERT INTO ${tables.mapping} (${[...columns, 'front_port_id', 'front_port_position', 'rear_port_id', 'rear_port_position'].join(', ')})
           VALUES (${[...columns, 1, 2, 3, 4].map((_, index) => `$${index + 1}`).join(', ')})`,
          [...columns.map((column) => row[column] ?? null), row.id, link.position, link.rear_port, link.rear_port_position],
        );
      }
    },
  };
}

/** `[{position?, rear_port, rear_port_position?}]` (positions default to 1), or undefined when malformed. */
function readLinks(raw: unknown): RearPortLink[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const result: RearPortLink[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { position = 1, rear_port: rearPort, rear_port_position: rearPosition = 1 } = item as Record<string, unknown>;
    const id = readObjectId(rearPort);
    if (id === undefined || !isPosition(position) || !isPosition(rearPosition)) return undefined;
    result.push({ position, rear_port: id, rear_port_position: rearPosition });
  }
  return result;
}

function isPosition(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 1024;
}
