import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ResourceChangeRecorder } from './resource-change-recorder';
import type { RequestScope } from './resource-declaration';
import { columnFields, genericColumns, quoteIdentifier, ResourceDefinition, ResourceRow } from './resource-definition';
import { ProtectedObjectError } from './resource-errors';
import { ROW_ALIAS } from './resource-filters';
import { ResourceQuery } from './resource-query';
import { ResourceRegistry } from './resource-registry';
import { normalizeRow, selectList } from './resource-rows';
import { ResourceSerializer, TAGGED_ITEM_TABLE } from './resource-serializer';
import { ResourceWriter } from './resource-writer';

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
   * Deletes rows and, as NetBox's collector does, what goes with them, each recorded in the change
   * log: objects whose CASCADE relation points at them (recursively), journal entries attached to
   * them; objects whose SET NULL relation points at them are updated (and recorded) first.
   */
  async deleteRows(
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
    for (const row of rows)
      await this.writer.runHooks(manager, definition, scope, (hooks, context) => hooks.beforeDelete?.(context, row), cascadeFrom);
    const prechanges = await this.serializer.snapshots(manager, definition, rows);
    const representations = await this.serializer.serialize(manager, definition, rows, 'full', scope.baseUrl);
    for (const other of this.registry.storedDefinitions) {
      for (const { field, column } of columnFields(other)) {
        if (field.kind !== 'relation' || field.target() !== definition || field.onDelete === 'PROTECT') continue;
        const dependents = await this.queries.rowsWhere(manager, other, `${quoteIdentifier(column)} = ANY($1) AND NOT (id = ANY($2))`, [
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
        const dependents = await this.queries.rowsWhere(
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
