import { EntityManager } from 'typeorm';
import { ResourceDefinition } from './resource-definition';
import type { SerializedObject } from './resource-serializer';

/** A change made through the API, as event rules see it (NetBox's `object_created|updated|deleted`). */
export interface ObjectEvent {
  event: 'created' | 'updated' | 'deleted';
  definition: ResourceDefinition;
  objectId: number;
  /** The object's REST representation (for deletions: as it was); computed only when a rule needs it. */
  data: () => Promise<SerializedObject>;
  prechange: SerializedObject | null;
  postchange: SerializedObject | null;
  username: string;
  requestId: string;
  timestamp: Date;
}

/**
 * Receives every change inside the transaction that makes it, so whatever it enqueues commits or
 * rolls back with the change. Implemented by the event rules of the extras app.
 */
export abstract class ObjectEventSink {
  abstract publish(manager: EntityManager, event: ObjectEvent): Promise<void>;
}
