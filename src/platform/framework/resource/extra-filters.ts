import { MAX_OBJECT_ID } from './field-input';
import type { ExtraFilter } from './resource-declaration';

/**
 * What is wrong with the values of an id filter (`device_id=…`), or undefined when each is an id:
 * digits without a leading zero, at most {@link MAX_OBJECT_ID}. A larger number names nothing, and bound
 * to an integer column it would fail the query instead of matching nothing.
 */
export function idFilterProblem(values: readonly string[]): string | undefined {
  if (values.some((value) => !/^[1-9]\d{0,9}$/.test(value))) return 'Enter a whole number.';
  if (values.some((value) => Number(value) > MAX_OBJECT_ID)) return `Ensure this value is less than or equal to ${MAX_OBJECT_ID}.`;
  return undefined;
}

/** `<name>=true|false`: whether a column is set, e.g. NetBox's `cabled` (the port's cable) or fms's `has_front_port_a`. */
export function columnIsSetFilter(column: string): ExtraFilter {
  return (values, alias) => {
    const wanted = values.at(-1)!.toLowerCase();
    if (!['true', 'false', '1', '0'].includes(wanted)) return { problem: `"${values.at(-1)}" is not a valid boolean; use true or false.` };
    return { where: `${alias}.${column} IS ${wanted === 'true' || wanted === '1' ? 'NOT NULL' : 'NULL'}`, params: {} };
  };
}

/**
 * A filter through another table: rows whose `column` is among the ids `select` answers for the
 * values (`provider_id=3` on virtual circuits: their provider network's provider). `select` is SQL
 * with `:values` standing for the list; `key: 'id'` checks each value is an id first.
 */
export function throughFilter(column: string, select: string, key: 'id' | 'text' = 'id'): ExtraFilter {
  return (values, alias, prefix) => {
    const problem = key === 'id' ? idFilterProblem(values) : undefined;
    if (problem) return { problem };
    return {
      where: `${alias}."${column}" IN (${select.replaceAll(':values', `:...${prefix}`)})`,
      params: { [prefix]: key === 'id' ? values.map(Number) : values },
    };
  };
}
