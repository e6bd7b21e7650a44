import type { EntityManager } from 'typeorm';
import { type ResourceRow, ResourceValidationError } from '../../platform/plugin-api';
import { type ColorScheme, strandColor } from './fms.choices';

interface TypeRow {
  strand_count: number;
  color_scheme: ColorScheme;
  strand_marker_interval: number;
  strand_marker_color: string;
  strand_marker_type: string;
}

interface ContainerTemplate {
  id: number;
  name: string;
  position: number;
  color: string;
  marker_count: number;
  marker_color: string;
  marker_type: string;
  strand_marker_interval: number;
  strand_marker_color: string;
  strand_marker_type: string;
  fiber_count: number | null;
  buffer_tube_template_id?: number | null;
}

interface Marking {
  interval: number;
  color: string;
  type: string;
}

/** Strand rows as column arrays, so all of a cable's strands are inserted by one statement. */
class StrandColumns {
  readonly tube: Array<number | null> = [];
  readonly ribbon: Array<string | null> = [];
  readonly name: string[] = [];
  readonly position: number[] = [];
  readonly color: string[] = [];
  readonly markerCount: number[] = [];
  readonly markerColor: string[] = [];
  readonly markerType: string[] = [];

  constructor(private readonly scheme: ColorScheme) {}

  /** `count` strands named `<prefix>F<i>`, colours and markers counted inside their tube or ribbon. */
  add(count: number, prefix: string, marking: Marking, tube: number | null, ribbon: string | null): void {
    for (let i = 1; i <= count; i++) {
      const group = marking.interval > 0 ? Math.floor((i - 1) / marking.interval) : 0;
      this.tube.push(tube);
      this.ribbon.push(ribbon);
      this.name.push(`${prefix}F${i}`);
      this.position.push(this.position.length + 1);
      this.color.push(strandColor(this.scheme, i).hex);
      this.markerCount.push(group);
      this.markerColor.push(group > 0 ? marking.color : '');
      this.markerType.push(group > 0 ? marking.type : '');
    }
  }
}

/** A template's own strand marking when it sets an interval, else the cable type's. */
function markingOf(template: ContainerTemplate | null, type: TypeRow): Marking {
  if (template && template.strand_marker_interval > 0) {
    return { interval: template.strand_marker_interval, color: template.strand_marker_color, type: template.strand_marker_type };
  }
  return { interval: type.strand_marker_interval, color: type.strand_marker_color, type: type.strand_marker_type };
}

/**
 * Builds a new fiber cable's tubes, ribbons, strands and elements from its type's templates
 * (reference §1.3), inside the creating transaction: one INSERT per kind of component, whatever the
 * strand count, so an 864-strand ribbon cable costs a handful of statements. A type whose templates
 * do not add up to its strand count is refused (400 on `fiber_cable_type`), leaving nothing.
 */
export async function generateComponents(manager: EntityManager, cable: ResourceRow): Promise<void> {
  const typeId = cable.fiber_cable_type_id as number;
  const [type] = (await manager.query(
    'SELECT strand_count, color_scheme, strand_marker_interval, strand_marker_color, strand_marker_type FROM fms_fibercabletype WHERE id = $1',
    [typeId],
  )) as TypeRow[];
  const tubes = (await manager.query('SELECT * FROM fms_buffertubetemplate WHERE fiber_cable_type_id = $1 ORDER BY position, id', [
    typeId,
  ])) as ContainerTemplate[];
  const ribbons = (await manager.query('SELECT * FROM fms_ribbontemplate WHERE fiber_cable_type_id = $1 ORDER BY position, id', [
    typeId,
  ])) as ContainerTemplate[];
  const ribbonsOf = (tube: number | null) => ribbons.filter((ribbon) => (ribbon.buffer_tube_template_id ?? null) === tube);

  const templated = tubes.length > 0 || ribbonsOf(null).length > 0;
  const templateFibers =
    tubes.reduce(
      (sum, tube) => sum + (tube.fiber_count ?? ribbonsOf(tube.id).reduce((inner, ribbon) => inner + ribbon.fiber_count!, 0)),
      0,
    ) + ribbonsOf(null).reduce((sum, ribbon) => sum + ribbon.fiber_count!, 0);
  if (templated && templateFibers !== type.strand_count) {
    throw new ResourceValidationError({
      fiber_cable_type: [
        `The type's templates hold ${templateFibers} fibers but its strand_count is ${type.strand_count}; correct the templates or the count.`,
      ],
    });
  }
  const ribbonNames = ribbons.map((ribbon) => ribbon.name);
  const repeated = ribbonNames.find((name, index) => ribbonNames.indexOf(name) !== index);
  if (repeated !== undefined) {
    throw new ResourceValidationError({
      fiber_cable_type: [`Two ribbon templates of the type are named "${repeated}"; ribbon names must be unique within a cable.`],
    });
  }

  const tubeIds = await insertContainers(manager, 'fms_buffertube', cable.id, tubes, () => null);
  await insertContainers(manager, 'fms_ribbon', cable.id, ribbons, (ribbon) =>
    ribbon.buffer_tube_template_id ? tubeIds.get(tubes.find((tube) => tube.id === ribbon.buffer_tube_template_id)!.name)! : null,
  );

  const strands = new StrandColumns(type.color_scheme);
  const addRibbons = (tube: ContainerTemplate | null) => {
    for (const ribbon of ribbonsOf(tube?.id ?? null)) {
      strands.add(ribbon.fiber_count!, `${ribbon.name}-`, markingOf(ribbon, type), tube ? tubeIds.get(tube.name)! : null, ribbon.name);
    }
  };
  for (const tube of tubes) {
    if (tube.fiber_count !== null) strands.add(tube.fiber_count, `${tube.name}-`, markingOf(tube, type), tubeIds.get(tube.name)!, null);
    else addRibbons(tube);
  }
  addRibbons(null);
  if (!templated) strands.add(type.strand_count, '', markingOf(null, type), null, null);

  await manager.query(
    `INSERT INTO fms_fiberstrand (fiber_cable_id, buffer_tube_id, ribbon_id, name, position, color, marker_count, marker_color, marker_type)
     SELECT $1, s.tube, r.id, s.name, s.position, s.color, s.marker_count, s.marker_color, s.marker_type
       FROM unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::text[], $7::int[], $8::text[], $9::text[])
            AS s(tube, ribbon, name, position, color, marker_count, marker_color, marker_type)
       LEFT JOIN fms_ribbon r ON r.fiber_cable_id = $1 AND r.name = s.ribbon`,
    [
      cable.id,
      strands.tube,
      strands.ribbon,
      strands.name,
      strands.position,
      strands.color,
      strands.markerCount,
      strands.markerColor,
      strands.markerType,
    ],
  );
  await manager.query(
    `INSERT INTO fms_cableelement (fiber_cable_id, name, element_type)
     SELECT $1, name, element_type FROM fms_cableelementtemplate WHERE fiber_cable_type_id = $2 ORDER BY name`,
    [cable.id, typeId],
  );
}

/** Inserts one tube or ribbon per template; returns the new ids by name. */
async function insertContainers(
  manager: EntityManager,
  table: 'fms_buffertube' | 'fms_ribbon',
  cableId: number,
  templates: readonly ContainerTemplate[],
  tubeOf: (template: ContainerTemplate) => number | null,
): Promise<Map<string, number>> {
  if (templates.length === 0) return new Map();
  const tubeColumn = table === 'fms_ribbon' ? ', buffer_tube_id' : '';
  const tubeValue = table === 'fms_ribbon' ? ', t.tube' : '';
  const rows = (await manager.query(
    `INSERT INTO ${table} (fiber_cable_id, name, position, color, marker_count, marker_color, marker_type${tubeColumn})
     SELECT $1, t.name, t.position, t.color, t.marker_count, t.marker_color, t.marker_type${tubeValue}
       FROM unnest($2::text[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[], $8::int[]) AS t(name, position, color, marker_count, marker_color, marker_type, tube)
     RETURNING id, name`,
    [
      cableId,
      templates.map((t) => t.name),
      templates.map((t) => t.position),
      templates.map((t) => t.color),
      templates.map((t) => t.marker_count),
      templates.map((t) => t.marker_color),
      templates.map((t) => t.marker_type),
      templates.map(tubeOf),
    ],
  )) as Array<{ id: number; name: string }>;
  return new Map(rows.map((row) => [row.name, row.id]));
}
