import { etagOf, featureCollectionBody, featureSql, GEO_LAYERS } from './geo-layers';

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

  it('writes every mix of one-, two-, three- and four-byte characters exactly, however the parts fall against the buffer', () => {
    const alphabet = ['a', '"', 'é', '€', '€', '€', '😀'];
    // A fixed linear congruential sequence: the same cases on every run.
    let seed = 7;
    const next = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    for (let trial = 0; trial < 2000; trial++) {
      // Bare runs of characters too (the body is byte-exact whatever the parts): a part of only
      // three-byte characters fills all the room it was checked against.
      const features = Array.from({ length: 1 + next(6) }, (_, index) => {
        const text = Array.from({ length: next(40) }, () => alphabet[next(alphabet.length)]).join('');
        return next(2) === 0 ? feature(index, text) : text;
      });
      const expected = `{"type":"FeatureCollection","features":[${features.join(',')}],"truncated":false,"total_count":${features.length}}`;
      expect(featureCollectionBody(features, { truncated: false, total_count: features.length }).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it('keeps the comma after a part that filled the room it was checked against', () => {
    // Three runs of three-byte characters: the second takes exactly the room left (three bytes per
    // code unit, as checked), so the comma before the third falls just past the buffer's end.
    const parts = ['€'.repeat(50), '€'.repeat(58), '€'.repeat(4)];
    const expected = `{"type":"FeatureCollection","features":[${parts.join(',')}],"truncated":false,"total_count":1}`;
    expect(featureCollectionBody(parts, { truncated: false, total_count: 1 }).toString('utf8')).toBe(expected);
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

describe('featureSql', () => {
  const structures = GEO_LAYERS.find((layer) => layer.name === 'structures')!.sources[0];

  it('computes a value two properties share once (site and site_name)', () => {
    const sql = featureSql(structures, 'o');
    expect(sql.match(/to_json\(layer_site\."name"\)/g)).toHaveLength(1);
    expect(sql).toContain('"site":%');
    expect(sql).toMatch(/"site":(%\d+\$s),"site_name":\1/);
  });
});
