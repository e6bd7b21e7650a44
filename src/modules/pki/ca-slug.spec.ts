import { caSlug, parseCaSlug, slugify } from './ca-slug';

describe('CA slugs', () => {
  it.each([
    ['Root CA', 'root-ca'],
    ['  Ünïcode Çà  ', 'unicode-ca'],
    ['ACME_Issuing  CA #2', 'acme-issuing-ca-2'],
    ['***', 'ca'],
  ])('slugify(%j) = %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('round-trips through the last dash', () => {
    expect(caSlug({ id: 42, name: 'Issuing CA-7' })).toBe('issuing-ca-7-42');
    expect(parseCaSlug('issuing-ca-7-42')).toEqual({ prefix: 'issuing-ca-7', id: 42 });
    expect(parseCaSlug('no-id')).toBeUndefined();
    expect(parseCaSlug('x-99999999999')).toBeUndefined();
    expect(parseCaSlug('-5')).toBeUndefined();
  });
});
