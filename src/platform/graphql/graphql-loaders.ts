import DataLoader from 'dataloader';
import { EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import type { QueryParameters } from '../framework/query/filter-parser';
import type { GraphqlObjectReference, GraphqlUnionList } from '../framework/resource/resource-declaration';
import {
  joinTableOf,
  quoteIdentifier,
  ResourceDefinition,
  ResourceExtension,
  ResourceRow,
} from '../framework/resource/resource-definition';
import { ResourceRegistry } from '../framework/resource/resource-registry';
import { normalizeRow, selectList } from '../framework/resource/resource-rows';
import { TAG_TABLE, TAGGED_ITEM_TABLE } from '../framework/resource/resource-serializer';
import { ResourceService } from '../framework/resource/resource.service';

/**
 * Per-request batch loaders: every relation, many-to-many set and tag list requested while
 * resolving one level of a query is fetched with one SQL statement per kind, so a list of N objects
 * with a relation costs a constant number of queries, not N. Rows come through the same permission
 * restriction as REST: an object the caller may not view resolves to null.
 */
export class GraphqlLoaders {
  private readonly rowLoaders = new Map<ResourceDefinition, DataLoader<number, ResourceRow | null>>();
  private readonly manyLoaders = new Map<string, DataLoader<number, number[]>>();
  private readonly tagLoaders = new Map<ResourceDefinition, DataLoader<number, ResourceRow[]>>();
  private readonly childLoaders = new Map<string, DataLoader<number, ResourceRow[]>>();
  private readonly unionLoaders = new Map<GraphqlUnionList['read'], DataLoader<number, Record<string, ResourceRow[]>>>();
  /** The model of each row a union list resolved to, for the union's type resolution. */
  private readonly unionMembers = new WeakMap<ResourceRow, ResourceDefinition>();
  private readonly computedLoaders = new Map<
    ResourceDefinition,
    Map<ResourceExtension, DataLoader<ResourceRow, Record<string, unknown>, number>>
  >();

  constructor(
    private readonly manager: EntityManager,
    private readonly resources: ResourceService,
    private readonly registry: ResourceRegistry,
    private readonly principal: Principal,
  ) {}

  async list(definition: ResourceDefinition, filters: QueryParameters, page: { offset: number; limit: number }): Promise<ResourceRow[]> {
    const rows = await this.resources.visibleRows(this.manager, definition, filters, this.principal, page);
    const loader = this.rowLoader(definition);
    for (const row of rows) loader.prime(row.id, row);
    return rows;
  }

  row(definition: ResourceDefinition, id: number): Promise<ResourceRow | null> {
    return this.rowLoader(definition).load(id);
  }

  manyIds(definition: ResourceDefinition, field: string, sourceId: number): Promise<number[]> {
    const key = `${definition.table}.${field}`;
    let loader = this.manyLoaders.get(key);
    if (!loader) {
      const join = joinTableOf(definition, field);
      loader = new DataLoader(async (sourceIds: readonly number[]) => {
        const links = (await this.manager.query(
          `SELECT ${quoteIdentifier(join.source)} AS source, ${quoteIdentifier(join.target)} AS target
             FROM ${quoteIdentifier(join.table)} WHERE ${quoteIdentifier(join.source)} = ANY($1) ORDER BY 2`,
          [[...sourceIds]],
        )) as Array<{ source: number; target: number }>;
        return sourceIds.map((id) => links.filter((link) => link.source === id).map((link) => link.target));
      });
      this.manyLoaders.set(key, loader);
    }
    return loader.load(sourceId);
  }

  /**
   * The rows of `definition` whose relation `field` (column `column`) points at `parentId`, in the
   * model's ordering: the parents of one level are read with one statement, as the REST filter `<field>_id`.
   */
  children(definition: ResourceDefinition, field: string, column: string, parentId: number): Promise<ResourceRow[]> {
    const key = `${definition.table}.${column}`;
    let loader = this.childLoaders.get(key);
    if (!loader) {
      loader = new DataLoader(async (parentIds: readonly number[]) => {
        const rows = await this.resources.visibleRows(
          this.manager,
          definition,
          { [`${field}_id`]: parentIds.map(String) },
          this.principal,
          {
            offset: 0,
            limit: Number.MAX_SAFE_INTEGER,
          },
        );
        const rowLoader = this.rowLoader(definition);
        for (const row of rows) rowLoader.prime(row.id, row);
        const byParent = new Map<unknown, ResourceRow[]>();
        for (const row of rows) byParent.set(row[column], [...(byParent.get(row[column]) ?? []), row]);
        return parentIds.map((id) => byParent.get(id) ?? []);
      });
      this.childLoaders.set(key, loader);
    }
    return loader.load(parentId);
  }

  /**
   * The objects of a row's union list `name` that the caller may view, in order: the references of
   * every row of the level in one read, then the objects of each model in one statement, all of them
   * before any list resolves (so the level below is batched as one, whatever models it mixes).
   */
  async unionList(list: GraphqlUnionList, name: string, rowId: number): Promise<ResourceRow[]> {
    let loader = this.unionLoaders.get(list.read);
    if (!loader) {
      loader = new DataLoader(async (rowIds: readonly number[]) => {
        const references = await list.read(this.manager, rowIds);
        const members = new Map<string, ResourceRow | null>();
        const keyOf = ({ objectType, id }: GraphqlObjectReference) => `${objectType}:${id}`;
        const all = [...references.values()].flatMap((lists) => Object.values(lists).flat());
        await Promise.all(
          all.map(async (reference) => {
            const definition = this.registry.definition(reference.objectType);
            const row = definition ? await this.rowLoader(definition).load(reference.id) : null;
            if (row && definition) this.unionMembers.set(row, definition);
            members.set(keyOf(reference), row);
          }),
        );
        return rowIds.map((id) =>
          Object.fromEntries(
            Object.entries(references.get(id) ?? {}).map(([listName, listed]) => [
              listName,
              listed.flatMap((reference) => members.get(keyOf(reference)) ?? []),
            ]),
          ),
        );
      });
      this.unionLoaders.set(list.read, loader);
    }
    const rows = (await loader.load(rowId))[name] ?? [];
    return rows.filter((row) => list.objectTypes.includes(this.unionMembers.get(row)!.objectType));
  }

  /** The model of a row a union list resolved to. */
  unionMemberDefinition(row: ResourceRow): ResourceDefinition | undefined {
    return this.unionMembers.get(row);
  }

  /** The properties an extension computes for a row, computed for every row of the level at once. */
  computed(definition: ResourceDefinition, extension: ResourceExtension, row: ResourceRow): Promise<Record<string, unknown>> {
    let loaders = this.computedLoaders.get(definition);
    if (!loaders) {
      loaders = new Map<ResourceExtension, DataLoader<ResourceRow, Record<string, unknown>, number>>();
      this.computedLoaders.set(definition, loaders);
    }
    let loader = loaders.get(extension);
    if (!loader) {
      const compute = extension.computed!;
      loader = new DataLoader(
        async (rows: readonly ResourceRow[]) => {
          const values = await compute(this.manager, rows);
          return rows.map((each) => values.get(each.id) ?? {});
        },
        { cacheKeyFn: (each) => each.id },
      );
      loaders.set(extension, loader);
    }
    return loader.load(row);
  }

  tags(definition: ResourceDefinition, objectId: number): Promise<ResourceRow[]> {
    let loader = this.tagLoaders.get(definition);
    if (!loader) {
      const tagDefinition = this.registry.definition('extras.tag')!;
      loader = new DataLoader(async (objectIds: readonly number[]) => {
        const raws = (await this.manager.query(
          `SELECT ti.object_id AS tagged_object_id, ${selectList(tagDefinition, 't')}
             FROM ${TAGGED_ITEM_TABLE} ti JOIN ${TAG_TABLE} t ON t.id = ti.tag_id
            WHERE ti.object_type_id = $1 AND ti.object_id = ANY($2) ORDER BY t.name`,
          [this.registry.objectTypeId(definition.objectType), [...objectIds]],
        )) as Array<Record<string, unknown>>;
        return objectIds.map((id) =>
          raws.filter((raw) => Number(raw.tagged_object_id) === id).map((raw) => normalizeRow(tagDefinition, raw)),
        );
      });
      this.tagLoaders.set(definition, loader);
    }
    return loader.load(objectId);
  }

  objectTypeLabel(id: unknown): string | null {
    return typeof id === 'number' ? (this.registry.objectTypeLabel(id) ?? null) : null;
  }

  private rowLoader(definition: ResourceDefinition): DataLoader<number, ResourceRow | null> {
    let loader = this.rowLoaders.get(definition);
    if (!loader) {
      loader = new DataLoader(async (ids: readonly number[]) => {
        const rows = await this.resources.visibleRows(this.manager, definition, { id: ids.map(String) }, this.principal, {
          offset: 0,
          limit: ids.length,
        });
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) ?? null);
      });
      this.rowLoaders.set(definition, loader);
    }
    return loader;
  }
}
