import { FieldSpec } from './fields';

/** A parsed value, or the NetBox/DRF message explaining why it was refused. */
export type ParsedInput = { value: unknown } | { problem: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;
/** Keys and plain integer columns are PostgreSQL `integer`s. */
export const MAX_OBJECT_ID = 2_147_483_647;

/** Reads one scalar field's written value as DRF's serializer fields would. Relations are read elsewhere. */
export function parseScalarInput(field: FieldSpec, raw: unknown): ParsedInput {
  if (raw === null) return acceptsNull(field) ? { value: null } : { problem: 'This field may not be null.' };
  switch (field.kind) {
    case 'text': {
      if (field.parse) return field.parse(raw);
      if (typeof raw !== 'string' && typeof raw !== 'number') return { problem: 'Not a valid string.' };
      const value = String(raw);
      if (value.trim() === '' && field.required) return { problem: 'This field may not be blank.' };
      // Characters as PostgreSQL's varchar counts them (code points), not UTF-16 units.
      if (field.maxLength !== undefined && [...value].length > field.maxLength) {
        return { problem: `Ensure this field has no more than ${field.maxLength} characters.` };
      }
      if (value !== '' && field.pattern && !field.pattern.regex.test(value)) return { problem: field.pattern.message };
      return { value };
    }
    case 'integer': {
      const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return { problem: 'A valid integer is required.' };
      // Without declared bounds, what the column holds: a `bigint` takes any safe integer.
      const [min, max] = field.big ? [field.min, field.max] : [field.min ?? -MAX_OBJECT_ID - 1, field.max ?? MAX_OBJECT_ID];
      return checkRange(value, min, max);
    }
    case 'decimal': {
      const value = typeof raw === 'string' && DECIMAL.test(raw.trim()) ? Number(raw) : raw;
      if (typeof value !== 'number' || !Number.isFinite(value)) return { problem: 'A valid number is required.' };
      const written = typeof raw === 'string' ? raw.trim() : String(value);
      const places = /\.(\d+)$/.exec(written)?.[1].replace(/0+$/, '').length ?? 0;
      if (!/e/i.test(written) && places > field.scale) {
        return { problem: `Ensure that there are no more than ${field.scale} decimal places.` };
      }
      const [whole] = Math.abs(value).toFixed(field.scale).split('.');
      if (whole.replace(/^0+/, '').length > field.precision - field.scale) {
        return { problem: `Ensure that there are no more than ${field.precision - field.scale} digits before the decimal point.` };
      }
      return checkRange(value, field.min, field.max);
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { value: raw };
      if (raw === 'true' || raw === 'True' || raw === 1 || raw === '1') return { value: true };
      if (raw === 'false' || raw === 'False' || raw === 0 || raw === '0') return { value: false };
      return { problem: 'Must be a valid boolean.' };
    case 'choice': {
      if (field.numeric && typeof raw === 'number') return parseScalarInput(field, String(raw));
      if (typeof raw !== 'string') return { problem: `"${String(raw)}" is not a valid choice.` };
      if (raw === '' && field.blank) return { value: '' };
      return field.choices.some((entry) => entry.value === raw) ? { value: raw } : { problem: `"${raw}" is not a valid choice.` };
    }
    case 'date':
      if (typeof raw !== 'string' || !isIsoDate(raw)) {
        return { problem: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.' };
      }
      return { value: raw };
    case 'datetime':
      if (typeof raw !== 'string' || !isIsoDateTime(raw)) {
        return { problem: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].' };
      }
      return { value: new Date(raw) };
    case 'json': {
      const value = field.parse ? field.parse(raw) : raw;
      const problems = field.validate?.(value) ?? [];
      return problems.length > 0 ? { problem: problems.join(' ') } : { value };
    }
    case 'string-list': {
      if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string')) return { problem: 'Expected a list of strings.' };
      if (field.required && raw.length === 0) return { problem: 'This list may not be empty.' };
      for (const item of raw as string[]) {
        if (field.choices && !field.choices.includes(item)) return { problem: `"${item}" is not a valid choice.` };
        if (field.itemPattern && !field.itemPattern.regex.test(item)) return { problem: field.itemPattern.message };
      }
      return { value: [...new Set(raw as string[])] };
    }
    case 'relation':
    case 'many':
    case 'generic':
      throw new Error(`${field.kind} fields are not scalars`);
  }
}

/** `YYYY-MM-DD` naming a day the calendar has (`Date.parse` would roll 2023-02-30 over to March). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number);
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** ISO 8601 date and time on a real calendar day. */
export function isIsoDateTime(value: string): boolean {
  return ISO_DATETIME.test(value) && isIsoDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

function acceptsNull(field: FieldSpec): boolean {
  switch (field.kind) {
    case 'text':
    case 'integer':
    case 'decimal':
      return field.nullable === true;
    case 'date':
    case 'datetime':
      return field.nullable ?? (!field.required && field.default === undefined);
    case 'json':
      return field.nullable ?? true;
    default:
      return false;
  }
}

function checkRange(value: number, min: number | undefined, max: number | undefined): ParsedInput {
  if (min !== undefined && value < min) return { problem: `Ensure this value is greater than or equal to ${min}.` };
  if (max !== undefined && value > max) return { problem: `Ensure this value is less than or equal to ${max}.` };
  return { value };
}

/** A related object written as `5`, `"5"` or `{"id": 5}`; undefined when it is none of those. */
export function readObjectId(raw: unknown): number | undefined {
  const candidate = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as { id?: unknown }).id : raw;
  const id = typeof candidate === 'string' && /^[1-9]\d{0,9}$/.test(candidate) ? Number(candidate) : candidate;
  // Ids are 4-byte serials: a larger number names nothing (and PostgreSQL would refuse to compare it).
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 && id <= MAX_OBJECT_ID ? id : undefined;
}
