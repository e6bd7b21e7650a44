import type { EntityManager } from 'typeorm';
import { countsOf } from '../framework/resource/computed-properties';
import { boolean, choice, integer, longText, relation, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';
import { CABLED_FILTER } from './cable-terminations';
import { pathEndpointExtension, traceAction } from './cable-paths';
import { POWER_FEED_PHASE_CHOICES, POWER_FEED_STATUS_CHOICES, POWER_FEED_SUPPLY_CHOICES, POWER_FEED_TYPE_CHOICES } from './dcim.choices';
import { cableEndpointFields, LocationResource, SiteResource } from './dcim.resources';
import { RackResource } from './racks.resources';

export const PowerPanelResource = defineResource({
  appLabel: 'dcim',
  model: 'powerpanel',
  path: 'power-panels',
  verboseName: 'power panel',
  table: 'dcim_powerpanel',
  fields: {
    site: relation(() => SiteResource, { onDelete: 'PROTECT', required: true }),
    location: relation(() => LocationResource, { onDelete: 'PROTECT' }),
    name: text({ maxLength: 100, required: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description', 'powerfeed_count'],
  ordering: ['site', 'name'],
  uniqueTogether: [['site', 'name']],
  relatedObject: 'site',
  extensions: [countsOf({ powerfeed_count: { table: 'dcim_powerfeed', column: 'power_panel_id' } })],
  validateAsync: async (manager: EntityManager, values): Promise<Record<string, string[]>> => {
    if (values.location_id == null) return {};
    const [location] = (await manager.query('SELECT site_id FROM dcim_location WHERE id = $1', [values.location_id])) as Array<{
      site_id: number;
    }>;
    return location && location.site_id !== values.site_id ? { location: ['Location must be from the same site.'] } : {};
  },
});

export const PowerFeedResource = defineResource({
  appLabel: 'dcim',
  model: 'powerfeed',
  path: 'power-feeds',
  verboseName: 'power feed',
  table: 'dcim_powerfeed',
  fields: {
    power_panel: relation(() => PowerPanelResource, { onDelete: 'PROTECT', required: true }),
    rack: relation(() => RackResource, { onDelete: 'PROTECT' }),
    name: text({ maxLength: 100, required: true, search: true }),
    status: choice(POWER_FEED_STATUS_CHOICES, { default: 'active' }),
    type: choice(POWER_FEED_TYPE_CHOICES, { default: 'primary' }),
    supply: choice(POWER_FEED_SUPPLY_CHOICES, { default: 'ac' }),
    phase: choice(POWER_FEED_PHASE_CHOICES, { default: 'single-phase' }),
    voltage: integer({ min: -32768, max: 32767, default: 120 }),
    amperage: integer({ min: 1, max: 32767, default: 20 }),
    max_utilization: integer({ min: 1, max: 100, default: 80 }),
    mark_connected: boolean({ default: false }),
    description: text({ maxLength: 200, search: true }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    comments: longText({ search: true }),
    ...cableEndpointFields(),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description', 'cable'],
  ordering: ['power_panel', 'name'],
  uniqueTogether: [['power_panel', 'name']],
  extraFilters: CABLED_FILTER,
  relatedObject: 'power_panel',
  extensions: [pathEndpointExtension('dcim.powerfeed')],
  actions: [traceAction('dcim.powerfeed')],
  validate: (values): Record<string, string[]> =>
    values.supply === 'ac' && Number(values.voltage) < 0 ? { voltage: ['Voltage cannot be negative for AC supply'] } : {},
  validateAsync: async (manager: EntityManager, values): Promise<Record<string, string[]>> => {
    if (values.rack_id == null) return {};
    const [sites] = (await manager.query(
      'SELECT r.site_id AS rack_site, p.site_id AS panel_site FROM dcim_rack r, dcim_powerpanel p WHERE r.id = $1 AND p.id = $2',
      [values.rack_id, values.power_panel_id],
    )) as Array<{ rack_site: number; panel_site: number }>;
    return sites && sites.rack_site !== sites.panel_site ? { rack: ['Rack and power panel must belong to the same site.'] } : {};
  },
});
