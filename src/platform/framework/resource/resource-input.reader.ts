import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EgressPolicy } from '../../../common/http/egress-policy';
import { customFieldProblem } from './custom-field-values';
import { parseScalarInput, readObjectId } from './field-input';
import { ManyField, RelationField } from './fields';
import { FieldErrors } from './resource-errors';
import { columnFields, genericColumns, quoteIdentifier, ResourceDefinition, ResourceRow, uniqueGroups } from './resource-definition';
import { ResourceRegistry } from './resource-registry';
import { CustomFieldDefinition, OBJECT_TYPE_OBJECT, ResourceSerializer, TAG_TABLE } from './resource-serializer';

/** What a validated write changes: own columns, many-to-many sets, tags and custom-field data. */
export interface WritePlan {
  columns: Record<string, unknown>;
  many: Map<string, number[]>;
  /** Undefined when the request did not mention tags. */
  tagIds?: number[];
  /** The complete custom-field data after the write; undefined when unchanged. */
  customFieldData?: Record<string, unknown>;
}

export interface ReadOptions {
  /** PATCH: only the given fields. Create and PUT check required fields. */
  partial: boolean;
  currentUserId: number;
}

const REQUIRED = 'This field is required.';

/**
 * Validates one written object against its resource declaration and the database (related objects
 * exist, unique values are free, custom fields are valid), collecting every problem by field as
 * NetBox does. Nothing is written here.
 */
@Injectable()
export class ResourceInputReader {
  private readonly customFieldCache = new WeakMap<EntityManager, Map<string, Promise<CustomFieldDefinition[]>>>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly serializer: ResourceSerializer,
    private readonly egress: EgressPolicy,
  ) {}

  async read(
    manager: EntityManager,
    definition: ResourceDefinition,
    input: unknown,
    existing: ResourceRow | null,
    options: ReadOptions,
  ): Promise<{ plan: WritePlan } | { errors: FieldErrors }> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${describe(input)}.`] } };
    }
    const creating = existing === null;
    const checkRequired = creating || !options.partial;
    const errors: FieldErrors = {};
    const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
    const body = { ...(input as Record<string, unknown>) };
    for (const [alias, name] of Object.entries(definition.inputAliases ?? {})) {
      if (!Object.hasOwn(body, alias)) continue;
      if (Object.hasOwn(body, name)) fail(alias, `Give ${name} or ${alias}, not both.`);
      else body[name] = body[alias];
      delete body[alias];
    }
    const plan: WritePlan = { columns: {}, many: new Map() };

    for (const [name, field] of Object.entries(definition.fields)) {
      if (field.readOnly) {
        if (field.kind === 'relation' && ((creating && field.defaultToCurrentUser) || field.setToWriter)) {
          plan.columns[field.column ?? `${name}_id`] = options.currentUserId;
        }
        continue;
      }
      if (field.kind === 'generic') {
        await this.readGeneric(manager, name, field.required ?? false, field.allowedTypes, body, checkRequired, plan, fail);
        continue;
      }
      if (!Object.hasOwn(body, name)) {
        if (field.kind === 'relation' && field.defaultToCurrentUser && creating) {
          plan.columns[field.column ?? `${name}_id`] = options.currentUserId;
        } else if (field.kind === 'json' && field.default && creating) {
          // A JSON column has no database default: a new row gets a fresh copy of the declared one.
          plan.columns[field.column ?? name] = field.default();
        } else if (checkRequired && 'required' in field && field.required && !('default' in field && field.default !== undefined)) {
          fail(name, REQUIRED);
        }
        continue;
      }
      if (field.createOnly && !creating) {
        const column = field.column ?? name;
        if (existing[column] !== body[name]) fail(name, 'This field cannot be changed once the object exists.');
        continue;
      }
      const raw = body[name];
      if (field.kind === 'relation') {
        const result = await this.readRelation(manager, field, raw);
        if ('problem' in result) fail(name, result.problem);
        else plan.columns[field.column ?? `${name}_id`] = result.value;
      } else if (field.kind === 'many') {
        const result = await this.readMany(manager, field, raw);
        if ('problem' in result) fail(name, result.problem);
        else plan.many.set(name, result.value);
      } else {
        const result = parseScalarInput(field, raw);
        if ('problem' in result) fail(name, result.problem);
        else plan.columns[field.column ?? name] = result.value;
      }
    }

    if (definition.standardAttributes.tags && Object.hasOwn(body, 'tags')) {
      const result = await this.readTags(manager, body.tags);
      if ('problem' in result) fail('tags', result.problem);
      else plan.tagIds = result.value;
    }
    if (definition.standardAttributes.customFields) {
      await this.readCustomFields(manager, definition, body, existing, creating, plan, fail);
    }
    if (Object.keys(errors).length > 0) return { errors };

    const merged = { ...(existing ?? {}), ...plan.columns };
    await this.checkUniqueness(manager, definition, merged, existing?.id ?? null, plan, fail);
    for (const [field, messages] of Object.entries(definition.validate?.(merged, { egress: this.egress }) ?? {}))
      messages.forEach((m) => fail(field, m));
    if (Object.keys(errors).length === 0 && definition.validateAsync) {
      for (const [field, messages] of Object.entries(await definition.validateAsync(manager, merged, body)))
        messages.forEach((m) => fail(field, m));
    }
    for (const extension of definition.extensions ?? []) {
      if (!creating && !extension.keys.some((key) => Object.hasOwn(body, key))) continue;
      for (const [field, messages] of Object.entries(await extension.validate(manager, body, existing)))
        messages.forEach((m) => fail(field, m));
    }
    return Object.keys(errors).length > 0 ? { errors } : { plan };
  }

  private async readRelation(
    manager: EntityManager,
    field: RelationField,
    raw: unknown,
  ): Promise<{ value: number | null } | { problem: string }> {
    if (raw === null) return field.required ? { problem: 'This field may not be null.' } : { value: null };
    const target = field.target();
    if (target.objectType === OBJECT_TYPE_OBJECT) {
      const id = this.registry.resolveObjectType(raw);
      return id === undefined ? { problem: `Invalid object type: ${JSON.stringify(raw)}` } : { value: id };
    }
    if (typeof raw === 'object' && !Array.isArray(raw) && !('id' in raw))
      return this.findByAttributes(manager, target, raw as Record<string, unknown>);
    const id = readObjectId(raw);
    if (id === undefined) return { problem: `Incorrect type. Expected pk value, received ${describe(raw)}.` };
    const found = await this.existingIds(manager, target, [id]);
    return found.has(id) ? { value: id } : { problem: `Related object not found using the provided numeric ID: ${id}` };
  }

  /** NetBox's nested write by attributes, e.g. `{"slug": "ams1"}`: exactly one object must match. */
  private async findByAttributes(
    manager: EntityManager,
    target: ResourceDefinition,
    attributes: Record<string, unknown>,
  ): Promise<{ value: number } | { problem: string }> {
    const columns = new Map(columnFields(target).map((entry) => [entry.name, entry.column]));
    const names = Object.keys(attributes);
    const unknown = names.find((name) => !columns.has(name) || typeof attributes[name] === 'object');
    const shown = JSON.stringify(attributes);
    if (names.length === 0 || unknown !== undefined) return { problem: `Related object not found using the provided attributes: ${shown}` };
    const where = names.map((name, index) => `${quoteIdentifier(columns.get(name)!)}::text = $${index + 1}::text`).join(' AND ');
    const rows = (await manager.query(
      `SELECT id FROM ${quoteIdentifier(target.table)} WHERE ${where} LIMIT 2 FOR KEY SHARE`,
      names.map((name) => String(attributes[name])),
    )) as Array<{
      id: number;
    }>;
    if (rows.length === 0) return { problem: `Related object not found using the provided attributes: ${shown}` };
    if (rows.length > 1) return { problem: `Multiple objects match the provided attributes: ${shown}` };
    return { value: Number(rows[0].id) };
  }

  private async readMany(manager: EntityManager, field: ManyField, raw: unknown): Promise<{ value: number[] } | { problem: string }> {
    if (!Array.isArray(raw)) return { problem: `Expected a list of items but got type "${describe(raw)}".` };
    if (field.required && raw.length === 0) return { problem: 'This list may not be empty.' };
    const target = field.target();
    const ids: number[] = [];
    for (const item of raw) {
      const id = target.objectType === OBJECT_TYPE_OBJECT ? this.registry.resolveObjectType(item) : readObjectId(item);
      if (id === undefined) return { problem: `Invalid value ${JSON.stringify(item)}.` };
      ids.push(id);
    }
    if (target.objectType !== OBJECT_TYPE_OBJECT) {
      const found = await this.existingIds(manager, target, ids);
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) return { problem: `Invalid pk "${missing}" - object does not exist.` };
    }
    return { value: [...new Set(ids)] };
  }

  private async readGeneric(
    manager: EntityManager,
    name: string,
    required: boolean,
    allowedTypes: readonly string[] | undefined,
    body: Record<string, unknown>,
    checkRequired: boolean,
    plan: WritePlan,
    fail: (field: string, message: string) => void,
  ): Promise<void> {
    const typeKey = `${name}_type`;
    const idKey = `${name}_id`;
    const hasType = Object.hasOwn(body, typeKey);
    const hasId = Object.hasOwn(body, idKey);
    if (!hasType && !hasId) {
      if (checkRequired && required) {
        fail(typeKey, REQUIRED);
        fail(idKey, REQUIRED);
      }
      return;
    }
    if (hasType !== hasId) {
      fail(hasType ? idKey : typeKey, `${typeKey} and ${idKey} must be given together.`);
      return;
    }
    const columns = genericColumns(name);
    if (body[typeKey] === null && body[idKey] === null && !required) {
      plan.columns[columns.type] = null;
      plan.columns[columns.id] = null;
      return;
    }
    const typeId = this.registry.resolveObjectType(body[typeKey]);
    const label = typeId === undefined ? undefined : this.registry.objectTypeLabel(typeId);
    const target = label ? this.registry.definition(label) : undefined;
    if (typeId === undefined || !target) {
      fail(typeKey, `Invalid object type: ${JSON.stringify(body[typeKey])}`);
      return;
    }
    if (allowedTypes && !allowedTypes.includes(target.objectType)) {
      fail(typeKey, `Objects of type ${target.objectType} cannot be assigned here; allowed: ${allowedTypes.join(', ')}.`);
      return;
    }
    const id = readObjectId(body[idKey]);
    if (id === undefined) {
      fail(idKey, 'A valid integer is required.');
      return;
    }
    if (!(await this.existingIds(manager, target, [id])).has(id)) {
      fail(idKey, `No ${target.verboseName} with ID ${id} exists.`);
      return;
    }
    plan.columns[columns.type] = typeId;
    plan.columns[columns.id] = id;
  }

  /** Tags by id, `{"id": n}`, `{"name": …}`, `{"slug": …}` or a bare name/slug string. */
  private async readTags(manager: EntityManager, raw: unknown): Promise<{ value: number[] } | { problem: string }> {
    if (!Array.isArray(raw)) return { problem: `Expected a list of items but got type "${describe(raw)}".` };
    // Only the tags the request names, by id, name or slug.
    const ids = raw.map((item) => readObjectId(item)).filter((id): id is number => id !== undefined);
    const labels = raw.flatMap((item) =>
      typeof item === 'string'
        ? [item]
        : typeof item === 'object' && item !== null
          ? Object.values(item as object).filter((v): v is string => typeof v === 'string')
          : [],
    );
    const rows = (await manager.query(`SELECT id, name, slug FROM ${TAG_TABLE} WHERE id = ANY($1) OR name = ANY($2) OR slug = ANY($2)`, [
      ids,
      labels,
    ])) as Array<{ id: number; name: string; slug: string }>;
    const tagIds: number[] = [];
    for (const item of raw) {
      const byId = readObjectId(item);
      let tag = byId !== undefined ? rows.find((row) => row.id === byId) : undefined;
      if (!tag && typeof item === 'string') tag = rows.find((row) => row.name === item || row.slug === item);
      if (!tag && typeof item === 'object' && item !== null && !('id' in item)) {
        const wanted = item as { name?: unknown; slug?: unknown };
        tag = rows.find(
          (row) => (wanted.name === undefined || row.name === wanted.name) && (wanted.slug === undefined || row.slug === wanted.slug),
        );
        if (wanted.name === undefined && wanted.slug === undefined) tag = undefined;
      }
      if (!tag) return { problem: `Related object not found using the provided attributes: ${JSON.stringify(item)}` };
      tagIds.push(tag.id);
    }
    return { value: [...new Set(tagIds)] };
  }

  private async readCustomFields(
    manager: EntityManager,
    definition: ResourceDefinition,
    body: Record<string, unknown>,
    existing: ResourceRow | null,
    creating: boolean,
    plan: WritePlan,
    fail: (field: string, message: string) => void,
  ): Promise<void> {
    const given = body.custom_fields;
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
      fail('custom_fields', 'Custom field data must be a JSON object.');
      return;
    }
    if (given === undefined && !creating) return;
    const fields = await this.customFieldsInTransaction(manager, definition.objectType);
    const changes = (given ?? {}) as Record<string, unknown>;
    for (const name of Object.keys(changes)) {
      if (!fields.some((field) => field.name === name)) fail('custom_fields', `Unknown field name '${name}' in custom field data.`);
    }
    const data: Record<string, unknown> = { ...((existing?.custom_field_data as Record<string, unknown> | undefined) ?? {}) };
    for (const field of fields) {
      if (Object.hasOwn(changes, field.name)) data[field.name] = changes[field.name];
      else if (creating && field.default !== null && field.default !== undefined) data[field.name] = field.default;
      const value = data[field.name] ?? null;
      const problem = customFieldProblem(field, value);
      if (problem) {
        fail('custom_fields', `Invalid value for custom field '${field.name}': ${problem}`);
        continue;
      }
      if (value !== null && (field.type === 'object' || field.type === 'multiobject')) {
        const label = field.related_object_type_id === null ? undefined : this.registry.objectTypeLabel(field.related_object_type_id);
        const target = label ? this.registry.definition(label) : undefined;
        const ids = Array.isArray(value) ? (value as number[]) : [value as number];
        const found = target ? await this.existingIds(manager, target, ids) : new Set<number>();
        if (ids.some((id) => !found.has(id))) fail('custom_fields', `Invalid value for custom field '${field.name}': object not found.`);
      }
      if (data[field.name] === undefined) data[field.name] = null;
    }
    plan.customFieldData = data;
  }

  /**
   * Custom-field definitions read once per write transaction and object type (a bulk request or a
   * device instantiating a hundred ports validates against the same definitions). Writes always run
   * in their own transaction manager, so the cache never outlives it.
   */
  private customFieldsInTransaction(manager: EntityManager, objectType: string): Promise<CustomFieldDefinition[]> {
    let byType = this.customFieldCache.get(manager);
    if (!byType) {
      byType = new Map();
      this.customFieldCache.set(manager, byType);
    }
    let fields = byType.get(objectType);
    if (!fields) {
      fields = this.serializer.customFieldsFor(manager, objectType);
      byType.set(objectType, fields);
    }
    return fields;
  }

  private async checkUniqueness(
    manager: EntityManager,
    definition: ResourceDefinition,
    merged: Record<string, unknown>,
    excludeId: number | null,
    plan: WritePlan,
    fail: (field: string, message: string) => void,
  ): Promise<void> {
    const table = quoteIdentifier(definition.table);
    const fieldsByColumn = new Map(columnFields(definition).map((entry) => [entry.column, entry]));
    const columnOfName = (name: string) => columnFields(definition).find((entry) => entry.name === name)?.column ?? name;
    const taken = async (columns: string[], group: { nullsEqual?: boolean; caseInsensitive?: readonly string[] }) => {
      // Absent on create: the column's default, which for a relation is null.
      const value = (column: string) =>
        Object.hasOwn(merged, column) ? merged[column] : fieldsByColumn.get(column)?.field.kind === 'relation' ? null : undefined;
      if (columns.some((column) => value(column) === undefined || (value(column) === null && !group.nullsEqual))) return false;
      const folded = new Set((group.caseInsensitive ?? []).map(columnOfName));
      const where = columns
        .map((column, index) =>
          folded.has(column)
            ? `lower(${quoteIdentifier(column)}) = lower($${index + 1})`
            : `${quoteIdentifier(column)} IS NOT DISTINCT FROM $${index + 1}`,
        )
        .join(' AND ');
      const rows = (await manager.query(`SELECT 1 FROM ${table} WHERE ${where} AND id <> $${columns.length + 1} LIMIT 1`, [
        ...columns.map(value),
        excludeId ?? 0,
      ])) as unknown[];
      return rows.length > 0;
    };
    const touched = (columns: string[]) => columns.some((column) => Object.hasOwn(plan.columns, column));
    for (const { name, field, column } of columnFields(definition)) {
      if (field.unique && touched([column]) && (await taken([column], {}))) {
        fail(name, `${definition.verboseName} with this ${field.label ?? name.replace(/_/g, ' ')} already exists.`);
      }
    }
    for (const group of uniqueGroups(definition)) {
      const columns = group.fields.map(columnOfName);
      if (touched(columns) && (await taken(columns, group))) {
        const names = group.fields.map((name) => name.replace(/_type_id$/, '_type'));
        if (group.violation) fail(group.violation.field, group.violation.message);
        else fail('non_field_errors', `The fields ${names.join(', ')} must make a unique set.`);
      }
    }
  }

  /**
   * Unique values repeated within one bulk request: the database check cannot see rows not yet
   * written (and a unique constraint does not compare empty values), so the batch is compared with itself.
   */
  batchDuplicates(definition: ResourceDefinition, plans: readonly WritePlan[]): Array<FieldErrors | undefined> {
    const errors: Array<FieldErrors | undefined> = [];
    const columnOfName = (name: string) => columnFields(definition).find((entry) => entry.name === name)?.column ?? name;
    const keyOf = (plan: WritePlan, columns: string[], group: { nullsEqual?: boolean; caseInsensitive?: readonly string[] }) => {
      const folded = new Set((group.caseInsensitive ?? []).map(columnOfName));
      const values = columns.map((column) => plan.columns[column] ?? null);
      if (values.some((value) => value === null) && !group.nullsEqual) return undefined;
      return JSON.stringify(
        values.map((value, index) => (folded.has(columns[index]) && typeof value === 'string' ? value.toLowerCase() : value)),
      );
    };
    const check = (
      columns: string[],
      group: { nullsEqual?: boolean; caseInsensitive?: readonly string[] },
      field: string,
      message: string,
    ) => {
      const seen = new Set<string>();
      plans.forEach((plan, index) => {
        const key = keyOf(plan, columns, group);
        if (key === undefined) return;
        if (seen.has(key)) ((errors[index] ??= {})[field] ??= []).push(message);
        seen.add(key);
      });
    };
    for (const { name, field, column } of columnFields(definition)) {
      if (field.unique)
        check([column], {}, name, `${definition.verboseName} with this ${field.label ?? name.replace(/_/g, ' ')} already exists.`);
    }
    for (const group of uniqueGroups(definition)) {
      const columns = group.fields.map(columnOfName);
      const { field, message } = group.violation ?? {
        field: 'non_field_errors',
        message: `The fields ${group.fields.join(', ')} must make a unique set.`,
      };
      check(columns, group, field, message);
    }
    return errors;
  }

  /**
   * The referenced ids that exist, locked (FOR KEY SHARE) for the writing transaction: a delete of
   * one of them waits for this write and then finds the reference, or deleted it first and it is
   * reported missing here, so a write never commits a reference to an object deleted meanwhile.
   */
  private async existingIds(manager: EntityManager, target: ResourceDefinition, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = (await manager.query(`SELECT id FROM ${quoteIdentifier(target.table)} WHERE id = ANY($1) ORDER BY id FOR KEY SHARE`, [
      ids,
    ])) as Array<{
      id: number;
    }>;
    return new Set(rows.map((row) => Number(row.id)));
  }
}

/** The JSON value's type as DRF names it in messages (Python's type names). */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'NoneType';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return ({ string: 'str', boolean: 'bool', object: 'dict' } as Record<string, string>)[typeof value] ?? typeof value;
}
