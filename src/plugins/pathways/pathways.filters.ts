import { type ExtraFilter, idFilterProblem } from '../../platform/plugin-api';

/** Reads `true|false|1|0` (the last value given), or answers the problem. */
function booleanValue(values: string[]): boolean | { problem: string } {
  const wanted = values.at(-1)!.toLowerCase();
  if (!['true', 'false', '1', '0'].includes(wanted)) return { problem: `"${values.at(-1)}" is not a valid boolean; use true or false.` };
  return wanted === 'true' || wanted === '1';
}

/**
 * `occupied=true|false` on pathways (the base and every kind: a kind's row has its base row's id): a
 * pathway is occupied when a cable segment runs through it, through an innerduct in it, or, for a
 * bank, through one of its conduits or their innerducts.
 */
export const occupiedPathwayFilter: ExtraFilter = (values, alias) => {
  const wanted = booleanValue(values);
  if (typeof wanted !== 'boolean') return wanted;
  const occupied = `EXISTS (SELECT 1 FROM pathways_cablesegment s WHERE s.pathway_id = ${alias}.id
      OR s.pathway_id IN (SELECT i.id FROM pathways_innerduct i WHERE i.parent_conduit_id = ${alias}.id)
      OR s.pathway_id IN (SELECT c.id FROM pathways_conduit c WHERE c.conduit_bank_id = ${alias}.id)
      OR s.pathway_id IN (SELECT i.id FROM pathways_innerduct i JOIN pathways_conduit c ON c.id = i.parent_conduit_id
                          WHERE c.conduit_bank_id = ${alias}.id))`;
  return { where: wanted ? occupied : `NOT ${occupied}`, params: {} };
};

/** `occupied=true|false` on structures: whether a pathway ending at the structure carries a cable. */
export const occupiedStructureFilter: ExtraFilter = (values, alias) => {
  const wanted = booleanValue(values);
  if (typeof wanted !== 'boolean') return wanted;
  const occupied = `EXISTS (SELECT 1 FROM pathways_cablesegment s JOIN pathways_pathway p ON p.id = s.pathway_id
      WHERE p.start_structure_id = ${alias}.id OR p.end_structure_id = ${alias}.id)`;
  return { where: wanted ? occupied : `NOT ${occupied}`, params: {} };
};

/** `has_pathways=true|false` on structures: whether any pathway starts or ends there. */
export const hasPathwaysFilter: ExtraFilter = (values, alias) => {
  const wanted = booleanValue(values);
  if (typeof wanted !== 'boolean') return wanted;
  const has = `EXISTS (SELECT 1 FROM pathways_pathway p WHERE p.start_structure_id = ${alias}.id OR p.end_structure_id = ${alias}.id)`;
  return { where: wanted ? has : `NOT ${has}`, params: {} };
};

/**
 * `tenant_group=<slug>` / `tenant_group_id=<id>` (NetBox's TenancyFilterSet): rows whose tenant is in
 * one of the groups or in a group below one of them.
 */
export function tenantGroupFilter(key: 'id' | 'slug'): ExtraFilter {
  return (values, alias, prefix) => {
    const named = values.filter((value) => value !== 'null');
    const problem = key === 'id' ? idFilterProblem(named) : undefined;
    if (problem) return { problem };
    const terms = values.includes('null') ? [`${alias}.tenant_id IS NULL`] : [];
    if (named.length > 0)
      terms.push(`${alias}.tenant_id IN (SELECT t.id FROM tenancy_tenant t WHERE t.group_id IN (
        WITH RECURSIVE tree(id) AS (
          SELECT id FROM tenancy_tenantgroup WHERE ${key} IN (:...${prefix})
          UNION SELECT g.id FROM tenancy_tenantgroup g JOIN tree ON g.parent_id = tree.id)
        SELECT id FROM tree))`);
    return {
      where: terms.length > 0 ? `(${terms.join(' OR ')})` : 'FALSE',
      params: named.length > 0 ? { [prefix]: key === 'id' ? named.map(Number) : named } : {},
    };
  };
}
