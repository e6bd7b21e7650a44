/** The pathways plugin's enumerations (reference §3.1). */

/** Lifecycle of structures and pathways: value, label, colour (the map's legend). */
export const LIFECYCLE_STATUS_CHOICES = [
  ['planned', 'Planned', 'cyan'],
  ['active', 'Active', 'green'],
  ['construction', 'Under Construction', 'blue'],
  ['decommissioning', 'Decommissioning', 'yellow'],
  ['retired', 'Retired', 'red'],
  ['abandoned', 'Abandoned in place', 'gray'],
] as const;

export const LIFECYCLE_STATUSES = LIFECYCLE_STATUS_CHOICES.map(([value, label, color]) => ({ value, label, color }));

export const STRUCTURE_TYPE_CHOICES = [
  ['pole', 'Pole'],
  ['manhole', 'Manhole'],
  ['handhole', 'Handhole'],
  ['cabinet', 'Cabinet'],
  ['vault', 'Vault'],
  ['pedestal', 'Pedestal'],
  ['building_entrance', 'Building entrance'],
  ['tower', 'Tower'],
  ['roof', 'Roof'],
  ['equipment_room', 'Equipment room'],
  ['telecom_closet', 'Telecom closet'],
  ['riser_room', 'Riser room'],
] as const;

export const CONDUIT_MATERIAL_CHOICES = [
  ['pvc', 'PVC'],
  ['hdpe', 'HDPE'],
  ['steel', 'Steel'],
  ['concrete', 'Concrete'],
  ['fiberglass', 'Fiberglass'],
] as const;

export const BANK_CONFIGURATION_CHOICES = [
  ['1x2', '1x2'],
  ['1x3', '1x3'],
  ['1x4', '1x4'],
  ['2x2', '2x2'],
  ['2x3', '2x3'],
  ['2x4', '2x4'],
  ['3x3', '3x3'],
  ['3x4', '3x4'],
  ['custom', 'Custom'],
] as const;

export const ENCASEMENT_TYPE_CHOICES = [
  ['concrete', 'Concrete'],
  ['sand', 'Sand'],
  ['soil', 'Native soil'],
  ['none', 'None'],
] as const;

export const AERIAL_TYPE_CHOICES = [
  ['messenger', 'Messenger'],
  ['self_support', 'Self-supporting'],
  ['lashed', 'Lashed'],
  ['wrapped', 'Wrapped'],
  ['adss', 'ADSS'],
  ['opgw', 'OPGW'],
] as const;

export const ARMOR_TYPE_CHOICES = [
  ['none', 'None'],
  ['steel_tape', 'Steel tape'],
  ['steel_wire', 'Steel wire'],
  ['corrugated', 'Corrugated'],
] as const;
