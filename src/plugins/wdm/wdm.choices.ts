/** WDM enums (reference §4.1) and the ITU grids channels are computed from, never typed in. */

export const NODE_TYPE_CHOICES = [
  ['terminal_mux', 'Terminal multiplexer'],
  ['oadm', 'OADM'],
  ['roadm', 'ROADM'],
  ['amplifier', 'Amplifier'],
] as const;

export const GRID_CHOICES = [
  ['dwdm_c_100ghz', 'DWDM C-band, 100 GHz'],
  ['dwdm_c_50ghz', 'DWDM C-band, 50 GHz'],
  ['dwdm_l_100ghz', 'DWDM L-band, 100 GHz'],
  ['dwdm_l_50ghz', 'DWDM L-band, 50 GHz'],
  ['cwdm', 'CWDM'],
] as const;

export const FIBER_TYPE_CHOICES = [
  ['duplex', 'Duplex'],
  ['single_fiber', 'Single fiber'],
] as const;

export const DIRECTION_CHOICES = [
  ['common', 'Common'],
  ['east', 'East'],
  ['west', 'West'],
] as const;

export const ROLE_CHOICES = [
  ['tx', 'TX'],
  ['rx', 'RX'],
  ['bidi', 'BIDI'],
] as const;

export const CHANNEL_STATUS_CHOICES = [
  ['available', 'Available', 'green'],
  ['reserved', 'Reserved', 'orange'],
  ['active', 'Active', 'blue'],
] as const;

export const CIRCUIT_STATUS_CHOICES = [
  ['planned', 'Planned', 'cyan'],
  ['staged', 'Staged', 'blue'],
  ['active', 'Active', 'green'],
  ['decommissioned', 'Decommissioned', 'gray'],
] as const;

export type Grid = (typeof GRID_CHOICES)[number][0];

/** One channel of a grid: its 1-based position, label and wavelength in nm (2 decimals, as a string like a decimal column). */
export interface GridChannel {
  grid_position: number;
  label: string;
  wavelength_nm: string;
}

/** Speed of light in nm·THz: λ(nm) = 299792.458 / f(THz). */
const LIGHT_NM_THZ = 299792.458;

/** Frequencies in THz, in hundredths to keep the steps exact. */
function frequencyGrid(startCentiThz: number, stepCentiThz: number, count: number, label: (centiThz: number) => string): GridChannel[] {
  return Array.from({ length: count }, (_unused, index) => {
    const centiThz = startCentiThz + index * stepCentiThz;
    return { grid_position: index + 1, label: label(centiThz), wavelength_nm: (LIGHT_NM_THZ / (centiThz / 100)).toFixed(2) };
  });
}

/** ITU-T G.694.1 C-band channel numbers: C21 is 192.10 THz, one number per 100 GHz, ".5" for the 50 GHz half steps. */
const cBandLabel = (centiThz: number) => `C${(centiThz - 19000) / 10}`;
const lBandLabel = (centiThz: number) => `L${(centiThz / 100).toFixed(2)}`;

const GRIDS: Record<Grid, GridChannel[]> = {
  dwdm_c_100ghz: frequencyGrid(19210, 10, 44, cBandLabel),
  dwdm_c_50ghz: frequencyGrid(19210, 5, 88, cBandLabel),
  dwdm_l_100ghz: frequencyGrid(18450, 10, 72, lBandLabel),
  dwdm_l_50ghz: frequencyGrid(18450, 5, 143, lBandLabel),
  // ITU-T G.694.2: 1270 to 1610 nm every 20 nm.
  cwdm: Array.from({ length: 18 }, (_unused, index) => {
    const nm = 1270 + 20 * index;
    return { grid_position: index + 1, label: `CWDM-${nm}`, wavelength_nm: nm.toFixed(2) };
  }),
};

/** Every channel of a grid, position 1 first. */
export function gridChannels(grid: string): readonly GridChannel[] {
  return GRIDS[grid as Grid] ?? [];
}

/** The channel at a position of a grid, or undefined outside it. */
export function gridChannel(grid: string, position: number): GridChannel | undefined {
  return gridChannels(grid)[position - 1];
}
