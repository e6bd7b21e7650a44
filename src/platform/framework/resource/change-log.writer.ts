import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Principal } from '../../../common/auth/principal';
import { genericColumns, ResourceDefinition, ResourceRow } from './resource-definition';
import { ResourceRegistry } from './resource-registry';
import type { SerializedObject } from './resource-serializer';

export interface ChangeRecord {
  definition: ResourceDefinition;
  row: ResourceRow;
  action: 'create' | 'update' | 'delete';
  prechange: SerializedObject | null;
  postchange: SerializedObject | null;
  /** Who made the change; a background job has no user (`id` null) and records its own name. */
  principal: Pick<Principal, 'name'> & { id: number | null };
  requestId: string;
  message: string;
}

const OBJECT_REPR_LENGTH = 200;

/** Writes NetBox's ObjectChange rows, with the caller's transaction so a change and its record commit together. */
@Injectable()
export class ChangeLogWriter {
  constructor(private readonly registry: ResourceRegistry) {}

  /** Returns the recorded time (the transaction's `now()`). */
  async record(manager: EntityManager, change: ChangeRecord): Promise<Date> {
    const [row] = (await manager.query(
      `INSERT INTO core_objectchange
         (time, user_id, user_name, request_id, action, changed_object_type_id, changed_object_id,
          related_object_type_id, related_object_id, object_repr, message, prechange_data, postchange_data)
       VALUES (now(), $1, $2, $3, $4, $5, $6, $11, $12, $7, $8, $9, $10)
       RETURNING time`,
      [
        change.principal.id,
        change.principal.name,
        change.requestId,
        change.action,
        this.registry.objectTypeId(change.definition.objectType),
        change.row.id,
        change.definition.display(change.row).slice(0, OBJECT_REPR_LENGTH),
        change.message,
        change.prechange === null ? null : JSON.stringify(change.prechange),
        change.postchange === null ? null : JSON.stringify(change.postchange),
        ...this.relatedObject(change.definition, change.row),
      ],
    )) as Array<{ time: Date }>;
    return row.time;
  }

  /** `[object type id, object id]` of the declared parent, or nulls. */
  private relatedObject(definition: ResourceDefinition, row: ResourceRow): [number | null, number | null] {
    const name = definition.relatedObject;
    const field = name ? definition.fields[name] : undefined;
    if (!name || !field) return [null, null];
    if (field.kind === 'generic') {
      const columns = genericColumns(name);
      return [(row[columns.type] as number | null) ?? null, (row[columns.id] as number | null) ?? null];
    }
    if (field.kind !== 'relation') return [null, null];
    const id = (row[field.column ?? `${name}_id`] as number | null) ?? null;
    return id === null ? [null, null] : [this.registry.objectTypeId(field.target().objectType), id];
  }
}
