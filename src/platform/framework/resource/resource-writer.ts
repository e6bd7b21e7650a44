import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Restriction } from '../permissions/object-permissions';
import { MAX_OBJECT_ID } from './field-input';
import { ResourceAccess } from './resource-access';
import { ResourceChangeRecorder } from './resource-change-recorder';
import type { RequestScope, ResourceHookContext, ResourceHooks } from './resource-declaration';
import { columnFields, joinTableOf, quoteIdentifier, ResourceDefinition, ResourceRow } from './resource-definition';
import { FieldErrors, nonFieldError, ResourceValidationError } from './resource-errors';
import { ResourceInputReader, WritePlan } from './resource-input.reader';
import { ResourceQuery } from './resource-query';
import { ResourceRegistry } from './resource-registry';
import { ResourceSerializer, SerializedObject, TAGGED_ITEM_TABLE } from './resource-serializer';

/**
 * Writes of validated input: reading a request's items into write plans, inserting and updating rows
 * with their many-to-many and tag links and extensions, and running the write hooks. The caller
 * holds the transaction and decides the order (deletes are the delete collector's).
 */
@Injectable()
export class ResourceWriter {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly serializer: ResourceSerializer,
    private readonly inputReader: ResourceInputReader,
    private readonly queries: ResourceQuery,
    private readonly access: ResourceAccess,
    private readonly recorder: ResourceChangeRecorder,
  ) {}

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

  /**
   * Creates objects as a POST does, in the caller's transaction: validated, inserted, recorded, hooks
   * run; answers their representations.
   */
  async createSerialized(
    manager: EntityManager,
    definition: ResourceDefinition,
    items: readonly unknown[],
    options: { bulk: boolean },
    scope: RequestScope,
    restriction: Restriction,
  ): Promise<SerializedObject[]> {
    const plans = await this.readAll(manager, definition, items, () => null, { partial: false, bulk: options.bulk, scope });
    const created: SerializedObject[] = [];
    for (const [index, plan] of plans.entries()) {
      const row = await this.insertAndRecord(manager, definition, plan, scope, items[index], restriction);
      [created[index]] = await this.serializer.serialize(manager, definition, [row], 'full', scope.baseUrl);
    }
    return created;
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
    await this.access.assertWithinConstraints(manager, definition, id, restriction, 'add');
    const [row] = await this.queries.loadRows(manager, definition, [id]);
    const [postchange] = await this.serializer.snapshots(manager, definition, [row]);
    await this.recorder.record(manager, definition, row, 'create', null, postchange, scope, body);
    await this.runHooks(manager, definition, scope, (hooks, context) => hooks.afterCreate?.(context, row));
    return row;
  }

  /**
   * Updates objects as a PATCH or PUT does, in the caller's transaction: validation, hooks,
   * constraints, change log; answers their representations.
   */
  async updateSerialized(
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
    const plans = await this.readAll(
      manager,
      definition,
      items.map((item) => item.data),
      (index) => existing.get(items[index].id)!,
      { ...options, scope },
    );
    const updated: SerializedObject[] = [];
    for (const [index, item] of items.entries()) {
      const row = await this.updateAndRecord(
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

  /**
   * Writes one validated update of a stored row: the `beforeUpdate` hooks, the row with its links
   * and extensions, the permission's constraints on the result, the change record, then the
   * `afterUpdate` hooks, in the caller's transaction.
   */
  private async updateAndRecord(
    manager: EntityManager,
    definition: ResourceDefinition,
    before: ResourceRow,
    plan: WritePlan,
    body: unknown,
    prechange: SerializedObject,
    scope: RequestScope,
    restriction: Restriction,
  ): Promise<ResourceRow> {
    await this.runHooks(manager, definition, scope, async (hooks, context) => {
      const computed = await hooks.beforeUpdate?.(context, before, plan.columns);
      if (computed) Object.assign(plan.columns, computed);
    });
    await this.applyUpdate(manager, definition, before.id, plan);
    await this.applyExtensions(manager, definition, before.id, body, false);
    await this.access.assertWithinConstraints(manager, definition, before.id, restriction, 'change');
    const [row] = await this.queries.loadRows(manager, definition, [before.id]);
    const [postchange] = await this.serializer.snapshots(manager, definition, [row]);
    await this.recorder.record(manager, definition, row, 'update', prechange, postchange, scope, body);
    await this.runHooks(manager, definition, scope, (hooks, context) => hooks.afterUpdate?.(context, before, row));
    return row;
  }

  private async applyUpdate(manager: EntityManager, definition: ResourceDefinition, id: number, plan: WritePlan): Promise<void> {
    const values = this.columnValues(definition, plan);
    const assignments = Object.keys(values).map((name, index) => `${quoteIdentifier(name)} = $${index + 2}`);
    if (definition.standardAttributes.lastUpdated)
      assignments.push(`${quoteIdentifier(definition.standardAttributes.lastUpdated)} = now()`);
    if (assignments.length > 0) {
      await manager.query(`UPDATE ${quoteIdentifier(definition.table)} SET ${assignments.join(', ')} WHERE id = $1`, [
        id,
        ...Object.values(values),
      ]);
    }
    await this.writeRelations(manager, definition, id, plan);
  }

  private async applyExtensions(
    manager: EntityManager,
    definition: ResourceDefinition,
    id: number,
    body: unknown,
    creating: boolean,
  ): Promise<void> {
    if (!definition.extensions?.length || typeof body !== 'object' || body === null) return;
    const [row] = await this.queries.loadRows(manager, definition, [id]);
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
  async runHooks(
    manager: EntityManager,
    definition: ResourceDefinition,
    scope: RequestScope,
    run: (hooks: ResourceHooks, context: ResourceHookContext) => Promise<void> | undefined,
    cascadeFrom?: string,
  ): Promise<void> {
    for (const binding of this.registry.hooksOf(definition)) {
      await run(binding.hooks, {
        manager,
        scope,
        settings: binding.settings,
        cascadeFrom,
        createChildren: (childType, childItems) =>
          this.createWithin(manager, this.servedDefinition(`a hook of ${definition.objectType}`, childType), childItems, scope),
        update: async (objectType, id, body) => {
          await this.updateSerialized(
            manager,
            this.servedDefinition(`a hook of ${definition.objectType}`, objectType),
            [{ id, data: body }],
            { partial: true, bulk: false },
            scope,
            { kind: 'all' },
          );
        },
        permits: (objectType, action, id) =>
          this.access.permits(
            manager,
            this.servedDefinition(`a hook of ${definition.objectType}`, objectType),
            action,
            id,
            scope.principal,
          ),
      });
    }
  }

  /** Creates objects in the caller's transaction without a permission check (the caller decided): validated, recorded, hooks run. */
  async createWithin(
    manager: EntityManager,
    definition: ResourceDefinition,
    items: Array<Record<string, unknown>>,
    scope: RequestScope,
  ): Promise<ResourceRow[]> {
    const plans = await this.readAll(manager, definition, items, () => null, { partial: false, bulk: false, scope });
    const rows: ResourceRow[] = [];
    for (const [index, plan] of plans.entries())
      rows.push(await this.insertAndRecord(manager, definition, plan, scope, items[index], { kind: 'all' }));
    return rows;
  }

  /** Whether the model is served (a left-out plugin's models are not). */
  isServed(objectType: string): boolean {
    return this.registry.definition(objectType) !== undefined;
  }

  /** The served model that a hook or an action (`owner`, for the message) names; naming another is a programming error. */
  servedDefinition(owner: string, objectType: string): ResourceDefinition {
    const definition = this.registry.definition(objectType);
    if (!definition) throw new Error(`${owner}: ${objectType} is not a served model`);
    return definition;
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

  /** Column → SQL parameter; JSON columns are sent as JSON text (pg would turn JS arrays into SQL arrays). */
  private columnValues(definition: ResourceDefinition, plan: WritePlan): Record<string, unknown> {
    const jsonColumns = new Set(
      columnFields(definition)
        .filter(({ field }) => field.kind === 'json')
        .map(({ column }) => column),
    );
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
        await manager.query(`INSERT INTO ${TAGGED_ITEM_TABLE} (tag_id, object_type_id, object_id) SELECT unnest($3::int[]), $1, $2`, [
          objectTypeId,
          id,
          plan.tagIds,
        ]);
      }
    }
  }
}

export function bulkItems(body: unknown): Array<{ id: number; data: Record<string, unknown> }> {
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
