import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Principal } from '../../../common/auth/principal';
import { ForbiddenError, NotFoundError } from '../../../common/errors/common-errors';
import { constraintsToSql } from '../permissions/permission-constraints';
import { ObjectPermissions, Restriction } from '../permissions/object-permissions';
import { FilterSet } from '../query/filter-fields';
import { parseFilters, QueryParameters, FilterValidationError } from '../query/filter-parser';
import { toSql } from '../query/filter-sql';
import { parseOrdering, OrderingTerm } from '../query/ordering';
import { lastValue, pageLinks, parsePagination } from '../query/pagination';
import { escapeLike } from '../query/filter-sql';
import { violatedUniqueConstraint } from '../../../common/database/unique-violation';
import { ObjectEventSink } from './object-events';
import { customFieldFilterSet } from './custom-field-filters';
import { FieldErrors, nonFieldError, ProtectedObjectError, ResourceValidationError } from './resource-errors';
import { ChangeLogWriter } from './change-log.writer';
import { columnFields, genericColumns, joinTableOf, quoteIdentifier, ResourceDefinition, ResourceRow } from './resource-definition';
import { filterSetOf, naturalKeyOf, orderingColumnsOf, qualified, ROW_ALIAS, searchColumnsOf } from './resource-filters';
import { MAX_OBJECT_ID } from './field-input';
import { ResourceInputReader, WritePlan } from './resource-input.reader';
import type {
  CollectionActionContext,
  RequestScope,
  ResourceAction,
  ResourceCollectionAction,
  ResourceHookContext,
  ResourceHooks,
} from './resource-declaration';

export type { RequestScope } from './resource-declaration';
import { ResourceRegistry } from './resource-registry';
import { normalizeRow, selectList } from './resource-rows';
import { ResourceSerializer, SerializedObject, TAG_TABLE, TAGGED_ITEM_TABLE } from './resource-serializer';

export interface ListEnvelope {
  count: number;
  next: string | null;
  previous: string | null;
  results: SerializedObject[];
}

const PAGINATION = { defaultLimit: 50, maxLimit: 1000 };
/** Query parameters that are not filters of any resource. */
const NON_FILTER_PARAMETERS = ['limit', 'offset', 'ordering', 'brief', 'q', 'format', 'fields', 'exclude', 'tag', 'tag_id', 'tag__n', 'tag_id__n'];
const CHANGELOG_MESSAGE_LENGTH = 200;

/** An object-permission action: `view`, `add`, `change`, `delete`, or a custom one such as `approve`. */
type Action = string;

/**
 * The behaviour of every platform resource: NetBox's list, retrieve, create, update and delete
 * (single and bulk, each atomic), restricted by object permissions, recorded in the change log and
 * published to event rules in the same transaction.
 */
@Injectable()
export class ResourceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ResourceRegistry,
    private readonly serializer: ResourceSerializer,
    private readonly inputReader: ResourceInputReader,
    private readonly permissions: ObjectPermissions,
    private readonly changeLog: ChangeLogWriter,
    private readonly events: ObjectEventSink,
  ) {}

  async list(definition: ResourceDefinition, query: QueryParameters, scope: RequestScope): Promise<ListEnvelope> {
    const manager = this.dataSource.manager;
    const pagination = parsePagination(query, PAGINATION);
    const ordering = this.ordering(definition, query);
    const restriction = await this.permissions.restriction(manager, scope.principal, definition.objectType, 'view');
    if (restriction.kind === 'none') return { count: 0, next: null, previous: null, results: [] };

    const base = await this.filteredQuery(manager, definition, query, restriction);
    const countRow = (await base.clone().select('COUNT(*)::int', 'count').getRawOne()) as { count: number };
    const page = base.clone().select(selectList(definition, ROW_ALIAS));
    for (const term of ordering) page.addOrderBy(term.column, term.direction);
    const raws = (await page.offset(pagination.offset).limit(pagination.limit).getRawMany()) as Array<Record<string, unknown>>;
    const rows = raws.map((raw) => normalizeRow(definition, raw));
    const results = await this.serializer.serialize(manager, definition, rows, isBrief(query) ? 'brief' : 'full', scope.baseUrl);
    return { count: countRow.count, ...pageLinks({ requestUrl: scope.requestUrl, count: countRow.count, ...pagination }), results };
  }

  async retrieve(definition: ResourceDefinition, id: number, query: QueryParameters, scope: RequestScope): Promise<SerializedObject> {
    const manager = this.dataSource.manager;
    const row = await this.visibleRow(manager, definition, id, scope.principal);
    const [object] = await this.serializer.serialize(manager, definition, [row], isBrief(query) ? 'brief' : 'full', scope.baseUrl);
    return object;
  }

  /** Rows the caller may view, for other readers such as GraphQL; filters as on the REST list. */
  async visibleRows(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    principal: Principal,
    pagination: { limit: number; offset: number },
  ): Promise<ResourceRow[]> {
    const restriction = await this.permissions.restriction(manager, principal, definition.objectType, 'view');
    if (restriction.kind === 'none') return [];
    const page = (await this.filteredQuery(manager, definition, query, restriction)).select(selectList(definition, ROW_ALIAS));
    for (const term of this.ordering(definition, query)) page.addOrderBy(term.column, term.direction);
    const raws = (await page.offset(pagination.offset).limit(pagination.limit).getRawMany()) as Array<Record<string, unknown>>;
    return raws.map((raw) => normalizeRow(definition, raw));
  }

  /** POST: one object, or a list (bulk create). */
  async create(definition: ResourceDefinition, body: unknown, scope: RequestScope): Promise<SerializedObject | SerializedObject[]> {
    const items = Array.isArray(body) ? body : [body];
    if (items.length === 0) throw nonFieldError('Expected a non-empty list of objects.');
    const restriction = await this.requireAction(definition, scope.principal, 'add');
    const results = await this.writeTransaction(async (manager) => {
      const plans = await this.readAll(manager, definition, items, () => null, { partial: false, bulk: Array.isArray(body), scope });
      const created: SerializedObject[] = [];
      for (const [index, plan] of plans.entries()) {
        const row = await this.insertAndRecord(manager, definition, plan, scope, items[index], restriction);
        [created[index]] = await this.serializer.serialize(manager, definition, [row], 'full', scope.baseUrl);
      }
      return created;
    });
    return Array.isArray(body) ? results : results[0];
  }

  /**
   * Inserts one validated object, checks the permission's constraints on it, records it, then runs
   * the `afterCreate` hooks (e.g. a device instantiating its type's ports) in the same transaction.
   * Rows the hooks create are recorded too.
   */
  private async insertAndRecord(
    manager: EntityManager,
    definition: ResourceDefinition,
    plan: WritePlan,
    scope: RequestScope,
    body: unknown,
    restriction: Restriction,
  ): Promise<ResourceRow> {
    const id = await this.insert(manager, definition, plan);
    await this.applyExtensions(manager, definition, id, body, true);
    await this.assertWithinConstraints(manager, definition, id, restriction, 'add');
    const [row] = await this.loadRows(manager, definition, [id]);
    const [postchange] = await this.serializer.snapshots(manager, definition, [row]);
    await this.record(manager, definition, row, 'create', null, postchange, scope, body);
    await this.runHooks(manager, definition, scope, (hooks, context) => hooks.afterCreate?.(context, row));
    return row;
  }

  private async applyExtensions(manager: EntityManager, definition: ResourceDefinition, id: number, body: unknown, creating: boolean): Promise<void> {
    if (!definition.extensions?.length || typeof body !== 'object' || body === null) return;
    const [row] = await this.loadRows(manager, definition, [id]);
    for (const extension of definition.extensions) {
      if (creating || extension.keys.some((key) => Object.hasOwn(body, key))) {
        await extension.apply(manager, row, body as Record<string, unknown>, creating);
      }
    }
  }

  /**
   * Runs the hooks bound to a model, each with the settings of the plugin that declared it, in the
   * caller's transaction; a hook that throws refuses the write.
   */
  private async runHooks(
    manager: EntityManager,
    definition: ResourceDefinition,
    scope: RequestScope,
    run: (hooks: ResourceHooks, context: ResourceHookContext) => Promise<void> | undefined,
    cascadeFrom?: string,
  ): Promise<void> {
    for (const binding of this.registry.hooksOf(definition)) {
      await run(binding.hooks, {
        manager,
        cascadeFrom,
        scope,
        settings: binding.settings,
        createChildren: (childType, childItems) => this.createWithin(manager, this.servedDefinition(`a hook of ${definition.objectType}`, childType), childItems, scope),
        permits: (objectType, action, id) => this.permits(manager, objectType, action, id, scope.principal),
      });
    }
  }

  /** Creates objects in the caller's transaction without a permission check (the caller decided): validated, recorded, hooks run. */
  private async createWithin(manager: EntityManager, definition: ResourceDefinition, items: Array<Record<string, unknown>>, scope: RequestScope): Promise<ResourceRow[]> {
    const plans = await this.readAll(manager, definition, items, () => null, { partial: false, bulk: false, scope });
    const rows: ResourceRow[] = [];
    for (const [index, plan] of plans.entries()) rows.push(await this.insertAndRecord(manager, definition, plan, scope, items[index], { kind: 'all' }));
    return rows;
  }

  /** The served model that a hook or an action (`owner`, for the message) names; naming another is a programming error. */
  private servedDefinition(owner: string, objectType: string): ResourceDefinition {
    const definition = this.registry.definition(objectType);
    if (!definition) throw new Error(`${owner}: ${objectType} is not a served model`);
    return definition;
  }

  /**
   * A custom action on one object (`GET|POST /<list path>/{id}/<name>/`), allowed by the object
   * permission the action names (the object must lie within it) and run in a transaction.
   */
  async runAction(definition: ResourceDefinition, action: ResourceAction, id: number, body: unknown, query: QueryParameters, scope: RequestScope): Promise<unknown> {
    const restriction = await this.requireAction(definition, scope.principal, action.permission);
    return this.writeTransaction(async (manager) => {
      const row = await this.permittedRow(manager, definition, id, restriction);
      return action.handle({ ...this.actionContext(manager, definition, body, query, scope), row });
    });
  }

  /**
   * A custom action on a model's list URL (`GET|POST /<list path>/<name>/`), allowed when the caller
   * holds the permission it names on the model, and run in a transaction.
   */
  async runCollectionAction(
    definition: ResourceDefinition,
    action: ResourceCollectionAction,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
  ): Promise<unknown> {
    await this.requireAction(definition, scope.principal, action.permission);
    return this.writeTransaction((manager) => action.handle(this.actionContext(manager, definition, body, query, scope)));
  }

  /**
   * Runs plugin code that belongs to no one model (a plugin's route) as actions run: in a transaction
   * (a unique violation answers 400), with the context an action gets. `owner` names the code in
   * errors that are the developer's.
   */
  runWithActionContext<T>(
    owner: string,
    settings: Readonly<Record<string, unknown>>,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
    work: (context: CollectionActionContext) => Promise<T>,
  ): Promise<T> {
    return this.writeTransaction((manager) => work(this.codeContext(manager, owner, settings, body, query, scope)));
  }

  /** 403 unless the caller holds the object permission `action` on the model (in some measure: the restriction tells which objects). */
  async requirePermission(objectType: string, principal: Principal, action: Action): Promise<Restriction> {
    const restriction = await this.permissions.restriction(this.dataSource.manager, principal, objectType, action);
    if (restriction.kind === 'none') throw new ForbiddenError('You do not have permission to perform this action.', 'permission_denied');
    return restriction;
  }

  private actionContext(manager: EntityManager, definition: ResourceDefinition, body: unknown, query: QueryParameters, scope: RequestScope): CollectionActionContext {
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
      visibleRows: (objectType, filters, page = { limit: PAGINATION.maxLimit, offset: 0 }) =>
        this.visibleRows(manager, this.servedDefinition(owner, objectType), filters, scope.principal, page),
      permits: (objectType, action, id) => this.permits(manager, objectType, action, id, scope.principal),
      create: (objectType, items) => this.createWithin(manager, this.servedDefinition(owner, objectType), items, scope),
      update: async (objectType, id, body) => {
        const target = this.servedDefinition(owner, objectType);
        const [updated] = await this.updateWithin(manager, target, [{ id, data: body }], { partial: true, bulk: false }, scope, { kind: 'all' });
        return updated;
      },
      remove: async (objectType, ids) => {
        const target = this.servedDefinition(owner, objectType);
        await this.deleteRows(manager, target, await this.loadRows(manager, target, [...ids]), scope, undefined);
      },
    };
  }

  /** Whether the principal holds `action` on one object, its permission's constraints included. */
  private async permits(manager: EntityManager, objectType: string, action: string, id: number, principal: Principal): Promise<boolean> {
    const definition = this.registry.definition(objectType);
    if (!definition) throw new Error(`${objectType} is not a served model`);
    const restriction = await this.permissions.restriction(manager, principal, objectType, action);
    if (restriction.kind !== 'some') return restriction.kind === 'all';
    const builder = (await this.filteredQuery(manager, definition, {}, restriction)).select('1', 'found').andWhere(`${qualified('id')} = :objectId`, { objectId: id });
    return Boolean(await builder.getRawOne());
  }

  /** PATCH/PUT of one object (`id` given) or of a list of objects that each carry their id (bulk update). */
  async update(
    definition: ResourceDefinition,
    id: number | null,
    body: unknown,
    partial: boolean,
    scope: RequestScope,
  ): Promise<SerializedObject | SerializedObject[]> {
    const items = id === null ? this.bulkItems(body) : [{ id, data: body }];
    const restriction = await this.requireAction(definition, scope.principal, 'change');
    const results = await this.writeTransaction((manager) => this.updateWithin(manager, definition, items, { partial, bulk: id === null }, scope, restriction));
    return id === null ? results : results[0];
  }

  /** Updates objects within the caller's transaction: validation, hooks, constraints, change log; returns their representations. */
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
    for (const item of items) existing.set(item.id, await this.permittedRow(manager, definition, item.id, restriction));
    const prechanges = await this.serializer.snapshots(manager, definition, [...existing.values()]);
    const plans = await this.readAll(
      manager,
      definition,
      items.map((item) => item.data),
      (index) => existing.get(items[index].id)!,
      { ...options, scope },
    );
    const updated: SerializedObject[] = [];
    for (const [index, item] of items.entries()) {
      const before = existing.get(item.id)!;
      await this.runHooks(manager, definition, scope, async (hooks, context) => {
        const computed = await hooks.beforeUpdate?.(context, before, plans[index].columns);
        if (computed) Object.assign(plans[index].columns, computed);
      });
      await this.applyUpdate(manager, definition, item.id, plans[index]);
      await this.applyExtensions(manager, definition, item.id, item.data, false);
      await this.assertWithinConstraints(manager, definition, item.id, restriction, 'change');
      const [row] = await this.loadRows(manager, definition, [item.id]);
      const [postchange] = await this.serializer.snapshots(manager, definition, [row]);
      await this.record(manager, definition, row, 'update', prechanges[index], postchange, scope, item.data);
      await this.runHooks(manager, definition, scope, (hooks, context) => hooks.afterUpdate?.(context, before, row));
      [updated[index]] = await this.serializer.serialize(manager, definition, [row], 'full', scope.baseUrl);
    }
    return updated;
  }

  /** DELETE of one object, or of a list of `{id}` (bulk delete). */
  async delete(definition: ResourceDefinition, id: number | null, body: unknown, scope: RequestScope): Promise<void> {
    const ids = id === null ? this.bulkItems(body).map((item) => item.id) : [id];
    const restriction = await this.requireAction(definition, scope.principal, 'delete');
    await this.dataSource.transaction(async (manager) => {
      const rows: ResourceRow[] = [];
      for (const objectId of ids) rows.push(await this.permittedRow(manager, definition, objectId, restriction));
      await this.deleteRows(manager, definition, rows, scope, body);
    });
  }

  /**
   * Deletes rows and, as NetBox's collector does, what goes with them, each recorded in the change
   * log: objects whose CASCADE relation points at them (recursively), journal entries attached to
   * them; objects whose SET NULL relation points at them are updated (and recorded) first.
   */
  private async deleteRows(
    manager: EntityManager,
    definition: ResourceDefinition,
    rows: ResourceRow[],
    scope: RequestScope,
    body: unknown,
    cascadeFrom?: string,
  ): Promise<void> {
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.id);
    // Checked at every level, so a PROTECT reference to an object reached by a cascade is a 409 too.
    await this.assertNotProtected(manager, definition, ids);
    for (const row of rows) await this.runHooks(manager, definition, scope, (hooks, context) => hooks.beforeDelete?.(context, row), cascadeFrom);
    const prechanges = await this.serializer.snapshots(manager, definition, rows);
    const representations = await this.serializer.serialize(manager, definition, rows, 'full', scope.baseUrl);
    for (const other of this.registry.storedDefinitions) {
      for (const { field, column } of columnFields(other)) {
        if (field.kind !== 'relation' || field.target() !== definition || field.onDelete === 'PROTECT') continue;
        const dependents = await this.rowsWhere(manager, other, `${quoteIdentifier(column)} = ANY($1) AND NOT (id = ANY($2))`, [
          ids,
          other === definition ? ids : [],
        ]);
        if (field.onDelete === 'CASCADE') await this.deleteRows(manager, other, dependents, scope, undefined, definition.objectType);
        else await this.clearReferences(manager, other, { [column]: null, ...field.clearAlso }, dependents, scope);
      }
    }
    const objectTypeId = this.registry.objectTypeId(definition.objectType);
    for (const other of this.registry.storedDefinitions) {
      for (const [name, field] of Object.entries(other.fields)) {
        if (field.kind !== 'generic' || !field.onDelete) continue;
        const columns = genericColumns(name);
        const dependents = await this.rowsWhere(
          manager,
          other,
          `${quoteIdentifier(columns.type)} = $1 AND ${quoteIdentifier(columns.id)} = ANY($2) AND NOT (id = ANY($3))`,
          [objectTypeId, ids, other === definition ? ids : []],
        );
        if (field.onDelete === 'CASCADE') await this.deleteRows(manager, other, dependents, scope, undefined, definition.objectType);
        else await this.clearReferences(manager, other, { [columns.type]: null, [columns.id]: null }, dependents, scope);
      }
    }
    await manager.query(`DELETE FROM ${TAGGED_ITEM_TABLE} WHERE object_type_id = $1 AND object_id = ANY($2)`, [objectTypeId, ids]);
    await manager.query(`DELETE FROM ${quoteIdentifier(definition.table)} WHERE id = ANY($1)`, [ids]);
    for (const [index, row] of rows.entries()) {
      await this.record(manager, definition, row, 'delete', prechanges[index], null, scope, body, representations[index]);
    }
    for (const row of rows) await this.runHooks(manager, definition, scope, (hooks, context) => hooks.afterDelete?.(context, row), cascadeFrom);
  }

  /** SET NULL done by the application, so that each object it changes gets its change record. */
  private async clearReferences(
    manager: EntityManager,
    definition: ResourceDefinition,
    values: Record<string, unknown>,
    rows: ResourceRow[],
    scope: RequestScope,
  ): Promise<void> {
    if (rows.length === 0) return;
    const prechanges = await this.serializer.snapshots(manager, definition, rows);
    const ids = rows.map((row) => row.id);
    const assignments = Object.keys(values).map((column, index) => `${quoteIdentifier(column)} = $${index + 2}`);
    if (definition.standardAttributes.lastUpdated) assignments.push(`${quoteIdentifier(definition.standardAttributes.lastUpdated)} = now()`);
    await manager.query(`UPDATE ${quoteIdentifier(definition.table)} SET ${assignments.join(', ')} WHERE id = ANY($1)`, [ids, ...Object.values(values)]);
    const updated = await this.loadRows(manager, definition, ids);
    const postchanges = await this.serializer.snapshots(manager, definition, updated);
    for (const [index, row] of updated.entries()) {
      const before = prechanges[rows.findIndex((candidate) => candidate.id === row.id)];
      await this.record(manager, definition, row, 'update', before, postchanges[index], scope, undefined);
    }
  }

  private async rowsWhere(manager: EntityManager, definition: ResourceDefinition, where: string, params: unknown[]): Promise<ResourceRow[]> {
    const raws = (await manager.query(
      `SELECT ${selectList(definition, ROW_ALIAS)} FROM ${quoteIdentifier(definition.table)} ${ROW_ALIAS} WHERE ${where} ORDER BY ${ROW_ALIAS}.id`,
      params,
    )) as Array<Record<string, unknown>>;
    return raws.map((raw) => normalizeRow(definition, raw));
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

  private ordering(definition: ResourceDefinition, query: QueryParameters): OrderingTerm[] {
    const allowed = orderingColumnsOf(definition);
    const fallback = definition.ordering.map((name) => {
      const descending = name.startsWith('-');
      return { column: allowed[descending ? name.slice(1) : name], direction: descending ? 'DESC' : 'ASC' } as OrderingTerm;
    });
    return [...parseOrdering(query.ordering, allowed, fallback), { column: qualified('id'), direction: 'ASC' }];
  }

  private async filteredQuery(
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
        throw new FilterValidationError(Object.fromEntries(Object.entries(error.problems).map(([param, messages]) => [`cf_${param}`, messages])));
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

  /**
   * Filters naming related objects by slug (`tenant=acme`, `tag=gold`) must name existing ones, as
   * NetBox's model-choice filters answer an unknown value with 400 rather than an empty list.
   */
  private async assertKnownReferences(manager: EntityManager, definition: ResourceDefinition, query: QueryParameters): Promise<void> {
    const checks: Array<{ param: string; table: string; column: string }> = [];
    for (const { name, field } of columnFields(definition)) {
      if (field.kind !== 'relation' || field.noFilter) continue;
      const target = field.target();
      const column = naturalKeyOf(target);
      if (column) checks.push({ param: name, table: target.table, column }, { param: `${name}__n`, table: target.table, column });
    }
    if (definition.standardAttributes.tags) checks.push({ param: 'tag', table: TAG_TABLE, column: 'slug' }, { param: 'tag__n', table: TAG_TABLE, column: 'slug' });
    const problems: FieldErrors = {};
    for (const check of checks) {
      const raw = query[check.param];
      const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((value) => value !== '' && value !== 'null');
      if (values.length === 0) continue;
      const found = (await manager.query(
        `SELECT ${quoteIdentifier(check.column)} AS value FROM ${quoteIdentifier(check.table)} WHERE ${quoteIdentifier(check.column)} = ANY($1)`,
        [values],
      )) as Array<{ value: string }>;
      const known = new Set(found.map((row) => row.value));
      const unknown = values.find((value) => !known.has(value));
      if (unknown !== undefined) problems[check.param] = [`Select a valid choice. ${unknown} is not one of the available choices.`];
    }
    if (Object.keys(problems).length > 0) throw new FilterValidationError(problems);
  }

  /** `tag=<slug>` repeated means all of them (NetBox's conjoined tag filter); `tag__n` none of them. */
  private applyTagFilters(builder: SelectQueryBuilder<Record<string, unknown>>, definition: ResourceDefinition, query: QueryParameters): void {
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

  /** The row if the caller may view it, else 404 (what may not be seen does not exist). */
  private async visibleRow(manager: EntityManager, definition: ResourceDefinition, id: number, principal: Principal): Promise<ResourceRow> {
    return this.permittedRow(manager, definition, id, await this.permissions.restriction(manager, principal, definition.objectType, 'view'));
  }

  /** The row if it lies within the restriction of the action at hand, else 404. */
  private async permittedRow(manager: EntityManager, definition: ResourceDefinition, id: number, restriction: Restriction): Promise<ResourceRow> {
    if (restriction.kind !== 'none') {
      const builder = (await this.filteredQuery(manager, definition, {}, restriction))
        .select(selectList(definition, ROW_ALIAS))
        .andWhere(`${qualified('id')} = :objectId`, { objectId: id });
      const raw = (await builder.getRawOne()) as Record<string, unknown> | undefined;
      if (raw) return normalizeRow(definition, raw);
    }
    throw new NotFoundError('Not found.');
  }

  private requireAction(definition: ResourceDefinition, principal: Principal, action: Action): Promise<Restriction> {
    return this.requirePermission(definition.objectType, principal, action);
  }

  /** The object (before or after the change) must satisfy the constraints of the permission used. */
  private async assertWithinConstraints(
    manager: EntityManager,
    definition: ResourceDefinition,
    id: number,
    restriction: Restriction,
    action: Action,
  ): Promise<void> {
    if (restriction.kind !== 'some') return;
    const builder = (await this.filteredQuery(manager, definition, {}, restriction))
      .select('1', 'found')
      .andWhere(`${qualified('id')} = :objectId`, { objectId: id });
    if (!(await builder.getRawOne())) {
      throw new ForbiddenError(`You do not have permission to ${action} this ${definition.verboseName}.`, 'permission_denied');
    }
  }

  private async readAll(
    manager: EntityManager,
    definition: ResourceDefinition,
    items: readonly unknown[],
    existing: (index: number) => ResourceRow | null,
    options: { partial: boolean; bulk: boolean; scope: RequestScope },
  ): Promise<WritePlan[]> {
    const plans: WritePlan[] = [];
    const errors: FieldErrors[] = [];
    for (const [index, item] of items.entries()) {
      const result = await this.inputReader.read(manager, definition, item, existing(index), {
        partial: options.partial,
        currentUserId: options.scope.principal.id,
      });
      if ('errors' in result) errors[index] = result.errors;
      else plans[index] = result.plan;
    }
    if (errors.length === 0 && items.length > 1 && existing(0) === null) {
      this.inputReader.batchDuplicates(definition, plans).forEach((problems, index) => {
        if (problems) errors[index] = problems;
      });
    }
    if (errors.length > 0) {
      throw new ResourceValidationError(options.bulk ? items.map((_, index) => errors[index] ?? {}) : errors[0]);
    }
    return plans;
  }

  private bulkItems(body: unknown): Array<{ id: number; data: Record<string, unknown> }> {
    if (!Array.isArray(body) || body.length === 0) throw nonFieldError('Expected a non-empty list of objects, each with an "id".');
    const problems: FieldErrors[] = [];
    const items = body.map((item: unknown, index) => {
      const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) problems[index] = { id: ['This field is required.'] };
      else if (id > MAX_OBJECT_ID) problems[index] = { id: [`Ensure this value is less than or equal to ${MAX_OBJECT_ID}.`] };
      return { id: id as number, data: item as Record<string, unknown> };
    });
    if (problems.length > 0) throw new ResourceValidationError(body.map((_, index) => problems[index] ?? {}));
    if (new Set(items.map((item) => item.id)).size !== items.length) throw nonFieldError('Each object may appear only once.');
    return items;
  }

  private async insert(manager: EntityManager, definition: ResourceDefinition, plan: WritePlan): Promise<number> {
    const values = this.columnValues(definition, plan);
    const names = Object.keys(values);
    const sql =
      names.length === 0
        ? `INSERT INTO ${quoteIdentifier(definition.table)} DEFAULT VALUES RETURNING id`
        : `INSERT INTO ${quoteIdentifier(definition.table)} (${names.map(quoteIdentifier).join(', ')})
           VALUES (${names.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING id`;
    const [row] = (await manager.query(sql, Object.values(values))) as Array<{ id: number }>;
    await this.writeRelations(manager, definition, row.id, plan);
    return row.id;
  }

  private async applyUpdate(manager: EntityManager, definition: ResourceDefinition, id: number, plan: WritePlan): Promise<void> {
    const values = this.columnValues(definition, plan);
    const assignments = Object.keys(values).map((name, index) => `${quoteIdentifier(name)} = $${index + 2}`);
    if (definition.standardAttributes.lastUpdated) assignments.push(`${quoteIdentifier(definition.standardAttributes.lastUpdated)} = now()`);
    if (assignments.length > 0) {
      await manager.query(`UPDATE ${quoteIdentifier(definition.table)} SET ${assignments.join(', ')} WHERE id = $1`, [
        id,
        ...Object.values(values),
      ]);
    }
    await this.writeRelations(manager, definition, id, plan);
  }

  /** Column → SQL parameter; JSON columns are sent as JSON text (pg would turn JS arrays into SQL arrays). */
  private columnValues(definition: ResourceDefinition, plan: WritePlan): Record<string, unknown> {
    const jsonColumns = new Set(columnFields(definition).filter(({ field }) => field.kind === 'json').map(({ column }) => column));
    const values: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(plan.columns)) {
      values[column] = jsonColumns.has(column) && value !== null ? JSON.stringify(value) : value;
    }
    if (plan.customFieldData) values.custom_field_data = JSON.stringify(plan.customFieldData);
    return values;
  }

  private async writeRelations(manager: EntityManager, definition: ResourceDefinition, id: number, plan: WritePlan): Promise<void> {
    for (const [name, ids] of plan.many) {
      const join = joinTableOf(definition, name);
      await manager.query(`DELETE FROM ${quoteIdentifier(join.table)} WHERE ${quoteIdentifier(join.source)} = $1`, [id]);
      if (ids.length > 0) {
        await manager.query(
          `INSERT INTO ${quoteIdentifier(join.table)} (${quoteIdentifier(join.source)}, ${quoteIdentifier(join.target)})
           SELECT $1, unnest($2::int[])`,
          [id, ids],
        );
      }
    }
    if (plan.tagIds) {
      const objectTypeId = this.registry.objectTypeId(definition.objectType);
      await manager.query(`DELETE FROM ${TAGGED_ITEM_TABLE} WHERE object_type_id = $1 AND object_id = $2`, [objectTypeId, id]);
      if (plan.tagIds.length > 0) {
        await manager.query(
          `INSERT INTO ${TAGGED_ITEM_TABLE} (tag_id, object_type_id, object_id) SELECT unnest($3::int[]), $1, $2`,
          [objectTypeId, id, plan.tagIds],
        );
      }
    }
  }

  private loadRows(manager: EntityManager, definition: ResourceDefinition, ids: number[]): Promise<ResourceRow[]> {
    return this.rowsWhere(manager, definition, `${ROW_ALIAS}.id = ANY($1)`, [ids]);
  }


  /** NetBox answers a PROTECT violation with 409 naming the objects in the way. */
  private async assertNotProtected(manager: EntityManager, definition: ResourceDefinition, ids: number[]): Promise<void> {
    const blockers: string[] = [];
    for (const other of this.registry.storedDefinitions) {
      for (const { field, column } of columnFields(other)) {
        if (field.kind !== 'relation' || field.onDelete !== 'PROTECT' || field.target() !== definition) continue;
        const raws = (await manager.query(
          `SELECT ${selectList(other, ROW_ALIAS)} FROM ${quoteIdentifier(other.table)} ${ROW_ALIAS}
            WHERE ${ROW_ALIAS}.${quoteIdentifier(column)} = ANY($1) ORDER BY ${ROW_ALIAS}.id LIMIT 20`,
          [ids],
        )) as Array<Record<string, unknown>>;
        for (const raw of raws) blockers.push(`${other.verboseName} ${other.display(normalizeRow(other, raw))}`);
      }
    }
    if (blockers.length > 0) {
      throw new ProtectedObjectError(
        `Unable to delete object. ${blockers.length} dependent objects were found: ${blockers.join(', ')}`,
      );
    }
  }

  private async record(
    manager: EntityManager,
    definition: ResourceDefinition,
    row: ResourceRow,
    action: 'create' | 'update' | 'delete',
    prechange: SerializedObject | null,
    postchange: SerializedObject | null,
    scope: RequestScope,
    body: unknown,
    deletedRepresentation?: SerializedObject,
  ): Promise<void> {
    if (!definition.standardAttributes.changeLogged) return;
    // NetBox's CHANGELOG_SKIP_EMPTY_CHANGES: an update that changed nothing is not a change.
    if (action === 'update' && JSON.stringify(prechange) === JSON.stringify(postchange)) return;
    const bodyMessage =
      typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { changelog_message?: unknown }).changelog_message : undefined;
    const message = (typeof bodyMessage === 'string' ? bodyMessage : scope.changelogMessage ?? '').slice(0, CHANGELOG_MESSAGE_LENGTH);
    const timestamp = await this.changeLog.record(manager, {
      definition,
      row,
      action,
      prechange,
      postchange,
      principal: scope.principal,
      requestId: scope.requestId,
      message,
    });
    await this.events.publish(manager, {
      event: action === 'create' ? 'created' : action === 'update' ? 'updated' : 'deleted',
      definition,
      objectId: row.id,
      data: async () =>
        deletedRepresentation ?? (await this.serializer.serialize(manager, definition, [row], 'full', scope.baseUrl))[0],
      prechange,
      postchange,
      username: scope.principal.name,
      requestId: scope.requestId,
      timestamp,
    });
  }
}

function isBrief(query: QueryParameters): boolean {
  const value = lastValue(query.brief);
  return value !== undefined && ['true', '1', 'True'].includes(value);
}
