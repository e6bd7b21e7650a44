import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../../common/auth/principal';
import { directQuery } from '../../../common/database/prepared-query';
import { violatedUniqueConstraint } from '../../../common/database/unique-violation';
import { ObjectPermissions, Restriction } from '../permissions/object-permissions';
import type { QueryParameters } from '../query/filter-parser';
import { lastValue, pageLinks, parsePagination } from '../query/pagination';
import { PermissionAction, ResourceAccess } from './resource-access';
import {
  AfterTransaction,
  type CollectionActionContext,
  type RequestScope,
  type ResourceAction,
  type ResourceCollectionAction,
} from './resource-declaration';
import { ResourceDefinition, ResourceRow } from './resource-definition';
import { ResourceDeleteCollector } from './resource-delete-collector';
import { nonFieldError } from './resource-errors';
import { ROW_ALIAS } from './resource-filters';
import { ResourceQuery } from './resource-query';
import { ResourceRegistry } from './resource-registry';
import { normalizeRow, selectList } from './resource-rows';
import { ResourceSerializer, SerializedObject } from './resource-serializer';
import { bulkItems, ResourceWriter } from './resource-writer';

export type { RequestScope } from './resource-declaration';

export interface ListEnvelope {
  count: number;
  next: string | null;
  previous: string | null;
  results: SerializedObject[];
}

const PAGINATION = { defaultLimit: 50, maxLimit: 1000 };
/** The page query's column holding the list's total, beside the rows' own columns. */
const PAGE_TOTAL_COLUMN = '__list_total';

/**
 * The behaviour of every platform resource: NetBox's list, retrieve, create, update and delete
 * (single and bulk, each atomic), restricted by object permissions, recorded in the change log and
 * published to event rules in the same transaction; and the models' and plugins' custom actions.
 * The parts live beside it: reading (ResourceQuery), permissions (ResourceAccess), writing
 * (ResourceWriter), deleting (ResourceDeleteCollector), recording changes (ResourceChangeRecorder).
 */
@Injectable()
export class ResourceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ResourceRegistry,
    private readonly serializer: ResourceSerializer,
    private readonly permissions: ObjectPermissions,
    private readonly queries: ResourceQuery,
    private readonly access: ResourceAccess,
    private readonly writer: ResourceWriter,
    private readonly collector: ResourceDeleteCollector,
  ) {}

  async list(definition: ResourceDefinition, query: QueryParameters, scope: RequestScope): Promise<ListEnvelope> {
    const manager = this.dataSource.manager;
    const pagination = parsePagination(query, PAGINATION);
    const ordering = this.queries.ordering(definition, query);
    const restriction = await this.permissions.restriction(manager, scope.principal, definition.objectType, 'view');
    if (restriction.kind === 'none') return { count: 0, next: null, previous: null, results: [] };

    const base = await this.queries.filteredQuery(manager, definition, query, restriction);
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
    const rows = raws.map((raw) => normalizeRow(definition, raw, PAGE_TOTAL_COLUMN));
    const results = await this.serializer.serialize(manager, definition, rows, isBrief(query) ? 'brief' : 'full', scope.baseUrl);
    return { count: total, ...pageLinks({ requestUrl: scope.requestUrl, count: total, ...pagination }), results };
  }

  async retrieve(definition: ResourceDefinition, id: number, query: QueryParameters, scope: RequestScope): Promise<SerializedObject> {
    const manager = this.dataSource.manager;
    const row = await this.access.visibleRow(manager, definition, id, scope.principal);
    const [object] = await this.serializer.serialize(manager, definition, [row], isBrief(query) ? 'brief' : 'full', scope.baseUrl);
    return object;
  }

  /** Rows the caller may view, for other readers such as GraphQL; filters as on the REST list. */
  visibleRows(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    principal: Principal,
    pagination: { limit: number; offset: number },
    columns?: readonly string[],
  ): Promise<ResourceRow[]> {
    return this.access.visibleRows(manager, definition, query, principal, pagination, columns);
  }

  /** POST: one object, or a list (bulk create). */
  async create(definition: ResourceDefinition, body: unknown, scope: RequestScope): Promise<SerializedObject | SerializedObject[]> {
    const items = Array.isArray(body) ? body : [body];
    if (items.length === 0) throw nonFieldError('Expected a non-empty list of objects.');
    const restriction = await this.access.requireAction(definition, scope.principal, 'add');
    const results = await this.writeTransaction(async (manager) => {
      const plans = await this.writer.readAll(manager, definition, items, () => null, { partial: false, bulk: Array.isArray(body), scope });
      const created: SerializedObject[] = [];
      for (const [index, plan] of plans.entries()) {
        const row = await this.writer.insertAndRecord(manager, definition, plan, scope, items[index], restriction);
        [created[index]] = await this.serializer.serialize(manager, definition, [row], 'full', scope.baseUrl);
      }
      return created;
    });
    return Array.isArray(body) ? results : results[0];
  }

  /** PATCH/PUT of one object (`id` given) or of a list of objects that each carry their id (bulk update). */
  async update(
    definition: ResourceDefinition,
    id: number | null,
    body: unknown,
    partial: boolean,
    scope: RequestScope,
  ): Promise<SerializedObject | SerializedObject[]> {
    const items = id === null ? bulkItems(body) : [{ id, data: body }];
    const restriction = await this.access.requireAction(definition, scope.principal, 'change');
    const results = await this.writeTransaction((manager) =>
      this.updateWithin(manager, definition, items, { partial, bulk: id === null }, scope, restriction),
    );
    return id === null ? results : results[0];
  }

  /** Updates objects within the caller's transaction: validation, hooks, constraints, change log; answers their representations. */
  private async updateWithin(
    manager: EntityManager,
    definition: ResourceDefinition,
    items: ReadonlyArray<{ id: number; data: unknown }>,
    options: { partial: boolean; bulk: boolean },
    scope: RequestScope,
    restriction: Restriction,
  ): Promise<SerializedObject[]> {
    const existing = new Map<number, ResourceRow>();
    // As NetBox: what may be changed is decided by the `change` permission alone (outside it: 404).
    for (const item of items) existing.set(item.id, await this.access.permittedRow(manager, definition, item.id, restriction));
    const prechanges = await this.serializer.snapshots(manager, definition, [...existing.values()]);
    const plans = await this.writer.readAll(
      manager,
      definition,
      items.map((item) => item.data),
      (index) => existing.get(items[index].id)!,
      { ...options, scope },
    );
    const updated: SerializedObject[] = [];
    for (const [index, item] of items.entries()) {
      const row = await this.writer.updateAndRecord(
        manager,
        definition,
        existing.get(item.id)!,
        plans[index],
        item.data,
        prechanges[index],
        scope,
        restriction,
      );
      [updated[index]] = await this.serializer.serialize(manager, definition, [row], 'full', scope.baseUrl);
    }
    return updated;
  }

  /** DELETE of one object, or of a list of `{id}` (bulk delete). */
  async delete(definition: ResourceDefinition, id: number | null, body: unknown, scope: RequestScope): Promise<void> {
    const ids = id === null ? bulkItems(body).map((item) => item.id) : [id];
    const restriction = await this.access.requireAction(definition, scope.principal, 'delete');
    await this.dataSource.transaction(async (manager) => {
      // Locked before they are read: of racing deletes of one object, each waits for the one before
      // it and then finds the object gone (404, nothing written), so it is deleted and recorded once.
      await this.collector.lockedRows(manager, definition, ids);
      const rows: ResourceRow[] = [];
      for (const objectId of ids) rows.push(await this.access.permittedRow(manager, definition, objectId, restriction));
      await this.collector.deleteRows(manager, definition, rows, scope, body);
    });
  }

  /**
   * A custom action on one object (`GET|POST /<list path>/{id}/<name>/`), allowed by the object
   * permission the action names (the object must lie within it); a POST runs in a transaction.
   */
  async runAction(
    definition: ResourceDefinition,
    action: ResourceAction,
    id: number,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
  ): Promise<unknown> {
    const restriction = await this.access.requireAction(definition, scope.principal, action.permission);
    return this.transactionFor(action.method, async (manager) => {
      const row = await this.access.permittedRow(manager, definition, id, restriction);
      return action.handle({ ...this.actionContext(manager, definition, body, query, scope), row });
    });
  }

  /**
   * A custom action on a model's list URL (`GET|POST /<list path>/<name>/`), allowed when the caller
   * holds the permission it names on the model; a POST runs in a transaction.
   */
  async runCollectionAction(
    definition: ResourceDefinition,
    action: ResourceCollectionAction,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
  ): Promise<unknown> {
    await this.access.requireAction(definition, scope.principal, action.permission);
    return this.transactionFor(action.method, (manager) => action.handle(this.actionContext(manager, definition, body, query, scope)));
  }

  /**
   * Runs plugin code that belongs to no one model (a plugin's route) as actions run: a POST in a
   * transaction (a unique violation answers 400), with the context an action gets. `owner` names the
   * code in errors that are the developer's.
   */
  runWithActionContext<T>(
    method: 'GET' | 'POST',
    owner: string,
    settings: Readonly<Record<string, unknown>>,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
    work: (context: CollectionActionContext) => Promise<T>,
  ): Promise<T> {
    return this.transactionFor(method, (manager) => work(this.codeContext(manager, owner, settings, body, query, scope)));
  }

  /** 403 unless the caller holds the object permission `action` on the model (in some measure: the restriction tells which objects). */
  requirePermission(objectType: string, principal: Principal, action: PermissionAction): Promise<Restriction> {
    return this.access.requirePermission(objectType, principal, action);
  }

  private actionContext(
    manager: EntityManager,
    definition: ResourceDefinition,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
  ): CollectionActionContext {
    return this.codeContext(manager, `an action of ${definition.objectType}`, this.registry.settingsOf(definition), body, query, scope);
  }

  private codeContext(
    manager: EntityManager,
    owner: string,
    settings: Readonly<Record<string, unknown>>,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
  ): CollectionActionContext {
    return {
      manager,
      body,
      query,
      scope,
      serializer: this.serializer,
      settings,
      visibleRows: (objectType, filters, page = { limit: PAGINATION.maxLimit, offset: 0 }, columns) =>
        this.visibleRows(manager, this.writer.servedDefinition(owner, objectType), filters, scope.principal, page, columns),
      countVisible: (objectType, filters) =>
        this.access.countVisible(manager, this.writer.servedDefinition(owner, objectType), filters, scope.principal),
      selectVisible: (objectType, filters, selection) =>
        this.access.selectVisible(manager, this.writer.servedDefinition(owner, objectType), filters, scope.principal, selection),
      permits: (objectType, action, id) =>
        this.access.permits(manager, this.writer.servedDefinition(owner, objectType), action, id, scope.principal),
      permittedIds: (objectType, action, ids) =>
        this.access.permittedIds(manager, this.writer.servedDefinition(owner, objectType), action, ids, scope.principal),
      served: (objectType) => this.writer.isServed(objectType),
      create: (objectType, items) => this.writer.createWithin(manager, this.writer.servedDefinition(owner, objectType), items, scope),
      update: async (objectType, id, body) => {
        const target = this.writer.servedDefinition(owner, objectType);
        const [updated] = await this.updateWithin(manager, target, [{ id, data: body }], { partial: true, bulk: false }, scope, {
          kind: 'all',
        });
        return updated;
      },
      remove: async (objectType, ids) => {
        const target = this.writer.servedDefinition(owner, objectType);
        await this.collector.deleteRows(manager, target, await this.collector.lockedRows(manager, target, ids), scope, undefined);
      },
    };
  }

  /**
   * A GET reads, as NetBox's GETs do, outside a transaction: under READ COMMITTED each statement
   * takes its own snapshot inside one as well, so a transaction would only add BEGIN and COMMIT.
   */
  /** An action's work, in a transaction for a POST; an {@link AfterTransaction} answer is finished once that has ended. */
  private async transactionFor<T>(method: 'GET' | 'POST', work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const answer = method === 'GET' ? await work(this.dataSource.manager) : await this.writeTransaction(work);
    return answer instanceof AfterTransaction ? ((await answer.finish()) as T) : answer;
  }

  /**
   * A transaction whose unique-constraint violation (two items of one bulk request, or a race with
   * another request, both past the uniqueness check) is a 400 like the check's own, not a 500.
   */
  private async writeTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      const constraint = violatedUniqueConstraint(error);
      if (constraint === undefined) throw error;
      throw nonFieldError(`An object with these values already exists (${constraint}).`);
    }
  }
}

function isBrief(query: QueryParameters): boolean {
  const value = lastValue(query.brief);
  return value !== undefined && ['true', '1', 'True'].includes(value);
}
