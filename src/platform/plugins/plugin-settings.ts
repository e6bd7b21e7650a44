import type { EnvReader } from '../../common/config/env-reader';

/** A plugin setting: its kind, default and limits. Set through `PLUGIN_<NAME>_<SETTING>`. */
export type PluginSettingSpec =
  | { kind: 'string'; default: string; description: string; pattern?: { regex: RegExp; description: string } }
  | { kind: 'integer'; default: number; description: string; min: number; max: number }
  | { kind: 'boolean'; default: boolean; description: string }
  | { kind: 'list'; default: readonly string[]; description: string }
  | { kind: 'choice'; default: string; description: string; choices: readonly string[] };

export type PluginSettingValue = string | number | boolean | readonly string[];
export type PluginSettingValues = Readonly<Record<string, PluginSettingValue>>;

/** Builders for a plugin's `settings`, as the fields of a resource are built. */
export const setting = {
  string: (options: { default: string; description: string; pattern?: { regex: RegExp; description: string } }): PluginSettingSpec => ({
    kind: 'string',
    ...options,
  }),
  integer: (options: { default: number; description: string; min: number; max: number }): PluginSettingSpec => ({
    kind: 'integer',
    ...options,
  }),
  boolean: (options: { default: boolean; description: string }): PluginSettingSpec => ({ kind: 'boolean', ...options }),
  list: (options: { default: readonly string[]; description: string }): PluginSettingSpec => ({ kind: 'list', ...options }),
  choice: (choices: readonly string[], options: { default: string; description: string }): PluginSettingSpec => ({
    kind: 'choice',
    choices,
    ...options,
  }),
};

export const SETTING_NAME = /^[a-z][a-z0-9_]*$/;

/** `PLUGIN_FMS_MAX_STRANDS` for setting `max_strands` of plugin `fms`. */
export function settingVariable(plugin: string, name: string): string {
  return `PLUGIN_${plugin.toUpperCase()}_${name.toUpperCase()}`;
}

/** Reads every setting of one plugin (its default when the variable is unset); problems go to the reader. */
export function readPluginSettings(
  reader: EnvReader,
  plugin: string,
  specs: Readonly<Record<string, PluginSettingSpec>>,
): PluginSettingValues {
  const values: Record<string, PluginSettingValue> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const variable = settingVariable(plugin, name);
    switch (spec.kind) {
      case 'string':
        values[name] = reader.string(
          variable,
          spec.default,
          spec.pattern && { pattern: spec.pattern.regex, description: spec.pattern.description },
        );
        break;
      case 'integer':
        values[name] = reader.int(variable, spec.default, spec);
        break;
      case 'boolean':
        values[name] = reader.bool(variable, spec.default);
        break;
      case 'list':
        values[name] = reader.raw(variable) === undefined ? spec.default : reader.list(variable);
        break;
      case 'choice':
        values[name] = reader.oneOf(variable, spec.choices, spec.default);
        break;
    }
  }
  return Object.freeze(values);
}
