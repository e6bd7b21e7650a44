import { EntityManager } from 'typeorm';
import { idFilterProblem } from './extra-filters';
import { relation, slug, text } from './fields';
import { defineResource, ExtraFilter, ResourceDeclaration, ResourceDefinition } from './resource-definition';

type Problems = Record<string, string[]>;

export type OrganizationalDeclaration = Omit<ResourceDeclaration, 'display' | 'brief' | 'ordering' | 'fields'> &
  Partial<Pick<ResourceDeclaration, 'display' | 'brief' | 'ordering' | 'fields'>> & {
    /** A `parent` of the same model (NetBox's nested groups: regions, tenant groups, …). */
    tree?: boolean;
  };

/**
 * NetBox's organizational models (manufacturers, roles, tenants, providers, RIRs, …): a unique
 * name and slug and a description before the model's own fields, displayed and ordered by name.
 * With `tree`, a `parent` of the same model that may not make a node its own ancestor.
 */
export function defineOrganizationalResource({ tree, fields, ...declaration }: OrganizationalDeclaration): ResourceDefinition {
  const definition: ResourceDefinition = defineResource({
    display: (row) => String(row.name),
    brief: ['name', 'slug', 'description'],
    ordering: ['name'],
    ...(tree ? { validateAsync: noParentCycle(declaration.table) } : {}),
    ...declaration,
    fields: {
      name: text({ maxLength: 100, required: true, unique: true, search: true }),
      slug: slug(),
      description: text({ maxLength: 200, search: true }),
      ...(tree ? { parent: relation(() => definition, { onDelete: 'CASCADE' }) } : {}),
      ...fields,
    },
  });
  return definition;
}

/**
 * Tree models (regions, site groups, locations, tenant and contact groups): an object may not become
 * its own ancestor (that would also make deleting it recurse forever).
 */
export function noParentCycle(table: string) {
  return async (manager: EntityManager, values: Record<string, unknown>): Promise<Problems> => {
    if (values.parent_id == null || values.id === undefined) return {};
    const [found] = (await manager.query(
      `WITH RECURSIVE ancestors(id, parent_id) AS (
         SELECT id, parent_id FROM ${table} WHERE id = $1
         UNION SELECT t.id, t.parent_id FROM ${table} t JOIN ancestors a ON t.id = a.parent_id)
       SELECT 1 FROM ancestors WHERE id = $2 LIMIT 1`,
      [values.parent_id, values.id],
    )) as unknown[];
    return found ? { parent: ['An object cannot be its own ancestor.'] } : {};
  };
}

/**
 * A filter on a tree relation that also matches the descendants of the named nodes, as NetBox's
 * TreeNodeMultipleChoiceFilter (`region=europe` selects sites in every region below Europe).
 */
export function treeFilter(column: string, table: string, key: 'id' | 'slug'): ExtraFilter {
  return (values, alias, prefix) => {
    // `region_id=null` selects the objects without one, as NetBox's null choice does.
    const wantsNull = values.includes('null');
    const named = values.filter((value) => value !== 'null');
    const problem = key === 'id' ? idFilterProblem(named) : undefined;
    if (problem) return { problem };
    const terms = wantsNull ? [`${alias}."${column}" IS NULL`] : [];
    if (named.length > 0) {
      terms.push(`${alias}."${column}" IN (WITH RECURSIVE tree(id) AS (
                   SELECT id FROM ${table} WHERE ${key} IN (:...${prefix})
                   UNION SELECT t.id FROM ${table} t JOIN tree ON t.parent_id = tree.id)
                 SELECT id FROM tree)`);
    }
    return { where: `(${terms.join(' OR ')})`, params: named.length > 0 ? { [prefix]: key === 'id' ? named.map(Number) : named } : {} };
  };
}
