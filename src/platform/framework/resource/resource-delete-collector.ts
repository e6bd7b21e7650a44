import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ResourceChangeRecorder } from './resource-change-recorder';
import type { RequestScope } from './resource-declaration';
import { columnFields, columnOf, genericColumns, quoteIdentifier, ResourceDefinition, ResourceRow } from './resource-definition';
import { ProtectedObjectError } from './resource-errors';
import { ROW_ALIAS } from './resource-filters';
import { ResourceQuery } from './resource-query';
import { ResourceRegistry } from './resource-registry';
import { normalizeRow, selectList } from './resource-rows';
import { ResourceSerializer, TAGGED_ITEM_TABLE } from './resource-serializer';
import { ResourceWriter } from './resource-writer';

/** Where a cascade came from: the objects it is deleting on its way, level by level, the request's own first. */
interface CascadeOrigin {
  levels: ReadonlyArray<{ objectType: string; ids: ReadonlySet<number> }>;
}

/** Whether the row was generated with an object this cascade is deleting (a fiber cable's strand, reached from it or from its tube). */
function generatedWithDeleted(definition: ResourceDefinition, row: ResourceRow, cascade: CascadeOrigin | undefined): boolean {
  const name = definition.generatedWith;
  const field = name ? definition.fields[name] : undefined;
  if (!name || !field || field.kind !== 'relation' || !cascade) return false;
  const parentType = field.target().objectType;
  const parentId = row[columnOf(name, field)!] as number | null;
  return cascade.levels.some((level) => level.objectType === parentType && parentId !== null && level.ids.has(parentId));
}

/** Deletes as Django's collector does: PROTECT refuses, CASCADE follows, SET NULL clears; every object touched is recorded. */
@Injectable()
export class ResourceDeleteCollector {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly serializer: ResourceSerializer,
    private readonly queries: ResourceQuery,
    private readonly recorder: ResourceChangeRecorder,
    private readonly writer: ResourceWriter,
  ) {}

  /**
   * The rows among `ids` that still exist, as they are now, locked for this transaction (FOR UPDATE,
   * taken in id order so that two deletes of overlapping sets cannot deadlock on them). A delete that
   * waited here for another of the same rows finds them gone; an object created meanwhile with a
   * reference to one of them either committed first (and is found below) or waits and then fails.
   */
  lockedRows(manager: EntityManager, definition: ResourceDefinition, ids: readonly number[]): Promise<ResourceRow[]> {
    return this.queries.rowsWhere(manager, definition, `${ROW_ALIAS}.id = ANY($1)`, [ids], { lock: true });
  }

  /**
   * Deletes rows the caller has locked ({@link lockedRows}) and, as NetBox's collector does, what
   * goes with them, each recorded in the change log: objects whose CASCADE relation points at them
   * (recursively), journal entries attached to them; objects whose SET NULL relation points at them
   * are updated (and recorded) first. Rows a model declares `generatedWith` the object being deleted
   * go as they came, without change records or events of their own.
   */
  async deleteRows(
    manager: EntityManager,
    definition: ResourceDefinition,
    rows: ResourceRow[],
    scope: RequestScope,
    body: unknown,
    cascade?: CascadeOrigin,
  ): Promise<void> {
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.id);
    const cascadeFrom = cascade?.levels.at(-1)?.objectType;
    // Checked at every level, so a PROTECT reference to an object reached by a cascade is a 409 too.
    await this.assertNotProtected(manager, definition, ids);
    await this.writer.runHooks(manager, definition, scope, (hooks, context) => hooks.beforeDeleteAll?.(context, rows), cascadeFrom);
    for (const row of rows)
      await this.writer.runHooks(manager, definition, scope, (hooks, context) => hooks.beforeDelete?.(context, row), cascadeFrom);
    const recorded = definition.standardAttributes.changeLogged
      ? rows.filter((row) => !generatedWithDeleted(definition, row, cascade))
      : [];
    const prechanges = recorded.length > 0 ? await this.serializer.snapshots(manager, definition, recorded) : [];
    const representations =
      recorded.length > 0 ? await this.serializer.serialize(manager, definition, recorded, 'full', scope.baseUrl) : [];
    const below: CascadeOrigin = { levels: [...(cascade?.levels ?? []), { objectType: definition.objectType, ids: new Set(ids) }] };
    for (const other of this.registry.storedDefinitions) {
      for (const { field, column } of columnFields(other)) {
        if (field.kind !== 'relation' || field.target() !== definition || field.onDelete === 'PROTECT') continue;
        const dependents = await this.queries.rowsWhere(
          manager,
          other,
          `${quoteIdentifier(column)} = ANY($1) AND NOT (id = ANY($2))`,
          [ids, other === definition ? ids : []],
          { lock: true },
        );
        if (field.onDelete === 'CASCADE') await this.deleteRows(manager, other, dependents, scope, undefined, below);
        else await this.clearReferences(manager, other, { [column]: null, ...field.clearAlso }, dependents, scope);
      }
    }
    const objectTypeId = this.registry.objectTypeId(definition.objectType);
    for (const other of this.registry.storedDefinitions) {
      for (const [name, field] of Object.entries(other.fields)) {
        if (field.kind !== 'generic' || !field.onDelete) continue;
        const columns = genericColumns(name);
        const dependents = await this.queries.rowsWhere(
          manager,
          other,
          `${quoteIdentifier(columns.type)} = $1 AND ${quoteIdentifier(columns.id)} = ANY($2) AND NOT (id = ANY($3))`,
          [objectTypeId, ids, other === definition ? ids : []],
          { lock: true },
        );
        if (field.onDelete === 'CASCADE') await this.deleteRows(manager, other, dependents, scope, undefined, below);
        else await this.clearReferences(manager, other, { [columns.type]: null, [columns.id]: null }, dependents, scope);
      }
    }
    await manager.query(`DELETE FROM ${TAGGED_ITEM_TABLE} WHERE object_type_id = $1 AND object_id = ANY($2)`, [objectTypeId, ids]);
    await manager.query(`DELETE FROM ${quoteIdentifier(definition.table)} WHERE id = ANY($1)`, [ids]);
    for (const [index, row] of recorded.entries()) {
      await this.recorder.record(manager, definition, row, 'delete', prechanges[index], null, scope, body, representations[index]);
    }
    for (const row of rows)
      await this.writer.runHooks(manager, definition, scope, (hooks, context) => hooks.afterDelete?.(context, row), cascadeFrom);
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
    if (definition.standardAttributes.lastUpdated)
      assignments.push(`${quoteIdentifier(definition.standardAttributes.lastUpdated)} = now()`);
    await manager.query(`UPDATE ${quoteIdentifier(definition.table)} SET ${assignments.join(', ')} WHERE id = ANY($1)`, [
      ids,
      ...Object.values(values),
    ]);
    const updated = await this.queries.loadRows(manager, definition, ids);
    const postchanges = await this.serializer.snapshots(manager, definition, updated);
    for (const [index, row] of updated.entries()) {
      const before = prechanges[rows.findIndex((candidate) => candidate.id === row.id)];
      await this.recorder.record(manager, definition, row, 'update', before, postchanges[index], scope, undefined);
    }
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
      throw new ProtectedObjectError(`Unable to delete object. ${blockers.length} dependent objects were found: ${blockers.join(', ')}`);
    }
  }
}
