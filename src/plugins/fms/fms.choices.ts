/** The fms plugin's enumerations (reference §1.1) and the fibre colour schemes (§1.3). */

export const CONSTRUCTION_CHOICES = [
  ['loose_tube', 'Loose tube'],
  ['tight_buffer', 'Tight buffer'],
  ['ribbon', 'Ribbon'],
  ['ribbon_in_tube', 'Ribbon in tube'],
  ['micro', 'Micro cable'],
  ['blown_fiber', 'Blown fiber'],
] as const;

export const SHEATH_MATERIAL_CHOICES = [
  ['lszh', 'LSZH'],
  ['pe', 'PE'],
  ['mdpe', 'MDPE'],
  ['hdpe', 'HDPE'],
  ['pvc', 'PVC'],
  ['pvdf', 'PVDF'],
] as const;

export const ARMOR_TYPE_CHOICES = [
  ['steel_tape', 'Steel tape'],
  ['steel_wire', 'Steel wire'],
  ['corrugated_steel', 'Corrugated steel'],
  ['aluminum', 'Aluminum'],
  ['dielectric', 'Dielectric'],
] as const;

export const DEPLOYMENT_CHOICES = [
  ['indoor', 'Indoor'],
  ['outdoor', 'Outdoor'],
  ['direct_buried', 'Direct buried'],
  ['duct', 'Duct'],
  ['microduct', 'Microduct'],
  ['submarine', 'Submarine'],
  ['aerial_adss', 'Aerial (ADSS)'],
  ['aerial_figure8', 'Aerial (figure 8)'],
  ['aerial_lashed', 'Aerial (lashed)'],
  ['indoor_outdoor', 'Indoor/outdoor'],
] as const;

export const FIRE_RATING_CHOICES = [
  ['ofnp', 'OFNP (plenum)'],
  ['ofnr', 'OFNR (riser)'],
  ['ofng', 'OFNG (general)'],
  ['ofn', 'OFN'],
  ['cpr_aca', 'CPR Aca'],
  ['cpr_bca', 'CPR B2ca'],
  ['cpr_cca', 'CPR Cca'],
  ['cpr_dca', 'CPR Dca'],
  ['cpr_eca', 'CPR Eca'],
  ['lszh', 'LSZH'],
] as const;

export const ELEMENT_TYPE_CHOICES = [
  ['strength_member', 'Strength member'],
  ['central_member', 'Central member'],
  ['power_conductor', 'Power conductor'],
  ['tracer_wire', 'Tracer wire'],
  ['messenger_wire', 'Messenger wire'],
  ['ripcord', 'Ripcord'],
  ['water_blocking', 'Water blocking'],
] as const;

export const MARKER_TYPE_CHOICES = [
  ['dash', 'Dash'],
  ['ring', 'Ring'],
  ['stripe', 'Stripe'],
  ['band', 'Band'],
] as const;

/** Sequential cable marks are lengths: the platform's cable length units. */
export { LENGTH_UNIT_CHOICES as MARK_UNIT_CHOICES } from '../../platform/plugin-api';

export const SPLICE_PLAN_STATUS_CHOICES = [
  ['draft', 'Draft'],
  ['pending_approval', 'Pending approval'],
  ['approved', 'Approved'],
  ['archived', 'Archived'],
] as const;

export const FIBER_CIRCUIT_STATUS_CHOICES = [
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['active', 'Active'],
  ['decommissioned', 'Decommissioned'],
] as const;

export const TRAY_ROLE_CHOICES = [
  ['splice_tray', 'Splice tray'],
  ['express_basket', 'Express basket'],
] as const;

export const STORAGE_METHOD_CHOICES = [
  ['coil', 'Coil'],
  ['figure_8', 'Figure 8'],
  ['in_tray', 'In tray'],
  ['on_pole', 'On pole'],
  ['in_vault', 'In vault'],
] as const;

/** `Cable.type` values that carry fibre; a fiber cable's platform cable must have one of them (or none). */
export const FIBRE_CABLE_TYPES: ReadonlySet<string> = new Set([
  'smf',
  'smf-os1',
  'smf-os2',
  'mmf',
  'mmf-om1',
  'mmf-om2',
  'mmf-om3',
  'mmf-om4',
  'mmf-om5',
]);

export interface FibreColor {
  name: string;
  hex: string;
}

const HEX: Record<string, string> = {
  Blue: '0000ff',
  Orange: 'ff8000',
  Green: '00ff00',
  Brown: '8b4513',
  Slate: '708090',
  Gray: '708090',
  Grey: '708090',
  White: 'ffffff',
  Red: 'ff0000',
  Black: '000000',
  Yellow: 'ffff00',
  Violet: 'ee82ee',
  Rose: 'ff69b4',
  Pink: 'ff69b4',
  Aqua: '00ffff',
  Turquoise: '00ffff',
};

const scheme = (...names: string[]): readonly FibreColor[] => names.map((name) => ({ name, hex: HEX[name] }));

/** The twelve colours of each scheme in order; strand i (1-based in its tube or ribbon) takes palette[(i−1) mod 12]. */
export const COLOR_SCHEMES = {
  eia_598: scheme('Blue', 'Orange', 'Green', 'Brown', 'Slate', 'White', 'Red', 'Black', 'Yellow', 'Violet', 'Rose', 'Aqua'),
  nbr_14771: scheme('Green', 'Yellow', 'White', 'Blue', 'Red', 'Violet', 'Brown', 'Rose', 'Black', 'Gray', 'Orange', 'Aqua'),
  din_iec_60304: scheme('Red', 'Green', 'Blue', 'Yellow', 'White', 'Grey', 'Brown', 'Violet', 'Turquoise', 'Black', 'Orange', 'Pink'),
} as const;

export type ColorScheme = keyof typeof COLOR_SCHEMES;

export const COLOR_SCHEME_CHOICES = [
  ['eia_598', 'EIA/TIA-598'],
  ['nbr_14771', 'ABNT NBR 14771'],
  ['din_iec_60304', 'DIN/IEC 60304'],
] as const;

/** The colour of the strand at 1-based index `i` inside its tube or ribbon. */
export function strandColor(colorScheme: ColorScheme, i: number): FibreColor {
  const palette = COLOR_SCHEMES[colorScheme];
  return palette[(i - 1) % palette.length];
}
