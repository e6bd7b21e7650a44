import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { canonicalObjectType } from './app-label-aliases';
import { DataSource } from 'typeorm';
import type { ResourceHooks } from './resource-declaration';
import { OBJECT_TYPE_TABLE } from './resource-entities';
import { ResourceDefinition } from './resource-definition';

type Settings = Readonly<Record<string, unknown>>;

/** Hooks a plugin declares on a model (its own or another's), with that plugin's settings. */
export interface ResourceHookBinding {
  objectType: string;
  hooks: ResourceHooks;
  settings: Settings;
}

/** What the mounted plugins add to the served models: hooks on any model, and the settings their own models' code sees. */
export interface ResourceBindings {
  hooks: readonly ResourceHookBinding[];
  /** Settings by object type of the mounted plugins' models. */
  settings: ReadonlyMap<string, Settings>;
}

export const RESOURCE_BINDINGS = Symbol('RESOURCE_BINDINGS');
const NO_BINDINGS: ResourceBindings = { hooks: [], settings: new Map() };

/** The served models: the platform's own and those of the mounted plugins. */
export const PLATFORM_RESOURCES = Symbol('PLATFORM_RESOURCES');
/** Every model whose table exists: the served ones and those of available plugins that are not mounted. */
export const STORED_RESOURCES = Symbol('STORED_RESOURCES');

/**
 * The served resources, and the ids of the object types of every stored one. The object-type rows
 * are created at boot for any declaration that lacks one (idempotent, safe with several replicas
 * starting at once), so their ids are stable references for permissions, custom fields, the change
 * log and tags. Models of a plugin that is not mounted are not served, but deleting what they refer
 * to still protects, cascades and records as when it is (`storedDefinitions`).
 */
@Injectable()
export class ResourceRegistry implements OnModuleInit {
  private readonly byObjectType = new Map<string, ResourceDefinition>();
  private readonly idByObjectType = new Map<string, number>();
  private readonly objectTypeById = new Map<number, string>();

  constructor(
    @Inject(PLATFORM_RESOURCES) readonly definitions: readonly ResourceDefinition[],
    @Inject(STORED_RESOURCES) readonly storedDefinitions: readonly ResourceDefinition[],
    private readonly dataSource: DataSource,
    @Optional() @Inject(RESOURCE_BINDINGS) private readonly bindings: ResourceBindings = NO_BINDINGS,
  ) {
    for (const definition of definitions) this.byObjectType.set(definition.objectType, definition);
    assertRelationsResolve(storedDefinitions);
    for (const binding of bindings.hooks) {
      if (!storedDefinitions.some((definition) => definition.objectType === binding.objectType)) {
        throw new Error(`hooks on ${binding.objectType}: no platform or plugin model has that object type`);
      }
    }
  }

  async onModuleInit(): Promise<void> {
    // Before the platform's first migration (e.g. while generating it) there is nothing to sync.
    const [{ present }] = (await this.dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [OBJECT_TYPE_TABLE])) as Array<{
      present: boolean;
    }>;
    if (!present) return;
    const labels = this.storedDefinitions.map((definition) => [definition.appLabel, definition.model]);
    await this.dataSource.query(
      `INSERT INTO ${OBJECT_TYPE_TABLE} (app_label, model)
       SELECT pair->>0, pair->>1 FROM jsonb_array_elements($1::jsonb) AS pair
       ON CONFLICT (app_label, model) DO NOTHING`,
      [JSON.stringify(labels)],
    );
    const rows = (await this.dataSource.query(`SELECT id, app_label, model FROM ${OBJECT_TYPE_TABLE}`)) as Array<{
      id: number;
      app_label: string;
      model: string;
    }>;
    for (const row of rows) {
      const objectType = `${row.app_label}.${row.model}`;
      this.idByObjectType.set(objectType, row.id);
      this.objectTypeById.set(row.id, objectType);
    }
  }

  definition(objectType: string): ResourceDefinition | undefined {
    return this.byObjectType.get(objectType);
  }

  /** Settings of the plugin a served model belongs to (`{}` for the platform's own). */
  settingsOf(definition: ResourceDefinition): Settings {
    return this.bindings.settings.get(definition.objectType) ?? {};
  }

  /**
   * The hooks that run on writes to a model: its own (when it is served: a left-out plugin's code
   * does not run), then those the mounted plugins declare on it, in PLUGINS order.
   */
  hooksOf(definition: ResourceDefinition): ResourceHookBinding[] {
    const own =
      this.byObjectType.get(definition.objectType) === definition
        ? [{ objectType: definition.objectType, hooks: definition, settings: this.settingsOf(definition) }]
        : [];
    return [...own, ...this.bindings.hooks.filter((binding) => binding.objectType === definition.objectType)];
  }

  objectTypeId(objectType: string): number {
    const id = this.idByObjectType.get(objectType);
    if (id === undefined) throw new Error(`object type ${objectType} is not registered`);
    return id;
  }

  /** `app_label.model` of an object-type id, or undefined for ids no declaration has. */
  objectTypeLabel(id: number): string | undefined {
    return this.objectTypeById.get(id);
  }

  /** Resolves `"dcim.site"` (any case; an upstream plugin's app label too: `netbox_fms.spliceplan`) or a numeric id to an object-type id of a declared resource. */
  resolveObjectType(value: unknown): number | undefined {
    if (typeof value === 'number' && Number.isInteger(value)) return this.objectTypeById.has(value) ? value : undefined;
    if (typeof value === 'string') {
      const id = this.idByObjectType.get(canonicalObjectType(value.toLowerCase()));
      if (id !== undefined) return id;
      if (/^\d+$/.test(value)) return this.resolveObjectType(Number(value));
    }
    return undefined;
  }
}

/**
 * Every relation of every stored model must reach a stored model: a target named by an object type
 * no declaration has, or a model outside the platform and the available plugins (it has no table),
 * stops the boot with the field's name.
 */
function assertRelationsResolve(definitions: readonly ResourceDefinition[]): void {
  const stored = new Set(definitions);
  for (const definition of definitions) {
    for (const [name, field] of Object.entries(definition.fields)) {
      if (field.kind !== 'relation' && field.kind !== 'many') continue;
      let target: ResourceDefinition;
      try {
        target = field.target();
      } catch (error) {
        throw new Error(`${definition.objectType}.${name}: ${(error as Error).message}`, { cause: error });
      }
      if (!stored.has(target)) {
        throw new Error(
          `${definition.objectType}.${name} refers to ${target.objectType}, which is neither a platform model nor one of an available plugin`,
        );
      }
    }
  }
}
