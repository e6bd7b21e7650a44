import Ajv from 'ajv';

/**
 * A JSON Schema of GeoJSON as RFC 7946 defines it (written from the RFC): the seven geometry types
 * with their coordinate rules (a position is two or three numbers, longitude then latitude in WGS84
 * degrees, §3.1.1; a LineString has two or more positions, §3.1.4; a linear ring four or more,
 * §3.1.6), Feature (§3.2: `geometry` and `properties` members, object or null; `id` a string or a
 * number), FeatureCollection (§3.3) and `bbox` (§5: 2×n numbers). Foreign members are allowed (§6.1).
 */
const position = {
  type: 'array',
  minItems: 2,
  maxItems: 3,
  items: [{ type: 'number', minimum: -180, maximum: 180 }, { type: 'number', minimum: -90, maximum: 90 }, { type: 'number' }],
};
const bbox = { type: 'array', minItems: 4, items: { type: 'number' } };
const lineCoordinates = { type: 'array', minItems: 2, items: position };
const ring = { type: 'array', minItems: 4, items: position };

const geometry = (type: string, coordinates: object) => ({
  type: 'object',
  required: ['type', 'coordinates'],
  not: { anyOf: [{ required: ['geometry'] }, { required: ['properties'] }, { required: ['features'] }] },
  properties: { type: { const: type }, coordinates, bbox },
});

export const RFC7946_SCHEMA = {
  $id: 'rfc7946',
  definitions: {
    geometry: {
      oneOf: [
        geometry('Point', position),
        geometry('MultiPoint', { type: 'array', items: position }),
        geometry('LineString', lineCoordinates),
        geometry('MultiLineString', { type: 'array', items: lineCoordinates }),
        geometry('Polygon', { type: 'array', items: ring }),
        geometry('MultiPolygon', { type: 'array', items: { type: 'array', items: ring } }),
        {
          type: 'object',
          required: ['type', 'geometries'],
          properties: {
            type: { const: 'GeometryCollection' },
            geometries: { type: 'array', items: { $ref: '#/definitions/geometry' } },
            bbox,
          },
        },
      ],
    },
    feature: {
      type: 'object',
      required: ['type', 'geometry', 'properties'],
      properties: {
        type: { const: 'Feature' },
        id: { type: ['string', 'number'] },
        geometry: { oneOf: [{ type: 'null' }, { $ref: '#/definitions/geometry' }] },
        properties: { type: ['object', 'null'] },
        bbox,
      },
    },
  },
  type: 'object',
  required: ['type', 'features'],
  properties: { type: { const: 'FeatureCollection' }, features: { type: 'array', items: { $ref: '#/definitions/feature' } }, bbox },
};

const validate = new Ajv({ allErrors: true, strictTuples: false, allowUnionTypes: true }).compile(RFC7946_SCHEMA);

/** Problems of a FeatureCollection against RFC 7946 (empty when valid). */
export function rfc7946Problems(value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}
