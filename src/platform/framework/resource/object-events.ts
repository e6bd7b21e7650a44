import { Inject, Injectable } from '@nestjs/common';
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
 * Receives every change inside the transaction that makes it, so whatever it does (enqueue a job,
 * write a row) commits or rolls back with the change; a subscriber that throws refuses the change.
 * The platform's event rules (webhooks) are one; plugins add theirs.
 */
export interface ObjectEventSubscriber {
  /** Names it in errors and logs. */
  readonly name: string;
  /** Object types (`'dcim.device'`) it wants; every type when absent. */
  readonly objectTypes?: readonly string[];
  handle(manager: EntityManager, event: ObjectEvent): Promise<void>;
}

export const OBJECT_EVENT_SUBSCRIBERS = Symbol('OBJECT_EVENT_SUBSCRIBERS');

/** Where the resource service publishes changes: every subscriber that wants the change's object type, in order. */
@Injectable()
export class ObjectEventSink {
  constructor(@Inject(OBJECT_EVENT_SUBSCRIBERS) private readonly subscribers: readonly ObjectEventSubscriber[]) {}

  async publish(manager: EntityManager, event: ObjectEvent): Promise<void> {
    for (const subscriber of this.subscribers) {
      if (subscriber.objectTypes && !subscriber.objectTypes.includes(event.definition.objectType)) continue;
      await subscriber.handle(manager, event);
    }
  }
}
