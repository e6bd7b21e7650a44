import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Restriction } from '../permissions/object-permissions';
import type { QueryParameters } from '../query/filter-parser';
import { ResourceAccess } from './resource-access';
import type { CollectionActionContext, RequestScope, ResourceAction, ResourceCollectionAction } from './resource-declaration';
import { ResourceDefinition } from './resource-definition';
import { ResourceDeleteCollector } from './resource-delete-collector';
import { ResourceRegistry } from './resource-registry';
import { ResourceSerializer } from './resource-serializer';
import { actionTransaction } from './resource-transactions';
import { LIST_PAGINATION } from './resource.service';
import { ResourceWriter } from './resource-writer';

/** The context's writes skip the permission check: the action or route has decided who may make them. */
const UNRESTRICTED: Restriction = { kind: 'all' };
/** Rows `visibleRows` gives when the caller names no page: a REST list's largest. */
const DEFAULT_VISIBLE_PAGE = { limit: LIST_PAGINATION.maxLimit, offset: 0 };

/**
 * Plugin-facing code run on a request: the models' custom actions and the plugins' routes. Each is
 * allowed by an object permission, runs a POST in a transaction (a unique violation answers 400),
 * and gets the action context: the request, the plugin's settings, and reads and writes of served
 * models as the caller may see them and as REST writes them.
 */
@Injectable()
export class ResourceActions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ResourceRegistry,
    private readonly serializer: ResourceSerializer,
    private readonly access: ResourceAccess,
    private readonly writer: ResourceWriter,
    private readonly collector: ResourceDeleteCollector,
  ) {}

  /**
   * A custom action on one object (`GET|POST /<list path>/{id}/<name>/`), allowed by the object
   * permission the action names (the object must lie within it).
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
    return actionTransaction(this.dataSource, action.method, async (manager) => {
      const row = await this.access.permittedRow(manager, definition, id, restriction);
      return action.handle({ ...this.modelContext(manager, definition, body, query, scope), row });
    });
  }

  /**
   * A custom action on a model's list URL (`GET|POST /<list path>/<name>/`), allowed when the caller
   * holds the permission it names on the model.
   */
  async runCollectionAction(
    definition: ResourceDefinition,
    action: ResourceCollectionAction,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
  ): Promise<unknown> {
    await this.access.requireAction(definition, scope.principal, action.permission);
    return actionTransaction(this.dataSource, action.method, (manager) =>
      action.handle(this.modelContext(manager, definition, body, query, scope)),
    );
  }

  /**
   * Runs plugin code that belongs to no one model (a plugin's route) as actions run, the caller's
   * permission already checked. `owner` names the code in errors that are the developer's.
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
    return actionTransaction(this.dataSource, method, (manager) => work(this.context(manager, owner, settings, body, query, scope)));
  }

  private modelContext(
    manager: EntityManager,
    definition: ResourceDefinition,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
  ): CollectionActionContext {
    return this.context(manager, `an action of ${definition.objectType}`, this.registry.settingsOf(definition), body, query, scope);
  }

  private context(
    manager: EntityManager,
    owner: string,
    settings: Readonly<Record<string, unknown>>,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
  ): CollectionActionContext {
    const target = (objectType: string) => this.writer.servedDefinition(owner, objectType);
    return {
      manager,
      body,
      query,
      scope,
      serializer: this.serializer,
      settings,
      visibleRows: (objectType, filters, page = DEFAULT_VISIBLE_PAGE, columns) =>
        this.access.visibleRows(manager, target(objectType), filters, scope.principal, page, columns),
      countVisible: (objectType, filters) => this.access.countVisible(manager, target(objectType), filters, scope.principal),
      selectVisible: (objectType, filters, selection) =>
        this.access.selectVisible(manager, target(objectType), filters, scope.principal, selection),
      permits: (objectType, action, id) => this.access.permits(manager, target(objectType), action, id, scope.principal),
      permittedIds: (objectType, action, ids, options) =>
        this.access.permittedIds(manager, target(objectType), action, ids, scope.principal, options),
      served: (objectType) => this.writer.isServed(objectType),
      create: (objectType, items) => this.writer.createWithin(manager, target(objectType), items, scope),
      update: async (objectType, id, body) => {
        const [updated] = await this.writer.updateSerialized(
          manager,
          target(objectType),
          [{ id, data: body }],
          { partial: true, bulk: false },
          scope,
          UNRESTRICTED,
        );
        return updated;
      },
      remove: async (objectType, ids) => {
        const definition = target(objectType);
        await this.collector.deleteRows(manager, definition, await this.collector.lockedRows(manager, definition, ids), scope, undefined);
      },
    };
  }
}
