import { pageLinks, parsePagination } from './pagination';
import { QueryValidationError } from './query-validation-error';

const options = { defaultLimit: 50, maxLimit: 1000 };

describe('parsePagination', () => {
  it.each([
    [{}, { limit: 50, offset: 0 }],
    [
      { limit: '', offset: '' },
      { limit: 50, offset: 0 },
    ],
    [{ limit: '10' }, { limit: 10, offset: 0 }],
    [
      { limit: '10', offset: '30' },
      { limit: 10, offset: 30 },
    ],
    [{ limit: '1000' }, { limit: 1000, offset: 0 }],
    [{ limit: '5000' }, { limit: 1000, offset: 0 }],
    [{ limit: '0' }, { limit: 1000, offset: 0 }],
    [{ limit: ['5', '7'] }, { limit: 7, offset: 0 }],
  ])('%j → %j', (query, expected) => {
    expect(parsePagination(query, options)).toEqual(expected);
  });

  it.each([
    [{ limit: '-1' }, { limit: ['A non-negative integer is required.'] }],
    [{ limit: 'ten' }, { limit: ['A non-negative integer is required.'] }],
    [{ offset: '1.5' }, { offset: ['A non-negative integer is required.'] }],
    [
      { limit: '1e3', offset: '-5' },
      { limit: ['A non-negative integer is required.'], offset: ['A non-negative integer is required.'] },
    ],
    [{ offset: '99999999999999999999' }, { offset: ['A non-negative integer is required.'] }],
  ])('%j → problems %j', (query, problems) => {
    expect(() => parsePagination(query, options)).toThrow(expect.objectContaining({ problems }));
    expect(() => parsePagination(query, options)).toThrow(QueryValidationError);
  });
});

describe('pageLinks', () => {
  const requestUrl = new URL('https://netbox.example/api/dcim/sites/');

  it('links only forward from the first page', () => {
    expect(pageLinks({ requestUrl, count: 120, limit: 50, offset: 0 })).toEqual({
      next: 'https://netbox.example/api/dcim/sites/?limit=50&offset=50',
      previous: null,
    });
  });

  it('links both ways from a middle page, the previous one to the first page without offset', () => {
    expect(
      pageLinks({ requestUrl: new URL('https://netbox.example/api/dcim/sites/?limit=50&offset=50'), count: 120, limit: 50, offset: 50 }),
    ).toEqual({
      next: 'https://netbox.example/api/dcim/sites/?limit=50&offset=100',
      previous: 'https://netbox.example/api/dcim/sites/?limit=50',
    });
  });

  it('has no next link on the last page', () => {
    expect(pageLinks({ requestUrl, count: 120, limit: 50, offset: 100 })).toEqual({
      next: null,
      previous: 'https://netbox.example/api/dcim/sites/?limit=50&offset=50',
    });
  });

  it('has no next link when the page ends exactly at count', () => {
    expect(pageLinks({ requestUrl, count: 100, limit: 50, offset: 50 }).next).toBeNull();
  });

  it('drops the offset when the previous page would start before 0', () => {
    expect(pageLinks({ requestUrl, count: 100, limit: 50, offset: 20 }).previous).toBe('https://netbox.example/api/dcim/sites/?limit=50');
  });

  it('has no links for an empty result', () => {
    expect(pageLinks({ requestUrl, count: 0, limit: 50, offset: 0 })).toEqual({ next: null, previous: null });
  });

  it('keeps the other parameters, repeated ones included, and writes the effective limit', () => {
    const url = new URL('https://netbox.example/api/dcim/sites/?status=active&limit=5000&offset=1000&tag=a&tag=b&q=x%20y');
    expect(pageLinks({ requestUrl: url, count: 2500, limit: 1000, offset: 1000 })).toEqual({
      next: 'https://netbox.example/api/dcim/sites/?status=active&limit=1000&offset=2000&tag=a&tag=b&q=x+y',
      previous: 'https://netbox.example/api/dcim/sites/?status=active&limit=1000&tag=a&tag=b&q=x+y',
    });
  });

  it('does not change the request URL', () => {
    const url = new URL('https://netbox.example/api/dcim/sites/?offset=10');
    pageLinks({ requestUrl: url, count: 100, limit: 10, offset: 10 });
    expect(url.toString()).toBe('https://netbox.example/api/dcim/sites/?offset=10');
  });
});
