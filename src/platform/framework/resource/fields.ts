import type { ResourceDefinition } from './resource-definition';

/**
 * Field declarations of a platform resource. Each kind knows its column, its JSON shape on read and
 * write, its validation and its filter lookups; the builders below are the vocabulary of a
 * resource declaration.
 */

export type OnDelete = 'CASCADE' | 'SET NULL' | 'PROTECT';

interface CommonOptions {
  /** Column name; defaults to the field name (`<name>_id` for relations). */
  column?: string;
  /** Shown on read, ignored on write (e.g. computed or server-set values). */
  readOnly?: boolean;
  /** Accepted on write, never shown on read. */
  writeOnly?: boolean;
  /** Matched by the `q` filter (case-insensitive substring). */
  search?: boolean;
  /** Unique across the table; checked before writing so the error names the field. */
  unique?: boolean;
  /** Not offered as a query filter. */
  noFilter?: boolean;
  /** Set on create, refused on update (NetBox's read-only-after-create fields). */
  createOnly?: boolean;
  /** How messages name the field ("ASN with this ASN already exists."); default: the name with spaces. */
  label?: string;
}

export interface TextField extends CommonOptions {
  kind: 'text';
  /** Unlimited (`text` column) when absent. */
  maxLength?: number;
  required?: boolean;
  /** Null allowed (else blank means `''`). */
  nullable?: boolean;
  pattern?: { regex: RegExp; message: string };
  default?: string;
  /** PostgreSQL network types (IPAM): stored as such, read and filtered as text. */
  columnType?: 'inet' | 'cidr';
  /** Parses and normalises a written value (e.g. an IP address), replacing the string checks. */
  parse?: (raw: unknown) => { value: string } | { problem: string };
}

export interface IntegerField extends CommonOptions {
  kind: 'integer';
  min?: number;
  max?: number;
  required?: boolean;
  nullable?: boolean;
  default?: number;
  /** `bigint` column (e.g. 32-bit unsigned ASNs); read back as a number. */
  big?: boolean;
}

export interface DecimalField extends CommonOptions {
  kind: 'decimal';
  precision: number;
  scale: number;
  min?: number;
  max?: number;
  required?: boolean;
  nullable?: boolean;
  default?: number;
}

export interface BooleanField extends CommonOptions {
  kind: 'boolean';
  default: boolean;
}

export interface Choice {
  value: string;
  label: string;
}

export interface ChoiceField extends CommonOptions {
  kind: 'choice';
  choices: readonly Choice[];
  required?: boolean;
  default?: string;
  /** `''` allowed (NetBox's blank choice). */
  blank?: boolean;
}

export interface DateField extends CommonOptions {
  kind: 'date' | 'datetime';
  required?: boolean;
  nullable?: boolean;
}

export interface JsonField extends CommonOptions {
  kind: 'json';
  nullable?: boolean;
  /** Default for new rows; null when absent. */
  default?: () => unknown;
  /** Checks a written value; returns problems (empty when valid). */
  validate?: (value: unknown) => string[];
}

/** A list of strings stored as `text[]` (e.g. a permission's actions). */
export interface StringListField extends CommonOptions {
  kind: 'string-list';
  /** When given, every item must be one of these. */
  choices?: readonly string[];
  /** Items must match this (when no choices). */
  itemPattern?: { regex: RegExp; message: string };
  required?: boolean;
}

export interface RelationField extends CommonOptions {
  kind: 'relation';
  target: () => ResourceDefinition;
  required?: boolean;
  onDelete: OnDelete;
  /** Filled from the caller on create when not given (e.g. `created_by`, a token's `user`). */
  defaultToCurrentUser?: boolean;
  /** With SET NULL: other columns reset at the same time (e.g. a port's `cable_end` with its `cable`). */
  clearAlso?: Record<string, unknown>;
}

/** Many-to-many through a join table `<table>_<field>`. */
export interface ManyField extends CommonOptions {
  kind: 'many';
  target: () => ResourceDefinition;
  required?: boolean;
}

/**
 * A generic foreign key: `<name>_type` (an object type, written as `"app.model"`) and
 * `<name>_id`, read back also as a nested `<name>` object. The pair must name an existing object.
 */
export interface GenericRelationField extends CommonOptions {
  kind: 'generic';
  required?: boolean;
  /** When the object pointed at is deleted: delete this one too, or clear the pointer; default keep (history). */
  onDelete?: 'CASCADE' | 'SET NULL';
  /** Object types it may point at (`"dcim.interface"`); any declared type when absent. */
  allowedTypes?: readonly string[];
}

export type FieldSpec =
  | TextField
  | IntegerField
  | DecimalField
  | BooleanField
  | ChoiceField
  | DateField
  | JsonField
  | StringListField
  | RelationField
  | ManyField
  | GenericRelationField;

type Options<F> = Omit<F, 'kind'>;

export const text = (options: Options<TextField> = {}): TextField => ({ kind: 'text', ...options });
export const longText = (options: Omit<Options<TextField>, 'maxLength'> = {}): TextField => ({ kind: 'text', ...options });

const SLUG = /^[-a-zA-Z0-9_]+$/;
export const slug = (options: Options<TextField> = {}): TextField => ({
  kind: 'text',
  maxLength: 100,
  required: true,
  unique: true,
  pattern: { regex: SLUG, message: 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.' },
  ...options,
});

const HEX_COLOR = /^[0-9a-f]{6}$/;
export const color = (options: Options<TextField> = {}): TextField => ({
  kind: 'text',
  maxLength: 6,
  pattern: { regex: HEX_COLOR, message: 'Enter a valid hexadecimal RGB color code (six lowercase hex digits, no "#").' },
  ...options,
});

export const integer = (options: Options<IntegerField> = {}): IntegerField => ({ kind: 'integer', ...options });
export const decimal = (options: Options<DecimalField>): DecimalField => ({ kind: 'decimal', ...options });
export const boolean = (options: Options<BooleanField>): BooleanField => ({ kind: 'boolean', ...options });
export const date = (options: Omit<Options<DateField>, never> = {}): DateField => ({ kind: 'date', ...options });
export const datetime = (options: Omit<Options<DateField>, never> = {}): DateField => ({ kind: 'datetime', ...options });
export const json = (options: Options<JsonField> = {}): JsonField => ({ kind: 'json', ...options });
export const stringList = (options: Options<StringListField> = {}): StringListField => ({ kind: 'string-list', ...options });
export const genericRelation = (options: Options<GenericRelationField> = {}): GenericRelationField => ({
  kind: 'generic',
  ...options,
});

/** Choices from `[value, label]` pairs (or bare values, labelled by capitalising). */
export function choice(
  choices: ReadonlyArray<string | readonly [string, string]>,
  options: Omit<Options<ChoiceField>, 'choices'> = {},
): ChoiceField {
  return {
    kind: 'choice',
    choices: choices.map((entry) =>
      typeof entry === 'string' ? { value: entry, label: labelFor(entry) } : { value: entry[0], label: entry[1] },
    ),
    ...options,
  };
}

export function relation(target: () => ResourceDefinition, options: Omit<Options<RelationField>, 'target'>): RelationField {
  return { kind: 'relation', target, ...options };
}

export function many(target: () => ResourceDefinition, options: Omit<Options<ManyField>, 'target'> = {}): ManyField {
  return { kind: 'many', target, ...options };
}

function labelFor(value: string): string {
  const words = value.replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The database column of a field that has one (relations: `<name>_id`; many and generic have none of their own). */
export function columnOf(name: string, field: FieldSpec): string | undefined {
  if (field.kind === 'many' || field.kind === 'generic') return undefined;
  if (field.column) return field.column;
  return field.kind === 'relation' ? `${name}_id` : name;
}
