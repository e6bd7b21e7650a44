import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../../common/auth/principal';
import type { QueryParameters } from '../query/filter-parser';
import { lastValue, pageLinks, parsePagination } from '../query/pagination';
import { ResourceAccess } from './resource-access';
import type { RequestScope } from './resource-declaration';
import { ExportedFile, findExportTemplate, renderExport } from '../../extras/export-templates';
import { NotFoundError } from '../../../common/errors/common-errors';
import { ResourceDefinition, resourceOf, ResourceRow } from './resource-definition';
import { ResourceDeleteCollector } from './resource-delete-collector';
import { nonFieldError } from './resource-errors';
import { ResourceSerializer, SerializedObject } from './resource-serializer';
import { writeTransaction } from './resource-transactions';
import { bulkItems, ResourceWriter } from './resource-writer';

export type { RequestScope } from './resource-declaration';

export interface ListEnvelope {
  count: number;
  next: string | null;
  previous: string | null;
  results: SerializedObject[];
}

/** A REST list's page: its size when the request names none, and the largest it may name. */
export const LIST_PAGINATION = { defaultLimit: 50, maxLimit: 1000 };

/**
 * The behaviour of every platform resource: NetBox's list, retrieve, create, update and delete
 * (single and bulk, each atomic), restricted by object permissions, recorded in the change log and
 * published to event rules in the same transaction. The parts live beside it: reading
 * (ResourceQuery), permissions (ResourceAccess), writing (ResourceWriter), deleting
 * (ResourceDeleteCollector), recording changes (ResourceChangeRecorder); the models' and plugins'
 * custom actions are ResourceActions'.
 */
@Injectable()
export class ResourceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly serializer: ResourceSerializer,
    private readonly access: ResourceAccess,
    private readonly writer: ResourceWriter,
    private readonly collector: ResourceDeleteCollector,
  ) {}

  async list(definition: ResourceDefinition, query: QueryParameters, scope: RequestScope): Promise<ListEnvelope | ExportedFile> {
    const exportName = lastValue(query.export);
    if (exportName !== undefined) return this.exportList(definition, query, exportName, scope);
    const manager = this.dataSource.manager;
    const pagination = parsePagination(query, LIST_PAGINATION);
    const page = await this.access.visiblePage(manager, definition, query, scope.principal, pagination);
    if (!page) return { count: 0, next: null, previous: null, results: [] };
    const results = await this.serializer.serialize(manager, definition, page.rows, isBrief(query) ? 'brief' : 'full', scope.baseUrl);
    return { count: page.total, ...pageLinks({ requestUrl: scope.requestUrl, count: page.total, ...pagination }), results };
  }

  /**
   * NetBox's `?export=<name>`: the filtered list (the largest page unless `limit` names one) rendered
   * with the model's export template of that name, which the caller must be allowed to view; 404
   * when there is none.
   */
  private async exportList(
    definition: ResourceDefinition,
    query: QueryParameters,
    name: string,
    scope: RequestScope,
  ): Promise<ExportedFile> {
    const manager = this.dataSource.manager;
    const template = await findExportTemplate(manager, definition.objectType, name);
    if (!template) throw new NotFoundError('Not found.');
    await this.access.visibleRow(manager, resourceOf('extras.exporttemplate'), template.id, scope.principal);
    const pagination = parsePagination(query, { defaultLimit: LIST_PAGINATION.maxLimit, maxLimit: LIST_PAGINATION.maxLimit });
    const page = await this.access.visiblePage(manager, definition, query, scope.principal, pagination);
    const objects = page ? await this.serializer.serialize(manager, definition, page.rows, 'full', scope.baseUrl) : [];
    return renderExport(template, objects, definition.path, `${scope.principal.kind}:${scope.principal.id}`);
  }

  async retrieve(definition: ResourceDefinition, id: number, query: QueryParameters, scope: RequestScope): Promise<SerializedObject> {
    const manager = this.dataSource.manager;
    const row = await this.access.visibleRow(manager, definition, id, scope.principal);
    const [object] = await this.serializer.serialize(manager, definition, [row], isBrief(query) ? 'brief' : 'full', scope.baseUrl);
    return object;
  }

  /** Rows the caller may view, for other readers such as GraphQL; filters as on the REST list. */
  visibleRows(
    manager: EntityManager,
    definition: ResourceDefinition,
    query: QueryParameters,
    principal: Principal,
    pagination: { limit: number; offset: number },
    columns?: readonly string[],
  ): Promise<ResourceRow[]> {
    return this.access.visibleRows(manager, definition, query, principal, pagination, columns);
  }

  /** POST: one object, or a list (bulk create). */
  async create(definition: ResourceDefinition, body: unknown, scope: RequestScope): Promise<SerializedObject | SerializedObject[]> {
    const items = Array.isArray(body) ? body : [body];
    if (items.length === 0) throw nonFieldError('Expected a non-empty list of objects.');
    const restriction = await this.access.requireAction(definition, scope.principal, 'add');
    const results = await writeTransaction(this.dataSource, (manager) =>
      this.writer.createSerialized(manager, definition, items, { bulk: Array.isArray(body) }, scope, restriction),
    );
    return Array.isArray(body) ? results : results[0];
  }

  /** PATCH/PUT of one object (`id` given) or of a list of objects that each carry their id (bulk update). */
  async update(
    definition: ResourceDefinition,
    id: number | null,
    body: unknown,
    partial: boolean,
    scope: RequestScope,
  ): Promise<SerializedObject | SerializedObject[]> {
    const items = id === null ? bulkItems(body) : [{ id, data: body }];
    const restriction = await this.access.requireAction(definition, scope.principal, 'change');
    const results = await writeTransaction(this.dataSource, (manager) =>
      this.writer.updateSerialized(manager, definition, items, { partial, bulk: id === null }, scope, restriction),
    );
    return id === null ? results : results[0];
  }

  /** DELETE of one object, or of a list of `{id}` (bulk delete). */
  async delete(definition: ResourceDefinition, id: number | null, body: unknown, scope: RequestScope): Promise<void> {
    const ids = id === null ? bulkItems(body).map((item) => item.id) : [id];
    const restriction = await this.access.requireAction(definition, scope.principal, 'delete');
    await this.dataSource.transaction(async (manager) => {
      // Locked before they are read: of racing deletes of one object, each waits for the one before
      // it and then finds the object gone (404, nothing written), so it is deleted and recorded once.
      await this.collector.lockedRows(manager, definition, ids);
      const rows: ResourceRow[] = [];
      for (const objectId of ids) rows.push(await this.access.permittedRow(manager, definition, objectId, restriction));
      await this.collector.deleteRows(manager, definition, rows, scope, body);
    });
  }
}

function isBrief(query: QueryParameters): boolean {
  const value = lastValue(query.brief);
  return value !== undefined && ['true', '1', 'True'].includes(value);
}
