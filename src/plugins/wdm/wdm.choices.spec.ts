import { gridChannel, gridChannels } from './wdm.choices';

describe('WDM ITU grids', () => {
  it.each([
    ['cwdm', 18],
    ['dwdm_c_100ghz', 44],
    ['dwdm_c_50ghz', 88],
    ['dwdm_l_100ghz', 72],
    ['dwdm_l_50ghz', 143],
  ])('%s has %i channels, numbered from 1', (grid, size) => {
    const channels = gridChannels(grid);
    expect(channels).toHaveLength(size);
    expect(channels.map((channel) => channel.grid_position)).toEqual(Array.from({ length: size }, (_, index) => index + 1));
  });

  it.each([
    ['cwdm', 1, 'CWDM-1270', '1270.00'],
    ['cwdm', 18, 'CWDM-1610', '1610.00'],
    ['dwdm_c_100ghz', 1, 'C21', '1560.61'],
    ['dwdm_c_100ghz', 44, 'C64', '1526.44'],
    ['dwdm_c_50ghz', 1, 'C21', '1560.61'],
    ['dwdm_c_50ghz', 2, 'C21.5', '1560.20'],
    ['dwdm_c_50ghz', 3, 'C22', '1559.79'],
    ['dwdm_c_50ghz', 88, 'C64.5', '1526.05'],
    ['dwdm_l_100ghz', 1, 'L184.50', '1624.89'],
    ['dwdm_l_100ghz', 72, 'L191.60', '1564.68'],
    ['dwdm_l_50ghz', 2, 'L184.55', '1624.45'],
    ['dwdm_l_50ghz', 143, 'L191.60', '1564.68'],
  ])('%s position %i is %s at %s nm (λ = c / f to 2 decimals, decreasing with f)', (grid, position, label, wavelength) => {
    expect(gridChannel(grid, position)).toEqual({ grid_position: position, label, wavelength_nm: wavelength });
  });

  it('the 50 GHz C-band grid holds every 100 GHz channel at the odd positions', () => {
    const fifty = gridChannels('dwdm_c_50ghz');
    expect(gridChannels('dwdm_c_100ghz')).toEqual(
      fifty.filter((_, index) => index % 2 === 0).map((channel, index) => ({ ...channel, grid_position: index + 1 })),
    );
  });

  it('has nothing off the grid or for an unknown grid', () => {
    expect(gridChannel('dwdm_c_100ghz', 45)).toBeUndefined();
    expect(gridChannel('dwdm_c_100ghz', 0)).toBeUndefined();
    expect(gridChannels('nope')).toEqual([]);
  });
});
