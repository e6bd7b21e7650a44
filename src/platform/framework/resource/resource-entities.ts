import { createHash } from 'node:crypto';
import {
  Check,
  Column,
  ColumnOptions,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { FieldSpec } from './fields';
import { columnFields, genericColumns, joinTableOf, manyFields, ResourceDefinition, uniqueGroups } from './resource-definition';

/** The object-type table: generic relations point at it. */
export const OBJECT_TYPE_TABLE = 'core_objecttype';

export type EntityClass = new () => object;

/**
 * TypeORM entities for the resources: one class per table plus one per many-to-many join table,
 * made by applying TypeORM's decorators to generated classes. Decorated classes rather than
 * EntitySchemas because TypeORM resolves relations between the two kinds separately, and resources
 * reference class entities of other modules (users). They exist so that `migration:generate` sees the
 * platform's tables like any entity; the framework itself reads and writes through SQL on them.
 */
export function buildEntityClasses(definitions: readonly ResourceDefinition[]): EntityClass[] {
  const classes = new Map<ResourceDefinition, EntityClass>();
  const classOf = (definition: ResourceDefinition): EntityClass => {
    if (definition.externalEntity) return definition.externalEntity();
    let entity = classes.get(definition);
    if (!entity) {
      entity = namedClass(definition.table);
      classes.set(definition, entity);
    }
    return entity;
  };
  const objectTypeClass = () => classOf(definitions.find((definition) => definition.table === OBJECT_TYPE_TABLE)!);

  const all: EntityClass[] = [];
  for (const definition of definitions) {
    if (definition.externalEntity) continue;
    const entity = classOf(definition);
    decorateTable(entity, definition, classOf, objectTypeClass);
    all.push(entity);
    for (const { name, field } of manyFields(definition)) {
      all.push(joinTableClass(definition, name, entity, classOf(field.target())));
    }
  }
  return all;
}

function namedClass(name: string): EntityClass {
  const holder = { [name]: class {} };
  return holder[name];
}

function decorateTable(
  entity: EntityClass,
  definition: ResourceDefinition,
  classOf: (definition: ResourceDefinition) => EntityClass,
  objectTypeClass: () => EntityClass,
): void {
  const { table } = definition;
  const prototype = entity.prototype as object;
  const standard = definition.standardAttributes;
  PrimaryGeneratedColumn({ type: 'integer', primaryKeyConstraintName: `${table}_pkey` })(prototype, 'id');
  if (standard.created) CreateDateColumn({ type: 'timestamptz' })(prototype, standard.created);
  if (standard.lastUpdated) UpdateDateColumn({ type: 'timestamptz' })(prototype, standard.lastUpdated);
  if (standard.customFields) Column({ type: 'jsonb', default: () => "'{}'" })(prototype, 'custom_field_data');

  for (const { name, field, column } of columnFields(definition)) {
    Column(columnOptions(field))(prototype, column);
    if (field.unique) Unique(`${table}_${column}_key`, [column])(entity);
    if (field.kind === 'relation') {
      const target = field.target();
      ManyToOne(() => classOf(target), {
        nullable: !field.required,
        onDelete: field.onDelete === 'PROTECT' ? 'RESTRICT' : field.onDelete,
      })(prototype, `${name}_relation`);
      JoinColumn({ name: column, foreignKeyConstraintName: `${table}_${column}_fkey` })(prototype, `${name}_relation`);
      Index(`${table}_${column}_idx`, [column])(entity);
    }
  }
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.kind !== 'generic') continue;
    const { type, id } = genericColumns(name);
    Column({ type: 'integer', nullable: !field.required })(prototype, type);
    Column({ type: 'integer', nullable: !field.required })(prototype, id);
    ManyToOne(() => objectTypeClass(), { nullable: !field.required, onDelete: 'CASCADE' })(prototype, `${name}_type_relation`);
    JoinColumn({ name: type, foreignKeyConstraintName: `${table}_${type}_fkey` })(prototype, `${name}_type_relation`);
    Index(`${table}_${name}_idx`, [type, id])(entity);
  }
  for (const { fields: group } of uniqueGroups(definition)) {
    const groupColumns = group.map((name) => columnFields(definition).find((entry) => entry.name === name)?.column ?? name);
    Unique(identifier(`${table}_${groupColumns.join('_')}`, 'key'), groupColumns)(entity);
  }
  for (const check of definition.checks ?? []) Check(check.name, check.expression)(entity);
  for (const index of definition.indexes ?? []) Index(index.name, [...index.columns], { spatial: index.method === 'gist' })(entity);
  Entity(table)(entity);
}

/** PostgreSQL truncates identifiers at 63 bytes; a longer name gets a short hash so it stays unique and stable. */
function identifier(base: string, suffix: string): string {
  const name = `${base}_${suffix}`;
  if (name.length <= 63) return name;
  return `${base.slice(0, 63 - suffix.length - 10)}_${createHash('sha256').update(base).digest('hex').slice(0, 8)}_${suffix}`;
}

function columnOptions(field: FieldSpec): ColumnOptions {
  switch (field.kind) {
    case 'text':
      if (field.columnType) return { type: field.columnType, nullable: field.nullable ?? false };
      return {
        type: field.maxLength ? 'varchar' : 'text',
        length: field.maxLength,
        nullable: field.nullable ?? false,
        default: field.nullable ? undefined : (field.default ?? ''),
      };
    case 'integer':
      return { type: field.big ? 'bigint' : 'integer', nullable: field.nullable ?? false, default: field.default };
    case 'decimal':
      return { type: 'numeric', precision: field.precision, scale: field.scale, nullable: field.nullable ?? false, default: field.default };
    case 'boolean':
      return { type: 'boolean', default: field.default };
    case 'choice':
      return { type: 'varchar', length: 50, default: field.default ?? '' };
    case 'date':
      return { type: 'date', nullable: field.nullable ?? !field.required };
    case 'datetime':
      if (field.default === 'now') return { type: 'timestamptz', nullable: false, default: () => 'now()' };
      return { type: 'timestamptz', nullable: field.nullable ?? !field.required };
    case 'json':
      return { type: 'jsonb', nullable: field.nullable ?? true };
    case 'string-list':
      return { type: 'text', array: true, default: () => "'{}'" };
    case 'relation':
      return { type: 'integer', nullable: !field.required };
    case 'many':
    case 'generic':
      throw new Error('many and generic fields have no column of their own');
  }
}

function joinTableClass(definition: ResourceDefinition, name: string, source: EntityClass, target: EntityClass): EntityClass {
  const join = joinTableOf(definition, name);
  const entity = namedClass(join.table);
  const prototype = entity.prototype as object;
  PrimaryColumn({ type: 'integer', primaryKeyConstraintName: `${join.table}_pkey` })(prototype, join.source);
  PrimaryColumn({ type: 'integer', primaryKeyConstraintName: `${join.table}_pkey` })(prototype, join.target);
  ManyToOne(() => source, { onDelete: 'CASCADE' })(prototype, 'source_relation');
  JoinColumn({ name: join.source, foreignKeyConstraintName: identifier(`${join.table}_${join.source}`, 'fkey') })(
    prototype,
    'source_relation',
  );
  ManyToOne(() => target, { onDelete: 'CASCADE' })(prototype, 'target_relation');
  JoinColumn({ name: join.target, foreignKeyConstraintName: identifier(`${join.table}_${join.target}`, 'fkey') })(
    prototype,
    'target_relation',
  );
  Index(`${join.table}_${join.target}_idx`, [join.target])(entity);
  Entity(join.table)(entity);
  return entity;
}
