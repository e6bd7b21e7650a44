import { QueryParameters } from './filter-parser';
import { QueryValidationError } from './query-validation-error';

export interface PaginationOptions {
  defaultLimit: number;
  maxLimit: number;
}

export interface Pagination {
  limit: number;
  offset: number;
}

const NON_NEGATIVE_INTEGER = /^\d+$/;

/**
 * NetBox's limit/offset pagination. `limit=0` asks for everything, which NetBox
 * caps at MAX_PAGE_SIZE, so it means `maxLimit`; a larger limit is clamped to it.
 * Unlike NetBox, which silently falls back to the default, a malformed value is an error.
 *
 * @throws QueryValidationError for a limit or offset that is not a non-negative integer.
 */
export function parsePagination(query: QueryParameters, options: PaginationOptions): Pagination {
  const problems: Record<string, string[]> = {};
  const readNumber = (param: 'limit' | 'offset'): number | undefined => {
    const raw = lastValue(query[param]);
    if (raw === undefined || raw === '') return undefined;
    if (NON_NEGATIVE_INTEGER.test(raw) && Number.isSafeInteger(Number(raw))) return Number(raw);
    problems[param] = ['A non-negative integer is required.'];
    return undefined;
  };
  const requestedLimit = readNumber('limit');
  const offset = readNumber('offset') ?? 0;
  if (Object.keys(problems).length > 0) throw new QueryValidationError(problems);

  const limit = requestedLimit ?? options.defaultLimit;
  return { limit: limit === 0 ? options.maxLimit : Math.min(limit, options.maxLimit), offset };
}

/** A repeated parameter counts by its last value, as Django's `QueryDict.get` reads it. */
export function lastValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.at(-1) : value;
}

export interface PageLinkInput extends Pagination {
  /** The absolute URL of the request being answered; its other parameters are carried over. */
  requestUrl: URL;
  count: number;
}

/** `next` and `previous` of a NetBox list response, built as Django REST framework's LimitOffsetPagination does. */
export function pageLinks({ requestUrl, count, limit, offset }: PageLinkInput): {
  next: string | null;
  previous: string | null;
} {
  const withLimit = (): URL => {
    const url = new URL(requestUrl);
    url.searchParams.set('limit', String(limit));
    return url;
  };

  let next: string | null = null;
  if (offset + limit < count) {
    const url = withLimit();
    url.searchParams.set('offset', String(offset + limit));
    next = url.toString();
  }

  let previous: string | null = null;
  if (offset > 0) {
    const url = withLimit();
    // The first page is addressed without an offset.
    if (offset - limit <= 0) url.searchParams.delete('offset');
    else url.searchParams.set('offset', String(offset - limit));
    previous = url.toString();
  }
  return { next, previous };
}
