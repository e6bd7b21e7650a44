import { CABLED_FILTER } from '../dcim/cable-terminations';
import { linkPeersExtension, pathHooks, pathsAction, traceAction } from '../dcim/cable-paths';
import { cableEndpointFields } from '../dcim/dcim.resources';
import { idFilterProblem } from '../framework/resource/extra-filters';
import { choice, date, genericRelation, integer, longText, relation, text } from '../framework/resource/fields';
import { defineOrganizationalResource } from '../framework/resource/organizational';
import { defineResource, ExtraFilter } from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';

export const ProviderResource = defineOrganizationalResource({
  appLabel: 'circuits',
  model: 'provider',
  path: 'providers',
  verboseName: 'provider',
  table: 'circuits_provider',
  fields: { comments: longText({ search: true }) },
});

export const CircuitTypeResource = defineOrganizationalResource({
  appLabel: 'circuits',
  model: 'circuittype',
  path: 'circuit-types',
  verboseName: 'circuit type',
  table: 'circuits_circuittype',
});

export const CIRCUIT_STATUS_CHOICES = [
  ['planned', 'Planned'],
  ['provisioning', 'Provisioning'],
  ['active', 'Active'],
  ['offline', 'Offline'],
  ['deprovisioning', 'Deprovisioning'],
  ['decommissioned', 'Decommissioned'],
] as const;

export const CircuitResource = defineResource({
  appLabel: 'circuits',
  model: 'circuit',
  path: 'circuits',
  verboseName: 'circuit',
  table: 'circuits_circuit',
  fields: {
    cid: text({ maxLength: 100, required: true, search: true }),
    provider: relation(() => ProviderResource, { onDelete: 'PROTECT', required: true }),
    type: relation(() => CircuitTypeResource, { onDelete: 'PROTECT', required: true }),
    status: choice(CIRCUIT_STATUS_CHOICES, { default: 'active' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    install_date: date(),
    termination_date: date(),
    commit_rate: integer({ min: 0, nullable: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.cid),
  brief: ['cid', 'description'],
  ordering: ['provider', 'cid'],
  uniqueTogether: [['provider', 'cid']],
});

const TERMINATION_TYPE = (model: string) => `(SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = '${model}')`;

/**
 * Terminations on the selected objects of one kind (`site_id=…`, `location_id=…`); a site also
 * selects terminations on its locations, as NetBox's cached `_site` does.
 */
function terminationFilter(model: string, key: 'id' | 'slug' = 'id', table = `dcim_${model}`): ExtraFilter {
  return (values, alias, prefix) => {
    const problem = key === 'id' ? idFilterProblem(values) : undefined;
    if (problem) return { problem };
    const selected = key === 'id' ? `:...${prefix}` : `SELECT id FROM ${table} WHERE slug IN (:...${prefix})`;
    const direct = `(${alias}.termination_type_id = ${TERMINATION_TYPE(model)} AND ${alias}.termination_id IN (${selected}))`;
    const viaLocation =
      model === 'site'
        ? ` OR (${alias}.termination_type_id = ${TERMINATION_TYPE('location')} AND ${alias}.termination_id IN (SELECT id FROM dcim_location WHERE site_id IN (${selected})))`
        : '';
    return { where: `(${direct}${viaLocation})`, params: { [prefix]: key === 'id' ? values.map(Number) : values } };
  };
}

/** What a circuit termination may point at (NetBox 4.2's `termination_type`). */
export const CIRCUIT_TERMINATION_TARGETS = ['dcim.site', 'dcim.location', 'dcim.region', 'dcim.sitegroup'];

/** Side A or Z of a circuit, at a site, location, region or site group; a cable may end on it. */
export const CircuitTerminationResource = defineResource({
  appLabel: 'circuits',
  model: 'circuittermination',
  path: 'circuit-terminations',
  verboseName: 'circuit termination',
  table: 'circuits_circuittermination',
  fields: {
    circuit: relation(() => CircuitResource, { onDelete: 'CASCADE', required: true }),
    term_side: choice(
      [
        ['A', 'A'],
        ['Z', 'Z'],
      ],
      { required: true },
    ),
    termination: genericRelation({ onDelete: 'CASCADE', allowedTypes: CIRCUIT_TERMINATION_TARGETS }),
    port_speed: integer({ min: 0, nullable: true }),
    upstream_speed: integer({ min: 0, nullable: true }),
    xconnect_id: text({ maxLength: 50, search: true }),
    pp_info: text({ maxLength: 100, search: true }),
    description: text({ maxLength: 200, search: true }),
    ...cableEndpointFields(),
  },
  display: (row) => `Termination ${String(row.term_side)}`,
  brief: ['circuit', 'term_side', 'description'],
  ordering: ['circuit', 'term_side'],
  uniqueTogether: [['circuit', 'term_side']],
  relatedObject: 'circuit',
  extraFilters: {
    site_id: terminationFilter('site'),
    location_id: terminationFilter('location'),
    region_id: terminationFilter('region'),
    site_group_id: terminationFilter('sitegroup'),
    ...CABLED_FILTER,
    site: terminationFilter('site', 'slug'),
    location: terminationFilter('location', 'slug'),
  },
  extensions: [linkPeersExtension('circuits.circuittermination')],
  actions: [traceAction('circuits.circuittermination'), pathsAction('circuits.circuittermination')],
  ...pathHooks('circuits.circuittermination'),
});
