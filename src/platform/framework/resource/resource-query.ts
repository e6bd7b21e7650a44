import { Injectable } from '@nestjs/common';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { directQuery } from '../../../common/database/prepared-query';
import type { Restriction } from '../permissions/object-permissions';
import { constraintsToSql } from '../permissions/permission-constraints';
import { FilterSet } from '../query/filter-fields';
import { FilterValidationError, parseFilters, QueryParameters } from '../query/filter-parser';
import { escapeLike, toSql } from '../query/filter-sql';
import { OrderingTerm, parseOrdering } from '../query/ordering';
import { lastValue } from '../query/pagination';
import { customFieldFilterSet } from './custom-field-filters';
import { columnFields, quoteIdentifier, ResourceDefinition, ResourceRow } from './resource-definition';
import { FieldErrors } from './resource-errors';
import { filterSetOf, naturalKeyOf, orderingColumnsOf, qualified, ROW_ALIAS, searchColumnsOf } from './resource-filters';
import { ResourceRegistry } from './resource-registry';
import { normalizeRow, selectList } from './resource-rows';
import { ResourceSerializer, TAG_TABLE, TAGGED_ITEM_TABLE } from './resource-serializer';

/** Query parameters that are not filters of any resource. */
const NON_FILTER_PARAMETERS = [
  'limit',
  'offset',
  'ordering',
  'brief',
  'q',
  'format',
  'fields',
  'exclude',
  'tag',
  'tag_id',
  'tag__n',
  'tag_id__n',
];

/** The page query's column holding the list's total, beside the rows' own columns. */
const PAGE_TOTAL_COLUMN = '__list_total';

/** One page of a list, and how many rows the list has in all. */
export interface ListPage {
  total: number;
  rows: ResourceRow[];
}

/**
 * How a resource's rows are read: the list filters (NetBox's lookups, `q`, tags, custom fields, extra
 * filters) and a permission's constraints as one query, the ordering, a list's page with its total,
 * and rows by id or condition.
 */
@Injectable()
export class ResourceQuery {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly serializer: ResourceSerializer,
  ) {}

  async filteredQuery(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    restriction: Restriction,
  ): Promise<SelectQueryBuilder<Record<string, unknown>>> {
    const filterSet = filterSetOf(definition);
    const parsed = parseFilters(query, filterSet, { ignore: NON_FILTER_PARAMETERS });
    await this.assertKnownReferences(manager, definition, query);
    const builder = manager.createQueryBuilder().from(definition.table, ROW_ALIAS) as SelectQueryBuilder<Record<string, unknown>>;
    let parameterIndex = 0;
    const filters = toSql(parsed.conditions, parameterIndex);
    parameterIndex += Object.keys(filters.params).length;
    builder.where(filters.where, filters.params);

    if (parsed.customFieldFilters.length > 0 && definition.standardAttributes.customFields) {
      const cfSet: FilterSet = customFieldFilterSet(await this.serializer.customFieldsFor(manager, definition.objectType));
      const cfQuery: QueryParameters = {};
      for (const filter of parsed.customFieldFilters) {
        cfQuery[filter.lookup === 'exact' ? filter.name : `${filter.name}__${filter.lookup}`] = filter.values;
      }
      let cfConditions;
      try {
        cfConditions = parseFilters(cfQuery, cfSet, { ignore: [] });
      } catch (error) {
        if (!(error instanceof FilterValidationError)) throw error;
        // Report problems under the parameter the client sent (`cf_<name>…`).
        throw new FilterValidationError(
          Object.fromEntries(Object.entries(error.problems).map(([param, messages]) => [`cf_${param}`, messages])),
        );
      }
      const cfSql = toSql(cfConditions.conditions, parameterIndex);
      parameterIndex += Object.keys(cfSql.params).length;
      builder.andWhere(cfSql.where, cfSql.params);
    }

    for (const [param, filter] of Object.entries(definition.extraFilters ?? {})) {
      const raw = query[param];
      const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((value) => value !== '');
      if (values.length === 0) continue;
      const result = filter(values, ROW_ALIAS, `x${parameterIndex++}`);
      if ('problem' in result) throw new FilterValidationError({ [param]: [result.problem] });
      builder.andWhere(result.where, result.params);
    }

    const q = lastValue(query.q);
    const searchColumns = searchColumnsOf(definition);
    if (q && q.trim() !== '' && searchColumns.length > 0) {
      builder.andWhere(`(${searchColumns.map((column) => `${column} ILIKE :q ESCAPE '\\'`).join(' OR ')})`, {
        q: `%${escapeLike(q.trim())}%`,
      });
    }
    if (definition.standardAttributes.tags) this.applyTagFilters(builder, definition, query);

    if (restriction.kind === 'some') {
      try {
        const constraint = constraintsToSql(restriction.sets, filterSet, parameterIndex);
        builder.andWhere(constraint.where, constraint.params);
      } catch {
        // A permission whose constraints no longer fit the model grants nothing.
        builder.andWhere('1=0');
      }
    }
    return builder;
  }

  /** The page of the filtered list within the restriction, in `ordering`, with the list's total. */
  async page(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    restriction: Restriction,
    ordering: readonly OrderingTerm[],
    pagination: { limit: number; offset: number },
  ): Promise<ListPage> {
    const base = await this.filteredQuery(manager, definition, query, restriction);
    const count = base.clone().select('COUNT(*)::int', 'count');
    // The page's rows are chosen first and only they are formatted: formatting every matching row
    // before the sort (the timestamps of all 864 strands of a cable, for a page of 50) cost more than
    // the rest of the statement.
    const chosen = base.clone().select(`${ROW_ALIAS}.*`);
    for (const term of ordering) chosen.addOrderBy(term.column, term.direction);
    const page = manager
      .createQueryBuilder()
      .select(selectList(definition, ROW_ALIAS))
      // The total travels with each row of the page (evaluated once, as an init plan): one round trip for both.
      .addSelect(`(${count.getQuery()})`, PAGE_TOTAL_COLUMN)
      .from(`(${chosen.getQuery()} LIMIT :pageLimit OFFSET :pageOffset)`, ROW_ALIAS)
      .setParameters({ ...base.getParameters(), pageLimit: pagination.limit, pageOffset: pagination.offset });
    for (const term of ordering) page.addOrderBy(term.column, term.direction);
    const [text, values] = page.getQueryAndParameters();
    const raws = await directQuery<Record<string, unknown>>(manager, text, values);
    // No row carries the total of an empty list (0) or of a page past its end (asked for on its own).
    let total = 0;
    if (raws.length > 0) total = raws[0][PAGE_TOTAL_COLUMN] as number;
    else if (pagination.offset > 0) total = ((await count.getRawOne()) as { count: number }).count;
    return { total, rows: raws.map((raw) => normalizeRow(definition, raw, PAGE_TOTAL_COLUMN)) };
  }

  ordering(definition: ResourceDefinition, query: QueryParameters): OrderingTerm[] {
    const allowed = orderingColumnsOf(definition);
    const fallback = definition.ordering.map((name) => {
      const descending = name.startsWith('-');
      return { column: allowed[descending ? name.slice(1) : name], direction: descending ? 'DESC' : 'ASC' } as OrderingTerm;
    });
    // Each column once, its first mention deciding the direction: the query builders keep one
    // direction per column, so a later mention (the `id` tie-break after `-id`) would replace it.
    const terms: OrderingTerm[] = [];
    for (const term of [...parseOrdering(query.ordering, allowed, fallback), { column: qualified('id'), direction: 'ASC' } as const]) {
      if (!terms.some((kept) => kept.column === term.column)) terms.push(term);
    }
    return terms;
  }

  /** Rows matching `where`, in id order; with `lock`, locked FOR UPDATE in that order (rows deleted meanwhile are left out). */
  async rowsWhere(
    manager: EntityManager,
    definition: ResourceDefinition,
    where: string,
    params: unknown[],
    options: { lock?: boolean } = {},
  ): Promise<ResourceRow[]> {
    const raws = (await manager.query(
      `SELECT ${selectList(definition, ROW_ALIAS)} FROM ${quoteIdentifier(definition.table)} ${ROW_ALIAS} WHERE ${where} ORDER BY ${ROW_ALIAS}.id${options.lock ? ` FOR UPDATE OF ${ROW_ALIAS}` : ''}`,
      params,
    )) as Array<Record<string, unknown>>;
    return raws.map((raw) => normalizeRow(definition, raw));
  }

  loadRows(manager: EntityManager, definition: ResourceDefinition, ids: number[]): Promise<ResourceRow[]> {
    return this.rowsWhere(manager, definition, `${ROW_ALIAS}.id = ANY($1)`, [ids]);
  }

  /**
   * Filters naming related objects by slug (`tenant=acme`, `tag=gold`), or by id where declared
   * `filterById` (`closure=5`), must name existing ones, as NetBox's model-choice filters answer an
   * unknown value with 400 rather than an empty list.
   */
  private async assertKnownReferences(manager: EntityManager, definition: ResourceDefinition, query: QueryParameters): Promise<void> {
    const checks: Array<{ param: string; table: string; column: string }> = [];
    for (const { name, field } of columnFields(definition)) {
      if (field.kind !== 'relation' || field.noFilter) continue;
      const target = field.target();
      const column = field.filterById ? 'id' : naturalKeyOf(target);
      if (column) checks.push({ param: name, table: target.table, column }, { param: `${name}__n`, table: target.table, column });
    }
    if (definition.standardAttributes.tags)
      checks.push({ param: 'tag', table: TAG_TABLE, column: 'slug' }, { param: 'tag__n', table: TAG_TABLE, column: 'slug' });
    const problems: FieldErrors = {};
    for (const check of checks) {
      const raw = query[check.param];
      const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((value) => value !== '' && value !== 'null');
      if (values.length === 0) continue;
      const found = (await manager.query(
        `SELECT ${quoteIdentifier(check.column)}::text AS value FROM ${quoteIdentifier(check.table)} WHERE ${quoteIdentifier(check.column)} = ANY($1)`,
        [values],
      )) as Array<{ value: string }>;
      const known = new Set(found.map((row) => row.value));
      const unknown = values.find((value) => !known.has(value));
      if (unknown !== undefined) problems[check.param] = [`Select a valid choice. ${unknown} is not one of the available choices.`];
    }
    if (Object.keys(problems).length > 0) throw new FilterValidationError(problems);
  }

  /** `tag=<slug>` repeated means all of them (NetBox's conjoined tag filter); `tag__n` none of them. */
  private applyTagFilters(
    builder: SelectQueryBuilder<Record<string, unknown>>,
    definition: ResourceDefinition,
    query: QueryParameters,
  ): void {
    const tagged = (condition: string) =>
      `EXISTS (SELECT 1 FROM ${TAGGED_ITEM_TABLE} ti JOIN ${TAG_TABLE} t ON t.id = ti.tag_id
                WHERE ti.object_type_id = :tagObjectType AND ti.object_id = ${qualified('id')} AND ${condition})`;
    const values = (name: string) => {
      const raw = query[name];
      return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((value) => value !== '');
    };
    const problems: FieldErrors = {};
    const ids = (name: string) => {
      const list = values(name);
      if (list.some((value) => !/^[1-9]\d{0,9}$/.test(value))) problems[name] = ['Enter a whole number.'];
      return list.map(Number);
    };
    let index = 0;
    builder.setParameter('tagObjectType', this.registry.objectTypeId(definition.objectType));
    for (const slug of values('tag')) builder.andWhere(tagged(`t.slug = :tag${index}`), { [`tag${index++}`]: slug });
    for (const id of ids('tag_id')) builder.andWhere(tagged(`t.id = :tag${index}`), { [`tag${index++}`]: id });
    const excludedSlugs = values('tag__n');
    if (excludedSlugs.length > 0) builder.andWhere(`NOT ${tagged('t.slug IN (:...tagExcluded)')}`, { tagExcluded: excludedSlugs });
    const excludedIds = ids('tag_id__n');
    if (excludedIds.length > 0) builder.andWhere(`NOT ${tagged('t.id IN (:...tagIdExcluded)')}`, { tagIdExcluded: excludedIds });
    if (Object.keys(problems).length > 0) throw new FilterValidationError(problems);
  }
}
