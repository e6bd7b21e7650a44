import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { FieldSpec } from './fields';
import { JsonColumnsStatement } from './json-columns-statement';
import { genericColumns, joinTableOf, quoteIdentifier, relationFields, ResourceDefinition, ResourceRow } from './resource-definition';
import type { ObjectSerializer, Representation, SerializedObject } from './resource-declaration';
import { ResourceRegistry } from './resource-registry';
import { normalizeRow, selectList } from './resource-rows';

export type { Representation, SerializedObject } from './resource-declaration';

/** Tables shared by every resource: tags and their assignments, custom fields. */
export const TAG_TABLE = 'extras_tag';
export const TAGGED_ITEM_TABLE = 'extras_taggeditem';
export const CUSTOM_FIELD_TABLE = 'extras_customfield';
export const OBJECT_TYPE_OBJECT = 'core.objecttype';

export interface CustomFieldDefinition {
  id: number;
  name: string;
  type: string;
  required: boolean;
  default: unknown;
  validation_minimum: number | null;
  validation_maximum: number | null;
  validation_regex: string;
  choices: string[];
  related_object_type_id: number | null;
}

/** Everything a page of rows refers to, loaded in one statement (no N+1, no round trip per kind). */
interface ReferenceData {
  baseUrl: string;
  rowsByTable: Map<string, Map<number, ResourceRow>>;
  manyIds: Map<string, Map<number, number[]>>;
  tags: Map<number, ResourceRow[]>;
  customFieldNames: string[];
}

/**
 * Turns rows into NetBox's JSON: the full representation, `?brief=true`, the nested form of a
 * referenced object (`{id, url, display, …brief}`), and the change-log snapshot.
 */
@Injectable()
export class ResourceSerializer implements ObjectSerializer {
  constructor(private readonly registry: ResourceRegistry) {}

  async serialize(
    manager: EntityManager,
    definition: ResourceDefinition,
    rows: readonly ResourceRow[],
    representation: Representation,
    baseUrl: string,
  ): Promise<SerializedObject[]> {
    const data = await this.loadReferences(manager, definition, rows, representation, baseUrl);
    const objects = rows.map((row) => this.represent(definition, row, representation, data));
    for (const extension of definition.extensions ?? []) {
      // `?brief=true` carries the extension keys the brief names (NetBox's counts in `brief_fields`).
      const keys = representation === 'full' ? extension.keys : extension.keys.filter((key) => definition.brief.includes(key));
      if (keys.length === 0) continue;
      const extra = await extension.represent(manager, rows, baseUrl, this);
      objects.forEach((object, index) => {
        const values = extra.get(rows[index].id) ?? {};
        if (representation === 'full') Object.assign(object, values);
        else for (const key of keys) if (key in values) object[key] = values[key];
      });
    }
    return objects;
  }

  /** NetBox's `serialize_object`: plain values, relations as ids, tags as names, custom fields as stored. */
  async snapshots(manager: EntityManager, definition: ResourceDefinition, rows: readonly ResourceRow[]): Promise<SerializedObject[]> {
    const data = await this.loadReferences(manager, definition, rows, 'snapshot', '');
    const extras = await Promise.all((definition.extensions ?? []).map((extension) => extension.snapshot(manager, rows)));
    return rows.map((row) => {
      const snapshot: SerializedObject = {};
      const standard = definition.standardAttributes;
      // Like NetBox's serialize_object, without last_updated: it changes on every save.
      if (standard.created) snapshot.created = isoOrNull(row[standard.created]);
      for (const [name, field] of Object.entries(definition.fields)) {
        if (field.kind === 'many') snapshot[name] = data.manyIds.get(name)?.get(row.id) ?? [];
        else if (field.kind === 'generic') {
          const columns = genericColumns(name);
          snapshot[`${name}_type`] = row[columns.type] ?? null;
          snapshot[`${name}_id`] = row[columns.id] ?? null;
        } else if (field.kind === 'relation') snapshot[name] = row[field.column ?? `${name}_id`] ?? null;
        else snapshot[name] = scalarValue(field, row[field.column ?? name], 'snapshot');
      }
      if (standard.customFields) snapshot.custom_fields = (row.custom_field_data as Record<string, unknown> | null) ?? {};
      if (standard.tags) snapshot.tags = (data.tags.get(row.id) ?? []).map((tag) => tag.name);
      for (const extra of extras) Object.assign(snapshot, extra.get(row.id) ?? {});
      return snapshot;
    });
  }

  /** Brief representations of objects of one type by id (for references the fields do not declare, such as cable ends). */
  async briefByIds(
    manager: EntityManager,
    objectType: string,
    ids: readonly number[],
    baseUrl: string,
  ): Promise<Map<number, SerializedObject>> {
    const definition = this.registry.definition(objectType);
    if (!definition || ids.length === 0) return new Map();
    const raws = (await manager.query(
      `SELECT ${selectList(definition, 't')} FROM ${quoteIdentifier(definition.table)} t WHERE t.id = ANY($1)`,
      [[...ids]],
    )) as Array<Record<string, unknown>>;
    const rows = raws.map((raw) => normalizeRow(definition, raw));
    const objects = await this.serialize(manager, definition, rows, 'brief', baseUrl);
    return new Map(rows.map((row, index) => [row.id, objects[index]]));
  }

  url(baseUrl: string, definition: ResourceDefinition, id: number): string {
    return `${baseUrl}${definition.listPath}${id}/`;
  }

  /** The custom fields that apply to an object type, in display order. */
  async customFieldsFor(manager: EntityManager, objectType: string): Promise<CustomFieldDefinition[]> {
    const rows = (await manager.query(
      `SELECT cf.id, cf.name, cf.type, cf.required, cf.default, cf.validation_minimum, cf.validation_maximum,
              cf.validation_regex, cf.choices, cf.related_object_type_id
         FROM ${CUSTOM_FIELD_TABLE} cf
         JOIN ${CUSTOM_FIELD_TABLE}_object_types j ON j.customfield_id = cf.id
        WHERE j.objecttype_id = $1
        ORDER BY cf.weight, cf.name`,
      [this.registry.objectTypeId(objectType)],
    )) as CustomFieldDefinition[];
    return rows;
  }

  private represent(
    definition: ResourceDefinition,
    row: ResourceRow,
    representation: Representation,
    data: ReferenceData,
  ): SerializedObject {
    if (representation === 'brief') return this.nested(definition, row, data, 0, true);
    const object: SerializedObject = {
      id: row.id,
      url: this.url(data.baseUrl, definition, row.id),
      display: definition.display(row),
    };
    for (const [name, field] of Object.entries(definition.fields)) {
      if (field.writeOnly) continue;
      this.assignFieldValue(object, name, field, row, data);
    }
    const standard = definition.standardAttributes;
    if (standard.tags) object.tags = (data.tags.get(row.id) ?? []).map((tag) => this.nested(this.tagDefinition(), tag, data));
    if (standard.customFields) object.custom_fields = this.customFieldValues(row, data.customFieldNames);
    if (standard.created) object.created = isoOrNull(row[standard.created]);
    if (standard.lastUpdated) object.last_updated = isoOrNull(row[standard.lastUpdated]);
    return object;
  }

  /**
   * `{id, url, display, …brief fields}`; a relation among the brief fields nests one level further.
   * A generic relation among them (`?brief=true` of an assignment: `member_type`, `member_id`,
   * `member`) only in the brief representation itself, whose page loaded what it points at.
   */
  private nested(definition: ResourceDefinition, row: ResourceRow, data: ReferenceData, depth = 0, brief = false): SerializedObject {
    const object: SerializedObject = { id: row.id, url: this.url(data.baseUrl, definition, row.id), display: definition.display(row) };
    for (const name of definition.brief) {
      const field = definition.fields[name];
      if (!field) {
        if (name === 'created' || name === 'last_updated') object[name] = isoOrNull(row[name]);
        continue;
      }
      if (field.kind === 'relation') {
        const id = row[field.column ?? `${name}_id`] as number | null;
        // Two levels at most (what loadReferences fetched); deeper references stay plain ids.
        object[name] = id === null ? null : depth < 1 ? this.reference(field.target(), id, data, depth + 1) : id;
      } else if (field.kind === 'generic') {
        if (brief) this.assignFieldValue(object, name, field, row, data);
      } else if (field.kind !== 'many') object[name] = scalarValue(field, row[field.column ?? name], 'rest');
    }
    return object;
  }

  /** Writes a field's value(s) into `object` (a generic relation is three properties). */
  private assignFieldValue(object: SerializedObject, name: string, field: FieldSpec, row: ResourceRow, data: ReferenceData): void {
    switch (field.kind) {
      case 'relation': {
        const id = row[field.column ?? `${name}_id`] as number | null;
        object[name] = id === null ? null : this.reference(field.target(), id, data);
        return;
      }
      case 'many': {
        const target = field.target();
        const ids = data.manyIds.get(name)?.get(row.id) ?? [];
        object[name] = ids.map((id) => this.reference(target, id, data));
        return;
      }
      case 'generic': {
        const columns = genericColumns(name);
        const typeId = row[columns.type] as number | null;
        const id = row[columns.id] as number | null;
        const label = typeId === null ? null : (this.registry.objectTypeLabel(typeId) ?? null);
        const target = label ? this.registry.definition(label) : undefined;
        const targetRow = target && id !== null ? data.rowsByTable.get(target.table)?.get(id) : undefined;
        object[`${name}_type`] = label;
        object[`${name}_id`] = id;
        object[name] = target && targetRow ? this.nested(target, targetRow, data) : null;
        return;
      }
      default:
        object[name] = scalarValue(field, row[field.column ?? name], 'rest');
    }
  }

  /** A referenced object: object types read as `"app.model"`, like NetBox's content-type fields. */
  private reference(target: ResourceDefinition, id: number, data: ReferenceData, depth = 0): unknown {
    if (target.objectType === OBJECT_TYPE_OBJECT) return this.registry.objectTypeLabel(id) ?? id;
    const row = data.rowsByTable.get(target.table)?.get(id);
    return row ? this.nested(target, row, data, depth) : { id, url: this.url(data.baseUrl, target, id), display: String(id) };
  }

  private customFieldValues(row: ResourceRow, customFieldNames: readonly string[]): Record<string, unknown> {
    const stored = (row.custom_field_data as Record<string, unknown> | null) ?? {};
    return Object.fromEntries(customFieldNames.map((name) => [name, stored[name] ?? null]));
  }

  private tagDefinition(): ResourceDefinition {
    return this.registry.definition('extras.tag')!;
  }

  /**
   * Everything the rows refer to, read in one statement: many-to-many links, the referenced objects
   * and what their nested form refers to in turn (a strand's fiber cable, then that cable's platform
   * cable and type), the custom fields of the model and the rows' tags.
   */
  private async loadReferences(
    manager: EntityManager,
    definition: ResourceDefinition,
    rows: readonly ResourceRow[],
    representation: Representation | 'snapshot',
    baseUrl: string,
  ): Promise<ReferenceData> {
    const data: ReferenceData = { baseUrl, rowsByTable: new Map(), manyIds: new Map(), tags: new Map(), customFieldNames: [] };
    if (rows.length === 0) return data;
    const statement = new JsonColumnsStatement();
    // Placed on first use: PostgreSQL cannot type a parameter no subquery uses.
    let objectIdsParameter: string | undefined;
    const objectIds = () => (objectIdsParameter ??= statement.ids(rows.map((row) => row.id)));
    const wanted = (name: string) => representation !== 'brief' || definition.brief.includes(name);
    const referenced = new ReferencedObjects(statement);

    const links: Array<{ name: string; column: number }> = [];
    for (const [name, field] of Object.entries(definition.fields)) {
      if (field.kind !== 'many' || !wanted(name)) continue;
      const join = joinTableOf(definition, name);
      const linked = `SELECT ${quoteIdentifier(join.source)} AS source, ${quoteIdentifier(join.target)} AS target
                        FROM ${quoteIdentifier(join.table)} WHERE ${quoteIdentifier(join.source)} = ANY(${objectIds()})`;
      links.push({ name, column: statement.add(linked, 'json_agg(json_build_array(x.source, x.target) ORDER BY x.target)') });
      if (representation !== 'snapshot') referenced.addQuery(field.target(), `SELECT l.target FROM (${linked}) l`);
    }
    if (representation !== 'snapshot') {
      for (const { name, field, column } of relationFields(definition)) {
        if (!wanted(name)) continue;
        for (const row of rows) referenced.addId(field.target(), row[column]);
      }
      for (const [name, field] of Object.entries(definition.fields)) {
        if (field.kind !== 'generic' || !wanted(name)) continue;
        const columns = genericColumns(name);
        for (const row of rows) {
          const label = row[columns.type] === null ? undefined : this.registry.objectTypeLabel(row[columns.type] as number);
          const target = label ? this.registry.definition(label) : undefined;
          if (target) referenced.addId(target, row[columns.id]);
        }
      }
      // Two levels: the referenced objects, and what their nested form refers to (a device type's
      // manufacturer inside a device), selected by subqueries on the first.
      referenced.addNested();
    }
    const loads = referenced.loads();
    const customFields =
      representation === 'full' && definition.standardAttributes.customFields
        ? statement.add(
            `SELECT cf.name, cf.weight FROM ${CUSTOM_FIELD_TABLE} cf JOIN ${CUSTOM_FIELD_TABLE}_object_types j ON j.customfield_id = cf.id
              WHERE j.objecttype_id = ${statement.parameter(this.registry.objectTypeId(definition.objectType))}`,
            'json_agg(x.name ORDER BY x.weight, x.name)',
          )
        : undefined;
    const tags =
      definition.standardAttributes.tags && representation !== 'brief'
        ? statement.add(
            `SELECT ti.object_id AS tagged_object_id, ${selectList(this.tagDefinition(), 't')}
               FROM ${TAGGED_ITEM_TABLE} ti JOIN ${TAG_TABLE} t ON t.id = ti.tag_id
              WHERE ti.object_type_id = ${statement.parameter(this.registry.objectTypeId(definition.objectType))} AND ti.object_id = ANY(${objectIds()})`,
            'json_agg(x ORDER BY x.name)',
          )
        : undefined;

    const results = await statement.run(manager);
    for (const { name, column } of links) {
      const bySource = new Map<number, number[]>();
      for (const [source, target] of results[column] as Array<[number, number]>)
        bySource.set(source, [...(bySource.get(source) ?? []), target]);
      data.manyIds.set(name, bySource);
    }
    for (const { target, column } of loads) {
      const byId = data.rowsByTable.get(target.table) ?? new Map<number, ResourceRow>();
      for (const raw of results[column] as Array<Record<string, unknown>>) {
        const row = normalizeRow(target, raw);
        byId.set(row.id, row);
      }
      data.rowsByTable.set(target.table, byId);
    }
    if (customFields !== undefined) data.customFieldNames = results[customFields] as string[];
    if (tags !== undefined) {
      for (const raw of results[tags] as Array<Record<string, unknown>>) {
        const objectId = Number(raw.tagged_object_id);
        data.tags.set(objectId, [...(data.tags.get(objectId) ?? []), normalizeRow(this.tagDefinition(), raw)]);
      }
    }
    return data;
  }
}

/** The objects of one referenced model to read: ids the rows hold, and subqueries selecting more. */
interface Selection {
  ids: Set<number>;
  queries: string[];
}

/**
 * The objects a page refers to, by model, as conditions on their ids: the first level from the rows'
 * columns, the second (the relations among the first level's brief fields) as subqueries on the
 * first, so that both levels are read in the same statement.
 */
class ReferencedObjects {
  private readonly selections = new Map<ResourceDefinition, Selection>();
  private readonly idParameters = new Map<Selection, string>();

  constructor(private readonly statement: JsonColumnsStatement) {}

  addId(target: ResourceDefinition, id: unknown): void {
    if (id === null || id === undefined || target.objectType === OBJECT_TYPE_OBJECT) return;
    this.selectionOf(target).ids.add(Number(id));
  }

  addQuery(target: ResourceDefinition, query: string): void {
    if (target.objectType === OBJECT_TYPE_OBJECT) return;
    this.selectionOf(target).queries.push(query);
  }

  /** The second level: for each brief relation of a first-level model, the ids its selected rows hold. */
  addNested(): void {
    const first = [...this.selections].map(([target, selection]) => ({ target, condition: this.condition(selection, 'n') }));
    for (const { target, condition } of first) {
      for (const { name, field, column } of relationFields(target)) {
        if (!target.brief.includes(name)) continue;
        this.addQuery(field.target(), `SELECT n.${quoteIdentifier(column)} FROM ${quoteIdentifier(target.table)} n WHERE ${condition}`);
      }
    }
  }

  /** One column of the statement per model: its selected rows. */
  loads(): Array<{ target: ResourceDefinition; column: number }> {
    return [...this.selections].map(([target, selection]) => ({
      target,
      column: this.statement.add(
        `SELECT ${selectList(target, 't')} FROM ${quoteIdentifier(target.table)} t WHERE ${this.condition(selection, 't')}`,
      ),
    }));
  }

  private selectionOf(target: ResourceDefinition): Selection {
    let selection = this.selections.get(target);
    if (!selection) {
      selection = { ids: new Set(), queries: [] };
      this.selections.set(target, selection);
    }
    return selection;
  }

  private condition(selection: Selection, alias: string): string {
    const parts = selection.queries.map((query) => `${alias}.id IN (${query})`);
    if (selection.ids.size > 0) {
      let parameter = this.idParameters.get(selection);
      if (!parameter) {
        parameter = this.statement.ids([...selection.ids]);
        this.idParameters.set(selection, parameter);
      }
      parts.unshift(`${alias}.id = ANY(${parameter})`);
    }
    return parts.join(' OR ');
  }
}

/** NetBox's choice fields read as `{value, label}` (plus `color` when the choice has one); everything else as stored. */
function scalarValue(field: FieldSpec, value: unknown, mode: 'rest' | 'snapshot'): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (field.kind === 'choice' && mode === 'rest') {
    if (value === null || value === '') return null;
    const entry = field.choices.find((candidate) => candidate.value === value);
    return {
      value: field.numeric ? Number(value) : value,
      label: entry?.label ?? String(value),
      ...(entry?.color ? { color: entry.color } : {}),
    };
  }
  return value;
}

function isoOrNull(value: unknown): string | null {
  return value instanceof Date ? value.toISOString() : ((value as string | null | undefined) ?? null);
}
