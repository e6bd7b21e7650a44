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
  ['concrete', 'Concrete encased'],
  ['direct_buried', 'Direct buried'],
  ['bore', 'Directional bore'],
  ['bridge_attachment', 'Bridge attachment'],
  ['tunnel', 'Tunnel'],
] as const;

/** Which face or wall of a structure a conduit or bank enters by. */
export const BANK_FACE_CHOICES = [
  ['north', 'North'],
  ['south', 'South'],
  ['east', 'East'],
  ['west', 'West'],
  ['other', 'Other'],
] as const;

/** Every kind of pathway (the base's `pathway_type`); the first five also have a model of their own with their fields. */
export const PATHWAY_TYPE_CHOICES = [
  ['conduit_bank', 'Conduit bank'],
  ['conduit', 'Conduit'],
  ['aerial', 'Aerial span'],
  ['direct_buried', 'Direct buried'],
  ['innerduct', 'Innerduct'],
  ['microduct', 'Microduct'],
  ['tray', 'Cable tray'],
  ['raceway', 'Raceway'],
  ['submarine', 'Submarine'],
] as const;

export const PLANNED_ROUTE_STATUS_CHOICES = [
  ['draft', 'Draft'],
  ['approved', 'Approved'],
  ['assigned', 'Assigned'],
  ['split', 'Split'],
  ['archived', 'Archived'],
] as const;

export const AERIAL_TYPE_CHOICES = [
  ['messenger', 'Messenger'],
  ['self_support', 'Self-supporting'],
  ['lashed', 'Lashed'],
  ['wrapped', 'Wrapped'],
  ['adss', 'ADSS'],
  ['opgw', 'OPGW'],
] as const;
