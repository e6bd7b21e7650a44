import bboxPolygon from '@turf/bbox-polygon';
import booleanIntersects from '@turf/boolean-intersects';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import distance from '@turf/distance';
import length from '@turf/length';
import nearestPointOnLine from '@turf/nearest-point-on-line';
import { wktToGeoJSON } from '@terraformer/wkt';
import type { EntityManager } from 'typeorm';
import { json, type ResourceRow, ResourceValidationError } from '../../platform/plugin-api';
import { DEFAULT_MAX_PATH_POSITIONS } from './manifest';

/**
 * The geometry store: how the plugin keeps, checks, measures and searches geometry. Geometry is
 * GeoJSON (RFC 7946: WGS84, longitude first) in a `jsonb` column beside a `box` column holding its
 * bounding box under a GiST index, because PostGIS is not available in the embedded database. Every
 * geometric question the plugin asks goes through this module, so PostGIS can replace it (a
 * `geometry` column, `ST_Intersects`, `ST_Length`) without touching the models' routes.
 */

export type Position = [number, number] | [number, number, number];
export interface PointGeometry {
  type: 'Point';
  coordinates: Position;
}
export interface LineStringGeometry {
  type: 'LineString';
  coordinates: Position[];
}
/** A structure's footprint: an outer ring and optional holes, each closed (RFC 7946 §3.1.6). */
export interface PolygonGeometry {
  type: 'Polygon';
  coordinates: Position[][];
}
export type Geometry = PointGeometry | LineStringGeometry | PolygonGeometry;
/** A cable's route through several pathways (external layers). */
export interface MultiLineStringGeometry {
  type: 'MultiLineString';
  coordinates: Position[][];
}

/** A box as GeoJSON's `bbox`: west, south, east, north. West greater than east crosses the antimeridian (RFC 7946 §5.2). */
export type BoundingBox = [number, number, number, number];

function positionProblem(value: unknown, where: string): string | null {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3)
    return `${where} must be [longitude, latitude] or [longitude, latitude, elevation].`;
  if (!value.every((number) => typeof number === 'number' && Number.isFinite(number))) return `${where} must hold numbers only.`;
  const [longitude, latitude] = value as number[];
  if (longitude < -180 || longitude > 180) return `${where}: longitude ${longitude} is outside -180…180.`;
  if (latitude < -90 || latitude > 90) return `${where}: latitude ${latitude} is outside -90…90.`;
  return null;
}

/** Text given for a geometry that is not WKT of WGS84: what the field's check answers. */
class UnreadableText {
  constructor(readonly problem: string) {}
}

function shapeProblem(value: unknown, type: Geometry['type']): string | null {
  if (value instanceof UnreadableText) return value.problem;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `Expected a GeoJSON ${type} object.`;
  const geometry = value as Record<string, unknown>;
  if (geometry.type !== type) return `Expected a GeoJSON ${type} (got type ${JSON.stringify(geometry.type ?? null)}).`;
  const extra = Object.keys(geometry).filter((key) => key !== 'type' && key !== 'coordinates');
  if (extra.length > 0) return `Unexpected member(s) of a ${type}: ${extra.join(', ')} (only type and coordinates; WGS84 is implied).`;
  return null;
}

/** Problems with a GeoJSON Point, as the field's 400 messages (empty when valid). */
export function pointProblems(value: unknown): string[] {
  const problem = shapeProblem(value, 'Point') ?? positionProblem((value as PointGeometry).coordinates, 'coordinates');
  return problem ? [problem] : [];
}

/** Problems with a GeoJSON Polygon: closed rings of at least four positions. */
export function polygonProblems(value: unknown): string[] {
  const shape = shapeProblem(value, 'Polygon');
  if (shape) return [shape];
  const rings = (value as PolygonGeometry).coordinates;
  if (!Array.isArray(rings) || rings.length === 0) return ['A Polygon needs at least one ring.'];
  for (const [ringIndex, ring] of rings.entries()) {
    if (!Array.isArray(ring) || ring.length < 4) return [`Ring ${ringIndex} needs at least four positions.`];
    for (const [index, position] of ring.entries()) {
      const problem = positionProblem(position, `ring ${ringIndex} position ${index}`);
      if (problem) return [problem];
    }
    const [first, last] = [ring[0], ring[ring.length - 1]];
    if (first[0] !== last[0] || first[1] !== last[1]) return [`Ring ${ringIndex} must end where it starts (a closed ring).`];
  }
  return [];
}

/** Problems with a structure's geometry: a Point, or a Polygon footprint. */
export function structureGeometryProblems(value: unknown): string[] {
  if (value instanceof UnreadableText) return [value.problem];
  const type = (value as { type?: unknown } | null)?.type;
  if (type === 'Polygon') return polygonProblems(value);
  if (type === 'Point') return pointProblems(value);
  return ['Expected a GeoJSON Point or Polygon object.'];
}

const EWKT_SRID = /^\s*SRID=(\d+)\s*;/i;

/**
 * A geometry written as WKT or EWKT text (`POINT(-73.5 45.5)`, `SRID=4326;LINESTRING(…)`), as
 * GeoJSON; any other value unchanged, for the field's check to judge. Text that is not WKT, or EWKT
 * in another reference system than WGS84, is answered as a problem by that check.
 */
export function geometryFromText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const srid = EWKT_SRID.exec(value);
  if (srid && srid[1] !== '4326') return new UnreadableText(`EWKT in SRID ${srid[1]}: only SRID 4326 (WGS84) is accepted.`);
  try {
    return wktToGeoJSON(value.replace(EWKT_SRID, '').trim());
  } catch {
    return new UnreadableText('Expected a GeoJSON object or WKT text (e.g. POINT(-73.5 45.5)); this text is not WKT.');
  }
}

/** Problems with a GeoJSON LineString (at least two positions), as the field's 400 messages. */
export function lineStringProblems(value: unknown): string[] {
  const shape = shapeProblem(value, 'LineString');
  if (shape) return [shape];
  const coordinates = (value as LineStringGeometry).coordinates;
  if (!Array.isArray(coordinates) || coordinates.length < 2) return ['A LineString needs at least two positions.'];
  for (const [index, position] of coordinates.entries()) {
    const problem = positionProblem(position, `position ${index}`);
    if (problem) return [problem];
  }
  return [];
}

/** The smallest box holding the geometry, as the `box` column's literal (`(east,north),(west,south)`). */
export function boxLiteral(geometry: Geometry | null): string | null {
  if (!geometry) return null;
  // A line over the antimeridian touches both -180 and 180: its box spans every longitude, and the exact test decides.
  const positions =
    geometry.type === 'Point'
      ? [geometry.coordinates]
      : geometry.type === 'Polygon'
        ? geometry.coordinates.flat()
        : antimeridianParts(geometry.coordinates).flat();
  const longitudes = positions.map((position) => position[0]);
  const latitudes = positions.map((position) => position[1]);
  return `(${Math.max(...longitudes)},${Math.max(...latitudes)}),(${Math.min(...longitudes)},${Math.min(...latitudes)})`;
}

/** Writes a row's bounding-box column from its geometry column. */
export async function storeBoundingBox(manager: EntityManager, table: string, geometryColumn: string, id: number): Promise<void> {
  const [row] = (await manager.query(`SELECT "${geometryColumn}" AS geometry FROM "${table}" WHERE id = $1`, [id])) as Array<{
    geometry: Geometry | null;
  }>;
  await manager.query(`UPDATE "${table}" SET bbox = $2::box WHERE id = $1`, [id, boxLiteral(row?.geometry ?? null)]);
}

/** Writes a pathway's bounding box and geodesic length from its path (and gives the row the length). */
export async function storePathDerivatives(manager: EntityManager, table: string, row: ResourceRow): Promise<void> {
  const [stored] = (await manager.query(`SELECT path FROM "${table}" WHERE id = $1`, [row.id])) as Array<{
    path: LineStringGeometry | null;
  }>;
  const path = stored?.path ?? null;
  row.geo_length = geodesicLength(path);
  await manager.query(`UPDATE "${table}" SET bbox = $2::box, geo_length = $3 WHERE id = $1`, [row.id, boxLiteral(path), row.geo_length]);
}

/** Geodesic length of a LineString in metres, two decimals (PostGIS's `ST_Length` on geography). */
export function geodesicLength(geometry: LineStringGeometry | null): number | null {
  if (!geometry) return null;
  const metres = length({ type: 'Feature', properties: {}, geometry }, { units: 'meters' });
  return Math.round(metres * 100) / 100;
}

/** Geodesic distance between two positions in metres. */
export function distanceMetres(from: Position, to: Position): number {
  return distance(from.slice(0, 2), to.slice(0, 2), { units: 'meters' });
}

/** A number in decimal notation, optionally signed, with an optional exponent (`-0.5`, `.5`, `1e1`). */
const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Parses `bbox=W,S,E,N`: four finite numbers, longitudes within ±180, latitudes within ±90, south
 * not above north. West may exceed east: that box crosses the antimeridian.
 */
export function parseBoundingBox(raw: string): BoundingBox | { problem: string } {
  const parts = raw.split(',');
  // Decimal notation only: Number() alone would also read `0x10`, `0b1` and `Infinity`.
  if (parts.length !== 4 || parts.some((part) => !DECIMAL_NUMBER.test(part.trim())))
    return { problem: `bbox must be four comma-separated numbers west,south,east,north (got "${raw}").` };
  const [west, south, east, north] = parts.map(Number) as BoundingBox;
  if ([west, east].some((longitude) => longitude < -180 || longitude > 180))
    return { problem: 'bbox longitudes must lie within -180…180.' };
  if ([south, north].some((latitude) => latitude < -90 || latitude > 90)) return { problem: 'bbox latitudes must lie within -90…90.' };
  if (south > north) return { problem: `bbox south (${south}) must not be greater than north (${north}).` };
  return [west, south, east, north];
}

/** The box as one or two non-crossing boxes (a box over the antimeridian splits at ±180). */
export function boxParts([west, south, east, north]: BoundingBox): BoundingBox[] {
  return west <= east
    ? [[west, south, east, north]]
    : [
        [west, south, 180, north],
        [-180, south, east, north],
      ];
}

/**
 * SQL selecting rows whose bounding box meets the box (`&&` on the GiST-indexed `box` column):
 * exact for points, a candidate set for lines (then {@link intersects}).
 */
export function boxCondition(alias: string, box: BoundingBox, parameterPrefix: string): { where: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const parts = boxParts(box).map(([west, south, east, north], index) => {
    params[`${parameterPrefix}_${index}`] = `(${east},${north}),(${west},${south})`;
    return `${alias}."bbox" && CAST(:${parameterPrefix}_${index} AS box)`;
  });
  return { where: `(${parts.join(' OR ')})`, params };
}

/**
 * A line's positions cut where it crosses the antimeridian (RFC 7946 §3.1.9), each part within
 * -180…180. A segment whose longitudes differ by more than 180° crosses it: it is taken the shorter
 * way round, as its geodesic length measures it, rather than the long way across Greenwich.
 */
export function antimeridianParts(coordinates: readonly Position[]): Position[][] {
  const parts: Position[][] = [[coordinates[0]]];
  for (const [index, position] of coordinates.entries()) {
    if (index === 0) continue;
    const [fromLongitude, fromLatitude] = coordinates[index - 1];
    const [toLongitude, toLatitude] = position;
    if (Math.abs(fromLongitude) === 180 && Math.abs(toLongitude) === 180) {
      // Along the antimeridian itself: 180 and -180 are one meridian.
      parts[parts.length - 1].push([fromLongitude, ...position.slice(1)] as Position);
      continue;
    }
    if (Math.abs(toLongitude - fromLongitude) > 180) {
      const edge = fromLongitude > 0 ? 180 : -180;
      const unwrapped = toLongitude + 2 * edge;
      const latitude = fromLatitude + ((toLatitude - fromLatitude) * (edge - fromLongitude)) / (unwrapped - fromLongitude);
      if (fromLongitude !== edge) parts[parts.length - 1].push([edge, latitude]);
      parts.push(toLongitude === -edge ? [] : [[-edge, latitude]]);
    }
    parts[parts.length - 1].push(position);
  }
  // A part can be a lone position where the line starts or ends on the antimeridian: the next or previous part holds it.
  const lines = parts.filter((part) => part.length > 1);
  return lines.length > 0 ? lines : parts;
}

/** Whether the geometry meets the box itself, not only its bounding box (a line passing by a corner does not). */
export function intersects(geometry: Geometry, box: BoundingBox): boolean {
  const pieces: Geometry[] =
    geometry.type !== 'LineString'
      ? [geometry]
      : antimeridianParts(geometry.coordinates).map((coordinates) =>
          coordinates.length > 1 ? { type: 'LineString', coordinates } : { type: 'Point', coordinates: coordinates[0] },
        );
  return boxParts(box).some((part) =>
    pieces.some((piece) => booleanIntersects({ type: 'Feature', properties: {}, geometry: piece }, bboxPolygon(part))),
  );
}

/** The 400 on `path` for a line of more positions than the `max_path_positions` setting allows. */
export function assertPathSize(path: unknown, settings: Readonly<Record<string, unknown>>): void {
  const max = Number(settings.max_path_positions ?? DEFAULT_MAX_PATH_POSITIONS);
  const count = (path as LineStringGeometry | null)?.coordinates.length ?? 0;
  if (count > max) throw new ResourceValidationError({ path: [`A path may hold at most ${max} positions (got ${count}).`] });
}

/** A structure's point for a path's end near `position`: the point itself, or the nearest point of a footprint's outline. */
export function anchorNear(geometry: PointGeometry | PolygonGeometry, position: Position): Position {
  if (geometry.type === 'Point') return geometry.coordinates;
  const outline = { type: 'MultiLineString' as const, coordinates: geometry.coordinates };
  return nearestPointOnLine(outline, position.slice(0, 2)).geometry.coordinates as Position;
}

/** How far (metres) a position lies from a structure: 0 inside a footprint. */
export function distanceToStructure(geometry: PointGeometry | PolygonGeometry, position: Position): number {
  if (geometry.type === 'Polygon' && booleanPointInPolygon(position.slice(0, 2), geometry)) return 0;
  return distanceMetres(position, anchorNear(geometry, position));
}

/** A representative point of a structure: the point, or the mean of a footprint's outer ring (clusters, the route planner). */
export function representativePoint(geometry: PointGeometry | PolygonGeometry): Position {
  if (geometry.type === 'Point') return geometry.coordinates;
  const ring = geometry.coordinates[0].slice(0, -1);
  return [ring.reduce((sum, p) => sum + p[0], 0) / ring.length, ring.reduce((sum, p) => sum + p[1], 0) / ring.length];
}

/** A LineString path field: GeoJSON, or WKT/EWKT text read into GeoJSON. */
export const pathField = () => json({ nullable: true, parse: geometryFromText, validate: lineStringProblems });
