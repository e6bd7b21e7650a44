import type { ExtraFilter } from './resource-declaration';

/** `<name>=true|false`: whether a column is set, e.g. NetBox's `cabled` (the port's cable) or fms's `has_front_port_a`. */
export function columnIsSetFilter(column: string): ExtraFilter {
  return (values, alias) => {
    const wanted = values.at(-1)!.toLowerCase();
    if (!['true', 'false', '1', '0'].includes(wanted)) return { problem: `"${values.at(-1)}" is not a valid boolean; use true or false.` };
    return { where: `${alias}.${column} IS ${wanted === 'true' || wanted === '1' ? 'NOT NULL' : 'NULL'}`, params: {} };
  };
}
