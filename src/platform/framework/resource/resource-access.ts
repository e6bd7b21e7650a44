import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../../common/auth/principal';
import { directQuery, preparedQuery } from '../../../common/database/prepared-query';
import { ForbiddenError, NotFoundError } from '../../../common/errors/common-errors';
import { ObjectPermissions, Restriction } from '../permissions/object-permissions';
import type { QueryParameters } from '../query/filter-parser';
import type { VisibleSelection } from './resource-declaration';
import { quoteIdentifier, ResourceDefinition, ResourceRow } from './resource-definition';
import { qualified, ROW_ALIAS } from './resource-filters';
import { ListPage, ResourceQuery } from './resource-query';
import { normalizeRow, selectList } from './resource-rows';

/** An object-permission action: `view`, `add`, `change`, `delete`, or a custom one such as `approve`. */
export type PermissionAction = string;

/**
 * What the caller may do, by object permissions: an action it holds on no object is a 403; an
 * object outside the permission used does not exist for it (404), or may not be left so after a
 * write (403).
 */
@Injectable()
export class ResourceAccess {
  constructor(
    private readonly dataSource: DataSource,
    private readonly permissions: ObjectPermissions,
    private readonly queries: ResourceQuery,
  ) {}

  /** 403 unless the caller holds the object permission `action` on the model (in some measure: the restriction tells which objects). */
  async requirePermission(objectType: string, principal: Principal, action: PermissionAction): Promise<Restriction> {
    const restriction = await this.permissions.restriction(this.dataSource.manager, principal, objectType, action);
    if (restriction.kind === 'none') throw new ForbiddenError('You do not have permission to perform this action.', 'permission_denied');
    return restriction;
  }

  /** {@link requirePermission} on a model's own object type. */
  requireAction(definition: ResourceDefinition, principal: Principal, action: PermissionAction): Promise<Restriction> {
    return this.requirePermission(definition.objectType, principal, action);
  }

  /**
   * A page of the REST list: what the caller may view under the list filters `query`, in the list's
   * ordering, with the total; null when it may view nothing of the model. The ordering is checked
   * first: a bad one is a 400 whoever asks.
   */
  async visiblePage(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    principal: Principal,
    pagination: { limit: number; offset: number },
  ): Promise<ListPage | null> {
    const ordering = this.queries.ordering(definition, query);
    const restriction = await this.permissions.restriction(manager, principal, definition.objectType, 'view');
    if (restriction.kind === 'none') return null;
    return this.queries.page(manager, definition, query, restriction, ordering, pagination);
  }

  /** Rows the caller may view, for other readers such as GraphQL; filters as on the REST list. */
  async visibleRows(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    principal: Principal,
    pagination: { limit: number; offset: number },
    columns?: readonly string[],
  ): Promise<ResourceRow[]> {
    const page = await this.visibleQuery(manager, definition, query, principal);
    if (!page) return [];
    page.select(selectList(definition, ROW_ALIAS, columns));
    for (const term of this.queries.ordering(definition, query)) page.addOrderBy(term.column, term.direction);
    const raws = (await page.offset(pagination.offset).limit(pagination.limit).getRawMany()) as Array<Record<string, unknown>>;
    return raws.map((raw) => normalizeRow(definition, raw));
  }

  /** How many rows the caller may view under the list filters `query`. */
  async countVisible(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    principal: Principal,
  ): Promise<number> {
    const rows = await this.visibleQuery(manager, definition, query, principal);
    if (!rows) return 0;
    const total = (await rows.select('COUNT(*)::int', 'count').getRawOne()) as { count: number };
    return total.count;
  }

  /** Rows the caller may view under the list filters `query`, as `selection` selects them. */
  async selectVisible(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    principal: Principal,
    selection: VisibleSelection,
  ): Promise<Array<Record<string, unknown>>> {
    const builder = await this.visibleQuery(manager, definition, query, principal);
    if (!builder) return [];
    builder.select(
      Object.entries(selection.select(ROW_ALIAS))
        .map(([name, expression]) => `${expression} AS ${quoteIdentifier(name)}`)
        .join(', '),
    );
    for (const join of selection.joins ?? []) builder.leftJoin(join.table, join.alias, join.on(ROW_ALIAS));
    if (selection.where) builder.andWhere(selection.where(ROW_ALIAS));
    if (selection.page) {
      for (const term of this.queries.ordering(definition, query)) builder.addOrderBy(term.column, term.direction);
      builder.offset(selection.page.offset).limit(selection.page.limit);
    }
    // Straight on the pool (or the transaction's connection): a layer's 2000 rows pass no TypeORM result handling.
    const [text, values] = builder.getQueryAndParameters();
    return (selection.prepared ? preparedQuery : directQuery)<Record<string, unknown>>(manager, text, values);
  }

  /** The list query of what the caller may view under `query`, before its select list; null when it may view nothing. */
  private async visibleQuery(manager: EntityManager, definition: ResourceDefinition, query: QueryParameters, principal: Principal) {
    const restriction = await this.permissions.restriction(manager, principal, definition.objectType, 'view');
    return restriction.kind === 'none' ? null : this.queries.filteredQuery(manager, definition, query, restriction);
  }

  /** The row if the caller may view it, else 404 (what may not be seen does not exist). */
  async visibleRow(manager: EntityManager, definition: ResourceDefinition, id: number, principal: Principal): Promise<ResourceRow> {
    return this.permittedRow(
      manager,
      definition,
      id,
      await this.permissions.restriction(manager, principal, definition.objectType, 'view'),
    );
  }

  /** The row if it lies within the restriction of the action at hand, else 404. */
  async permittedRow(manager: EntityManager, definition: ResourceDefinition, id: number, restriction: Restriction): Promise<ResourceRow> {
    if (restriction.kind !== 'none') {
      const builder = (await this.queries.filteredQuery(manager, definition, {}, restriction))
        .select(selectList(definition, ROW_ALIAS))
        .andWhere(`${qualified('id')} = :objectId`, { objectId: id });
      // Straight on the pool (or the transaction's connection), as lists read: one row needs no TypeORM result handling.
      const [text, values] = builder.getQueryAndParameters();
      const [raw] = await directQuery<Record<string, unknown>>(manager, text, values);
      if (raw) return normalizeRow(definition, raw);
    }
    throw new NotFoundError('Not found.');
  }

  /** Whether the principal holds `action` on one object, its permission's constraints included. */
  async permits(
    manager: EntityManager,
    definition: ResourceDefinition,
    action: PermissionAction,
    id: number,
    principal: Principal,
  ): Promise<boolean> {
    const restriction = await this.permissions.restriction(manager, principal, definition.objectType, action);
    if (restriction.kind !== 'some') return restriction.kind === 'all';
    return (await this.permittedIds(manager, definition, action, [id], principal)).has(id);
  }

  /**
   * Which of these objects (existing ones only) the principal holds `action` on, its permission's
   * constraints included; `existing` when the caller knows they all exist, which spares an
   * unconstrained permission the statement.
   */
  async permittedIds(
    manager: EntityManager,
    definition: ResourceDefinition,
    action: PermissionAction,
    ids: readonly number[],
    principal: Principal,
    options: { existing?: boolean } = {},
  ): Promise<Set<number>> {
    const restriction = await this.permissions.restriction(manager, principal, definition.objectType, action);
    if (restriction.kind === 'none' || ids.length === 0) return new Set();
    if (restriction.kind === 'all' && options.existing) return new Set(ids);
    const builder = (await this.queries.filteredQuery(manager, definition, {}, restriction))
      .select(qualified('id'), 'id')
      .andWhere(`${qualified('id')} = ANY(:objectIds)`, { objectIds: [...ids] });
    const found = (await builder.getRawMany()) as Array<{ id: number }>;
    return new Set(found.map((row) => Number(row.id)));
  }

  /** The object (before or after the change) must satisfy the constraints of the permission used. */
  async assertWithinConstraints(
    manager: EntityManager,
    definition: ResourceDefinition,
    id: number,
    restriction: Restriction,
    action: PermissionAction,
  ): Promise<void> {
    if (restriction.kind !== 'some') return;
    const builder = (await this.queries.filteredQuery(manager, definition, {}, restriction))
      .select('1', 'found')
      .andWhere(`${qualified('id')} = :objectId`, { objectId: id });
    if (!(await builder.getRawOne())) {
      throw new ForbiddenError(`You do not have permission to ${action} this ${definition.verboseName}.`, 'permission_denied');
    }
  }
}
