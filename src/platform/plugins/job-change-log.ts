import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ChangeLogWriter } from '../framework/resource/change-log.writer';
import { quoteIdentifier } from '../framework/resource/resource-definition';
import { ResourceRegistry } from '../framework/resource/resource-registry';
import { normalizeRow, selectList } from '../framework/resource/resource-rows';
import { ResourceSerializer, type SerializedObject } from '../framework/resource/resource-serializer';

/** One object a job created or updated with its own statements. */
export interface JobChange {
  objectType: string;
  id: number;
  action: 'create' | 'update';
  /** The object's snapshot before an update (from `snapshots`). */
  prechange?: SerializedObject;
}

/**
 * The change log of background jobs that write with their own statements (synchronisations): the
 * same records as a change through the API, with the job's queue as the user name, no user, and one
 * request id per run.
 */
@Injectable()
export class JobChangeLog {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly serializer: ResourceSerializer,
    private readonly writer: ChangeLogWriter,
  ) {}

  /** The change-log snapshots of objects of one type, by id (taken before a job updates them). */
  async snapshots(manager: EntityManager, objectType: string, ids: readonly number[]): Promise<Map<number, SerializedObject>> {
    const definition = this.definition(objectType);
    const rows = await this.rows(manager, objectType, ids);
    const snapshots = await this.serializer.snapshots(manager, definition, rows);
    return new Map(rows.map((row, index) => [row.id, snapshots[index]]));
  }

  /** Records the changes in the caller's transaction; an update that changed nothing is skipped, as through the API. */
  async record(manager: EntityManager, changes: readonly JobChange[], job: { queue: string; runId: string }): Promise<number> {
    let recorded = 0;
    for (const objectType of [...new Set(changes.map((change) => change.objectType))]) {
      const definition = this.definition(objectType);
      if (!definition.standardAttributes.changeLogged) continue;
      const ofType = changes.filter((change) => change.objectType === objectType);
      const rows = await this.rows(
        manager,
        objectType,
        ofType.map((change) => change.id),
      );
      const snapshots = await this.serializer.snapshots(manager, definition, rows);
      const rowsById = new Map(rows.map((row, index) => [row.id, { row, snapshot: snapshots[index] }]));
      for (const change of ofType) {
        const current = rowsById.get(change.id);
        if (!current) continue;
        const prechange = change.action === 'update' ? (change.prechange ?? null) : null;
        if (prechange !== null && JSON.stringify(prechange) === JSON.stringify(current.snapshot)) continue;
        await this.writer.record(manager, {
          definition,
          row: current.row,
          action: change.action,
          prechange,
          postchange: current.snapshot,
          principal: { id: null, name: job.queue },
          requestId: job.runId,
          message: '',
        });
        recorded += 1;
      }
    }
    return recorded;
  }

  /**
   * Records the deletion of these objects, with their snapshots as the pre-change data; called in
   * the job's transaction before it deletes them (the records are made from the stored rows).
   */
  async recordDeletions(
    manager: EntityManager,
    objectType: string,
    ids: readonly number[],
    job: { queue: string; runId: string },
  ): Promise<number> {
    const definition = this.definition(objectType);
    if (!definition.standardAttributes.changeLogged) return 0;
    const rows = await this.rows(manager, objectType, ids);
    const snapshots = await this.serializer.snapshots(manager, definition, rows);
    for (const [index, row] of rows.entries()) {
      await this.writer.record(manager, {
        definition,
        row,
        action: 'delete',
        prechange: snapshots[index],
        postchange: null,
        principal: { id: null, name: job.queue },
        requestId: job.runId,
        message: '',
      });
    }
    return rows.length;
  }

  private definition(objectType: string) {
    const definition = this.registry.definition(objectType);
    if (!definition) throw new Error(`no model has object type ${objectType}`);
    return definition;
  }

  private async rows(manager: EntityManager, objectType: string, ids: readonly number[]) {
    const definition = this.definition(objectType);
    if (ids.length === 0) return [];
    const raw = (await manager.query(
      `SELECT ${selectList(definition, 't')} FROM ${quoteIdentifier(definition.table)} t WHERE t.id = ANY($1) ORDER BY t.id`,
      [[...new Set(ids)]],
    )) as Array<Record<string, unknown>>;
    return raw.map((row) => normalizeRow(definition, row));
  }
}
