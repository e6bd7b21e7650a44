import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ChangeLogWriter } from './change-log.writer';
import type { RequestScope } from './resource-declaration';
import { ResourceDefinition, ResourceRow } from './resource-definition';
import { ObjectEventSink } from './object-events';
import { ResourceSerializer, SerializedObject } from './resource-serializer';

const CHANGELOG_MESSAGE_LENGTH = 200;

/** Records a change in the change log and publishes it to event rules and plugin subscribers, in the changing transaction. */
@Injectable()
export class ResourceChangeRecorder {
  constructor(
    private readonly changeLog: ChangeLogWriter,
    private readonly events: ObjectEventSink,
    private readonly serializer: ResourceSerializer,
  ) {}

  async record(
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
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as { changelog_message?: unknown }).changelog_message
        : undefined;
    const message = (typeof bodyMessage === 'string' ? bodyMessage : (scope.changelogMessage ?? '')).slice(0, CHANGELOG_MESSAGE_LENGTH);
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
      data: async () => deletedRepresentation ?? (await this.serializer.serialize(manager, definition, [row], 'full', scope.baseUrl))[0],
      prechange,
      postchange,
      username: scope.principal.name,
      requestId: scope.requestId,
      timestamp,
    });
  }
}
