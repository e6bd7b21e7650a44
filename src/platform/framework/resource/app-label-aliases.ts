/**
 * App labels under which an upstream NetBox plugin stored the same models (`netbox_fms` for `fms`):
 * an object-type reference written with one (`netbox_fms.spliceplan` in a permission's or custom
 * field's `object_types`, an event rule, an impact's target, a `changed_object_type=` filter) means
 * the model of ours. Objects are always read back under our label.
 */
const ourLabelByAlias = new Map<string, string>();

/** Declares `alias` an app label meaning `appLabel` (a plugin's `appLabelAliases`). */
export function declareAppLabelAlias(alias: string, appLabel: string): void {
  const known = ourLabelByAlias.get(alias);
  if (known !== undefined && known !== appLabel) throw new Error(`app label ${alias} already means ${known}`);
  ourLabelByAlias.set(alias, appLabel);
}

/** `netbox_fms.spliceplan` → `fms.spliceplan`; any other text as it is (compared in lower case, as object types are). */
export function canonicalObjectType(label: string): string {
  const at = label.indexOf('.');
  if (at === -1) return label;
  const ours = ourLabelByAlias.get(label.slice(0, at).toLowerCase());
  return ours === undefined ? label : `${ours}${label.slice(at)}`;
}
