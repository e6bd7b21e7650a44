import type {
  BooleanField,
  ChoiceField,
  DateField,
  DecimalField,
  GenericRelationField,
  IntegerField,
  JsonField,
  ManyField,
  RelationField,
  StringListField,
  TextField,
} from './resource-declaration';
import { resourceOf } from './resource-definition';
import type { ResourceDefinition } from './resource-declaration';

export type {
  BooleanField,
  Choice,
  ChoiceField,
  DateField,
  DecimalField,
  FieldSpec,
  GenericRelationField,
  IntegerField,
  JsonField,
  ManyField,
  OnDelete,
  RelationField,
  StringListField,
  TextField,
} from './resource-declaration';

/**
 * Field declarations of a platform resource. Each kind knows its column, its JSON shape on read and
 * write, its validation and its filter lookups; the builders below are the vocabulary of a
 * resource declaration.
 */

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

/** Choices from `[value, label]` pairs, `[value, label, color]` triples, or bare values labelled by capitalising. */
export function choice(
  choices: ReadonlyArray<string | readonly [string, string] | readonly [string, string, string]>,
  options: Omit<Options<ChoiceField>, 'choices'> = {},
): ChoiceField {
  return {
    kind: 'choice',
    choices: choices.map((entry) =>
      typeof entry === 'string'
        ? { value: entry, label: labelFor(entry) }
        : { value: entry[0], label: entry[1], ...(entry.length === 3 ? { color: entry[2] } : {}) },
    ),
    ...options,
  };
}

/**
 * A model a relation points at: a function returning its declaration, or its object type
 * (`'users.user'`), looked up when first needed, so that two models may refer to each other without
 * their modules importing each other.
 */
export type RelationTarget = (() => ResourceDefinition) | string;

function targetOf(target: RelationTarget): () => ResourceDefinition {
  return typeof target === 'string' ? () => resourceOf(target) : target;
}

export function relation(target: RelationTarget, options: Omit<Options<RelationField>, 'target'>): RelationField {
  return { kind: 'relation', target: targetOf(target), ...options };
}

export function many(target: RelationTarget, options: Omit<Options<ManyField>, 'target'> = {}): ManyField {
  return { kind: 'many', target: targetOf(target), ...options };
}

function labelFor(value: string): string {
  const words = value.replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
