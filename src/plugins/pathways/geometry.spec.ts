import { antimeridianParts, boxLiteral, intersects, parseBoundingBox } from './geometry';

describe('antimeridianParts', () => {
  it('leaves a line that does not cross the antimeridian whole', () => {
    expect(
      antimeridianParts([
        [10, 10],
        [-170, 20],
        [-10, 30],
      ]),
    ).toEqual([
      [
        [10, 10],
        [-170, 20],
        [-10, 30],
      ],
    ]);
  });

  it('cuts a segment whose longitudes differ by more than 180° at ±180, either way round', () => {
    expect(
      antimeridianParts([
        [179, 0],
        [-179, 2],
      ]),
    ).toEqual([
      [
        [179, 0],
        [180, 1],
      ],
      [
        [-180, 1],
        [-179, 2],
      ],
    ]);
    expect(
      antimeridianParts([
        [-179, 2],
        [179, 0],
        [178, 0],
      ]),
    ).toEqual([
      [
        [-179, 2],
        [-180, 1],
      ],
      [
        [180, 1],
        [179, 0],
        [178, 0],
      ],
    ]);
  });

  it('keeps no lone position for a line starting or ending on the antimeridian', () => {
    expect(
      antimeridianParts([
        [180, 0],
        [-179, 0],
      ]),
    ).toEqual([
      [
        [-180, 0],
        [-179, 0],
      ],
    ]);
    expect(
      antimeridianParts([
        [179, 0],
        [-180, 0],
      ]),
    ).toEqual([
      [
        [179, 0],
        [180, 0],
      ],
    ]);
    expect(
      antimeridianParts([
        [180, 0],
        [-180, 5],
      ]),
    ).toEqual([
      [
        [180, 0],
        [180, 5],
      ],
    ]);
  });
});

describe('intersects and boxLiteral on a line over the antimeridian', () => {
  const pacific = { type: 'LineString' as const, coordinates: [[179.9, 0] as [number, number], [-179.9, 0] as [number, number]] };

  it('meets a box at ±180 and not one at Greenwich', () => {
    expect(intersects(pacific, [-1, -1, 1, 1])).toBe(false);
    expect(intersects(pacific, [179.95, -1, 180, 1])).toBe(true);
    expect(intersects(pacific, [-180, -1, -179.95, 1])).toBe(true);
    expect(intersects(pacific, [179, -1, -179, 1])).toBe(true);
  });

  it('gets a box over every longitude, so that the index finds it at either side', () => {
    expect(boxLiteral(pacific)).toBe('(180,0),(-180,0)');
  });
});

describe('parseBoundingBox', () => {
  it.each(['0x10,0,20,10', '0,0,0b1,1', '0,0,0o7,1', 'Infinity,0,1,1', '1_0,0,20,10'])('refuses %s', (raw) => {
    expect(parseBoundingBox(raw)).toEqual({ problem: expect.stringMatching(/four comma-separated numbers/) });
  });

  it('reads decimal notation', () => {
    expect(parseBoundingBox(' -1.5,.5,1e1,+2.')).toEqual([-1.5, 0.5, 10, 2]);
  });
});
