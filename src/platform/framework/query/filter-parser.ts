import { FilterCondition, FilterMatch, FilterScalar } from './filter-condition';
import { FilterField, FilterFieldType, FilterLookup, FilterSet, supportedLookups } from './filter-fields';
import { QueryValidationError } from './query-validation-error';

export type QueryParameters = Record<string, string | string[] | undefined>;

export interface ParseFiltersOptions {
  /** Parameters that are not filters, e.g. limit, offset, ordering, brief, q, format. */
  ignore: readonly string[];
}

/** A `cf_<name>[__<lookup>]` parameter, passed on raw: custom fields are validated where their definitions live. */
export interface CustomFieldFilter {
  name: string;
  /** `exact` when the parameter has no `__<lookup>` suffix. */
  lookup: string;
  values: string[];
}

export interface ParsedFilters {
  conditions: FilterCondition[];
  customFieldFilters: CustomFieldFilter[];
}

export class FilterValidationError extends QueryValidationError {}

const LOOKUP_SEPARATOR = '__';
const CUSTOM_FIELD_PREFIX = 'cf_';
/** NetBox's FILTERS_NULL_CHOICE_VALUE: `site_id=null` selects objects without a site. */
const NULL_RELATION_VALUE = 'null';

/**
 * Reads NetBox-style filter parameters. Different parameters are ANDed; the
 * values of a repeated parameter are ORed (for the negated `__n…` lookups: the
 * row must match none of them). Empty values (`name=`) are skipped, as
 * django-filter skips them, so `name=` alone does not filter; `name__empty=true` does.
 * Parameters that are neither filters nor ignored are skipped silently, as NetBox
 * does, but a known field with a lookup its type lacks is an error.
 *
 * @throws FilterValidationError listing every problem by parameter name.
 */
export function parseFilters(query: QueryParameters, filterSet: FilterSet, options: ParseFiltersOptions): ParsedFilters {
  const ignored = new Set(options.ignore);
  const conditions: FilterCondition[] = [];
  const customFieldFilters: CustomFieldFilter[] = [];
  const problems: Record<string, string[]> = {};

  for (const [param, raw] of Object.entries(query)) {
    if (raw === undefined || ignored.has(param)) continue;
    const rawValues = Array.isArray(raw) ? raw : [raw];

    if (param.startsWith(CUSTOM_FIELD_PREFIX)) {
      const [name, lookup] = splitLookup(param.slice(CUSTOM_FIELD_PREFIX.length));
      if (name !== '') customFieldFilters.push({ name, lookup: lookup ?? 'exact', values: rawValues });
      continue;
    }

    const target = resolveParameter(param, filterSet);
    if (target === undefined) continue;
    const { field, lookup } = target;
    if (!(supportedLookups(field.type) as readonly string[]).includes(lookup)) {
      problems[param] = [`Unsupported lookup "${lookup}"`];
      continue;
    }
    const values = rawValues.filter((value) => value !== '').map((value) => (field.normalize ? field.normalize(value) : value));
    if (values.length === 0) continue;

    const result = buildCondition(field, lookup as FilterLookup, values);
    if ('condition' in result) conditions.push(result.condition);
    else problems[param] = result.problems;
  }

  if (Object.keys(problems).length > 0) throw new FilterValidationError(problems);
  return { conditions, customFieldFilters };
}

function splitLookup(param: string): [string, string | undefined] {
  const at = param.indexOf(LOOKUP_SEPARATOR);
  return at === -1 ? [param, undefined] : [param.slice(0, at), param.slice(at + LOOKUP_SEPARATOR.length)];
}

/** `Object.hasOwn` so that names like `constructor` are not found on the prototype. */
function resolveParameter(param: string, filterSet: FilterSet): { field: FilterField; lookup: string } | undefined {
  if (Object.hasOwn(filterSet, param)) return { field: filterSet[param], lookup: 'exact' };
  const [base, lookup] = splitLookup(param);
  if (lookup === undefined || !Object.hasOwn(filterSet, base)) return undefined;
  return { field: filterSet[base], lookup };
}

type BuildResult = { condition: FilterCondition } | { problems: string[] };

const TEXT_MATCH_BY_LOOKUP = {
  ie: 'iexact',
  nie: 'iexact',
  ic: 'icontains',
  nic: 'icontains',
  isw: 'istartswith',
  nisw: 'istartswith',
  iew: 'iendswith',
  niew: 'iendswith',
} as const;

const OPERATOR_BY_LOOKUP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function buildCondition(field: FilterField, lookup: FilterLookup, rawValues: string[]): BuildResult {
  const negated = lookup === 'n' || lookup === 'nic' || lookup === 'nie' || lookup === 'nisw' || lookup === 'niew';
  const valueType: FilterFieldType = lookup === 'empty' || lookup === 'isnull' ? { kind: 'boolean' } : field.type;
  const parsed = rawValues.map((raw) => parseValue(valueType, raw, lookup === 'exact' || lookup === 'n'));
  const problems = [...new Set(parsed.flatMap((result) => ('problem' in result ? [result.problem] : [])))];
  if (problems.length > 0) return { problems };
  const values = parsed.flatMap((result) => ('value' in result ? [result.value] : []));

  let match: FilterMatch;
  switch (lookup) {
    case 'exact':
    case 'n':
      match = {
        kind: 'equals',
        values: values.filter((value): value is FilterScalar => value !== null),
        orNull: values.includes(null),
      };
      break;
    case 'ie':
    case 'nie':
    case 'ic':
    case 'nic':
    case 'isw':
    case 'nisw':
    case 'iew':
    case 'niew':
      match = { kind: TEXT_MATCH_BY_LOOKUP[lookup], values: values as string[] };
      break;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      match = { kind: 'compare', operator: OPERATOR_BY_LOOKUP[lookup], values: values as FilterScalar[] };
      break;
    case 'isnull':
      match = { kind: 'isnull', values: values as boolean[] };
      break;
    case 'empty':
      match = {
        kind: 'empty',
        values: values as boolean[],
        blankIsEmpty: field.type.kind === 'string' || field.type.kind === 'choice',
      };
      break;
  }
  return { condition: { column: field.column, negated, match } };
}

type ValueResult = { value: FilterScalar | null } | { problem: string };

const INTEGER = /^-?\d+$/;
const POSITIVE_INTEGER = /^[1-9]\d*$/;
const MAX_RELATION_ID = 2_147_483_647;
const MIN_DATABASE_INTEGER = -2_147_483_648;
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;
const BOOLEAN = /^(true|false|1|0)$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601 as Django's DateTimeField accepts it: a date alone, `T` or space, optional seconds, fraction and offset. */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

function parseValue(type: FilterFieldType, raw: string, acceptsNull: boolean): ValueResult {
  switch (type.kind) {
    case 'string':
      return { value: raw };
    case 'integer':
      if (!INTEGER.test(raw)) return { problem: 'Enter a whole number.' };
      return type.big ? safeInteger(raw) : databaseInteger(raw);
    case 'decimal':
      return DECIMAL.test(raw) ? { value: raw } : { problem: 'Enter a number.' };
    case 'boolean':
      return BOOLEAN.test(raw)
        ? { value: ['true', '1'].includes(raw.toLowerCase()) }
        : { problem: `"${raw}" is not a valid boolean; use true, false, 1 or 0.` };
    case 'date':
      return isValidDate(raw) ? { value: raw } : { problem: 'Enter a valid date.' };
    case 'datetime':
      return isValidDateTime(raw) ? { value: raw } : { problem: 'Enter a valid date/time.' };
    case 'choice':
      return type.choices.includes(raw)
        ? { value: raw }
        : { problem: `Select a valid choice. ${raw} is not one of the available choices.` };
    case 'relation':
      if (acceptsNull && raw === NULL_RELATION_VALUE) return { value: null };
      // Keys are 4-byte serials: a larger id cannot exist, and PostgreSQL would refuse to compare it.
      if (!POSITIVE_INTEGER.test(raw) || Number(raw) > MAX_RELATION_ID) return { problem: `"${raw}" is not a valid value.` };
      return { value: Number(raw) };
  }
}

/** A PostgreSQL `integer` column: comparing it with a larger value is an error, not a miss. */
function databaseInteger(raw: string): ValueResult {
  const value = Number(raw);
  if (value < MIN_DATABASE_INTEGER) return { problem: `Ensure this value is greater than or equal to ${MIN_DATABASE_INTEGER}.` };
  if (value > MAX_RELATION_ID) return { problem: `Ensure this value is less than or equal to ${MAX_RELATION_ID}.` };
  return { value };
}

/** Beyond 2^53 a JS number would silently round to a different id. */
function safeInteger(raw: string): ValueResult {
  const value = Number(raw);
  return Number.isSafeInteger(value)
    ? { value }
    : { problem: `Ensure this value is between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.` };
}

function isValidDate(raw: string): boolean {
  const parts = DATE.exec(raw);
  return parts !== null && isCalendarDate(parts[1], parts[2], parts[3]);
}

function isValidDateTime(raw: string): boolean {
  const parts = DATETIME.exec(raw);
  if (parts === null || !isCalendarDate(parts[1], parts[2], parts[3])) return false;
  const [hour, minute, second, offsetHours, offsetMinutes] = parts.slice(4).map((part) => Number(part ?? 0));
  return hour < 24 && minute < 60 && second < 60 && offsetHours < 24 && offsetMinutes < 60;
}

/**
 * Rejects dates the pattern allows but the calendar does not, such as 2023-02-30,
 * and year 0, which PostgreSQL lacks (it would fail the query instead of the parameter).
 */
function isCalendarDate(year: string, month: string, day: string): boolean {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  return (
    Number(year) >= 1 &&
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  );
}
