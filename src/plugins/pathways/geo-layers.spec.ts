import { etagOf, featureCollectionBody } from './geo-layers';

const feature = (id: number, name: string) =>
  `{"type":"Feature","id":${id},"geometry":{"type": "Point", "coordinates": [1.5, 40.25]},"properties":{"name":${JSON.stringify(name)}}}`;

describe('featureCollectionBody', () => {
  it('encodes the features and the members as one FeatureCollection', () => {
    const body = featureCollectionBody([feature(1, 'MH-1'), feature(2, 'MH-2')], { truncated: false, total_count: 2 });
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    expect(parsed).toEqual({
      type: 'FeatureCollection',
      features: [1, 2].map((id) => ({
        type: 'Feature',
        id,
        geometry: { type: 'Point', coordinates: [1.5, 40.25] },
        properties: { name: `MH-${id}` },
      })),
      truncated: false,
      total_count: 2,
    });
  });

  it('writes an empty collection', () => {
    expect(featureCollectionBody([], { truncated: false, total_count: 0 }).toString('utf8')).toBe(
      '{"type":"FeatureCollection","features":[],"truncated":false,"total_count":0}',
    );
  });

  it('grows past its ASCII estimate for names of several bytes per character', () => {
    // 2000 features whose names are three UTF-8 bytes per character: the body outgrows its first buffer.
    const names = Array.from({ length: 2000 }, (_, index) => `€${'€'.repeat(index % 50)}ß${index}`);
    const features = names.map((name, index) => feature(index + 1, name));
    const body = featureCollectionBody(features, { truncated: true, total_count: 5000 });
    const expected = `{"type":"FeatureCollection","features":[${features.join(',')}],"truncated":true,"total_count":5000}`;
    expect(body.equals(Buffer.from(expected))).toBe(true);
    const parsed = JSON.parse(body.toString('utf8')) as { features: Array<{ properties: { name: string } }> };
    expect(parsed.features.map((each) => each.properties.name)).toEqual(names);
  });
});

describe('etagOf', () => {
  it("is the body's length and CRC-32, quoted", () => {
    // 0xcbf43926: CRC-32's check value, the checksum of the nine ASCII digits.
    expect(etagOf(Buffer.from('123456789'))).toBe('"9-cbf43926"');
    expect(etagOf(Buffer.from(''))).toBe('"0-00000000"');
  });

  it('is a quoted validator that changes with any byte of the body', () => {
    const body = featureCollectionBody([feature(1, 'MH-1')], { truncated: false, total_count: 1 });
    const changed = Buffer.from(body);
    changed[changed.length - 2] = 0x32;
    expect(etagOf(body)).toMatch(/^"[0-9a-f]+-[0-9a-f]{8}"$/);
    expect(etagOf(body)).toBe(etagOf(Buffer.from(body)));
    expect(etagOf(changed)).not.toBe(etagOf(body));
  });
});
