import { CABLED_FILTER } from '../dcim/cable-terminations';
import { linkPeersExtension, pathHooks, pathsAction, traceAction } from '../dcim/cable-paths';
import { cableEndpointFields } from '../dcim/dcim.resources';
import { idFilterProblem, throughFilter } from '../framework/resource/extra-filters';
import { choice, color, date, genericRelation, integer, longText, relation, text } from '../framework/resource/fields';
import { defineOrganizationalResource } from '../framework/resource/organizational';
import { defineResource, ExtraFilter } from '../framework/resource/resource-definition';
import { EntityManager } from 'typeorm';
import { TenantResource } from '../tenancy/tenancy.resources';

export const ProviderResource = defineOrganizationalResource({
  appLabel: 'circuits',
  model: 'provider',
  path: 'providers',
  verboseName: 'provider',
  table: 'circuits_provider',
  fields: { comments: longText({ search: true }) },
});

/** An account with a provider; circuits and virtual circuits may name the one they are billed to. */
export const ProviderAccountResource = defineResource({
  appLabel: 'circuits',
  model: 'provideraccount',
  path: 'provider-accounts',
  verboseName: 'provider account',
  table: 'circuits_provideraccount',
  fields: {
    provider: relation(() => ProviderResource, { onDelete: 'PROTECT', required: true }),
    account: text({ maxLength: 100, required: true, search: true, label: 'account ID' }),
    name: text({ maxLength: 100, search: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => (row.name ? `${String(row.account)} (${String(row.name)})` : String(row.account)),
  brief: ['name', 'account', 'description'],
  ordering: ['provider', 'account'],
  uniqueTogether: [['provider', 'account']],
});

/** A provider's network whose inside is not modelled: circuits may end on it, virtual circuits run over it. */
export const ProviderNetworkResource = defineResource({
  appLabel: 'circuits',
  model: 'providernetwork',
  path: 'provider-networks',
  verboseName: 'provider network',
  table: 'circuits_providernetwork',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    provider: relation(() => ProviderResource, { onDelete: 'PROTECT', required: true }),
    service_id: text({ maxLength: 100, search: true, label: 'service ID' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['provider', 'name'],
  uniqueTogether: [['provider', 'name']],
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
    provider_account: relation(() => ProviderAccountResource, { onDelete: 'PROTECT' }),
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
  uniqueTogether: [
    ['provider', 'cid'],
    ['provider_account', 'cid'],
  ],
  validateAsync: accountOfProvider('provider_id'),
});

/** A provider account must be the provider's own (`providerColumn` names where the provider comes from). */
function accountOfProvider(providerColumn: 'provider_id' | 'provider_network_id') {
  return async (manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> => {
    if (values.provider_account_id == null || values[providerColumn] == null) return {};
    const providerOf = providerColumn === 'provider_id' ? '$2::int' : '(SELECT provider_id FROM circuits_providernetwork WHERE id = $2)';
    const [matches] = (await manager.query(`SELECT provider_id = ${providerOf} AS same FROM circuits_provideraccount WHERE id = $1`, [
      values.provider_account_id,
      values[providerColumn],
    ])) as Array<{ same: boolean }>;
    if (!matches || matches.same) return {};
    return {
      provider_account:
        providerColumn === 'provider_id'
          ? ["The assigned account must belong to the circuit's provider."]
          : ['The assigned account must belong to the provider of the assigned network.'],
    };
  };
}

const TERMINATION_TYPE = (model: string, app = 'dcim') =>
  `(SELECT id FROM core_objecttype WHERE app_label = '${app}' AND model = '${model}')`;

/**
 * Terminations on the selected objects of one kind (`site_id=…`, `location_id=…`); a site also
 * selects terminations on its locations, as NetBox's cached `_site` does.
 */
function terminationFilter(model: string, key: 'id' | 'slug' = 'id', app = 'dcim'): ExtraFilter {
  const table = `${app}_${model}`;
  return (values, alias, prefix) => {
    const problem = key === 'id' ? idFilterProblem(values) : undefined;
    if (problem) return { problem };
    const selected = key === 'id' ? `:...${prefix}` : `SELECT id FROM ${table} WHERE slug IN (:...${prefix})`;
    const direct = `(${alias}.termination_type_id = ${TERMINATION_TYPE(model, app)} AND ${alias}.termination_id IN (${selected}))`;
    const viaLocation =
      model === 'site'
        ? ` OR (${alias}.termination_type_id = ${TERMINATION_TYPE('location')} AND ${alias}.termination_id IN (SELECT id FROM dcim_location WHERE site_id IN (${selected})))`
        : '';
    return { where: `(${direct}${viaLocation})`, params: { [prefix]: key === 'id' ? values.map(Number) : values } };
  };
}

/** What a circuit termination may point at (NetBox 4.2's `termination_type`). */
export const CIRCUIT_TERMINATION_TARGETS = ['dcim.site', 'dcim.location', 'dcim.region', 'dcim.sitegroup', 'circuits.providernetwork'];

/** Side A or Z of a circuit, at a site, location, region, site group or provider network; a cable may end on it. */
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
    provider_network_id: terminationFilter('providernetwork', 'id', 'circuits'),
    ...CABLED_FILTER,
    site: terminationFilter('site', 'slug'),
    location: terminationFilter('location', 'slug'),
  },
  extensions: [linkPeersExtension('circuits.circuittermination')],
  actions: [traceAction('circuits.circuittermination'), pathsAction('circuits.circuittermination')],
  ...pathHooks('circuits.circuittermination'),
});

/** An administrative grouping of circuits and virtual circuits. */
export const CircuitGroupResource = defineOrganizationalResource({
  appLabel: 'circuits',
  model: 'circuitgroup',
  path: 'circuit-groups',
  verboseName: 'circuit group',
  table: 'circuits_circuitgroup',
  fields: {
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    comments: longText({ search: true }),
  },
  brief: ['name'],
});

const CIRCUIT_PRIORITY_CHOICES = [
  ['primary', 'Primary'],
  ['secondary', 'Secondary'],
  ['tertiary', 'Tertiary'],
  ['inactive', 'Inactive'],
] as const;

/** A circuit or virtual circuit in a group, with a priority; goes with either. */
export const CircuitGroupAssignmentResource = defineResource({
  appLabel: 'circuits',
  model: 'circuitgroupassignment',
  path: 'circuit-group-assignments',
  verboseName: 'circuit group assignment',
  table: 'circuits_circuitgroupassignment',
  fields: {
    group: relation(() => CircuitGroupResource, { onDelete: 'CASCADE', required: true }),
    member: genericRelation({ required: true, onDelete: 'CASCADE', allowedTypes: ['circuits.circuit', 'circuits.virtualcircuit'] }),
    priority: choice(CIRCUIT_PRIORITY_CHOICES, { blank: true }),
  },
  display: (row) => (row.priority ? `Group ${String(row.group_id)} (${String(row.priority)})` : `Group ${String(row.group_id)}`),
  brief: ['group', 'member', 'priority'],
  ordering: ['group', 'priority'],
  uniqueTogether: [['member_type_id', 'member_id', 'group']],
  relatedObject: 'member',
  extraFilters: {
    circuit_id: memberFilter('circuit'),
    virtual_circuit_id: memberFilter('virtualcircuit'),
    provider_id: memberFilter('circuit', 'SELECT id FROM circuits_circuit WHERE provider_id IN (:values)'),
  },
});

/** Assignments whose member is one of the given circuits (or, with `select`, of the circuits it answers). */
function memberFilter(model: 'circuit' | 'virtualcircuit', select = ':values'): ExtraFilter {
  return (values, alias, prefix) => {
    const problem = idFilterProblem(values);
    if (problem) return { problem };
    return {
      where: `(${alias}.member_type_id = ${TERMINATION_TYPE(model, 'circuits')} AND ${alias}.member_id IN (${select.replaceAll(':values', `:...${prefix}`)}))`,
      params: { [prefix]: values.map(Number) },
    };
  };
}

export const VirtualCircuitTypeResource = defineOrganizationalResource({
  appLabel: 'circuits',
  model: 'virtualcircuittype',
  path: 'virtual-circuit-types',
  verboseName: 'virtual circuit type',
  table: 'circuits_virtualcircuittype',
  fields: { color: color() },
});

/** A virtual connection between interfaces, delivered over a provider network. */
export const VirtualCircuitResource = defineResource({
  appLabel: 'circuits',
  model: 'virtualcircuit',
  path: 'virtual-circuits',
  verboseName: 'virtual circuit',
  table: 'circuits_virtualcircuit',
  fields: {
    cid: text({ maxLength: 100, required: true, search: true, label: 'circuit ID' }),
    provider_network: relation(() => ProviderNetworkResource, { onDelete: 'PROTECT', required: true }),
    provider_account: relation(() => ProviderAccountResource, { onDelete: 'PROTECT' }),
    type: relation(() => VirtualCircuitTypeResource, { onDelete: 'PROTECT', required: true }),
    status: choice(CIRCUIT_STATUS_CHOICES, { default: 'active' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.cid),
  brief: ['provider_network', 'cid', 'description'],
  ordering: ['provider_network', 'provider_account', 'cid'],
  uniqueTogether: [
    ['provider_network', 'cid'],
    ['provider_account', 'cid'],
  ],
  validateAsync: accountOfProvider('provider_network_id'),
  extraFilters: {
    provider_id: throughFilter('provider_network_id', 'SELECT id FROM circuits_providernetwork WHERE provider_id IN (:values)'),
    provider: throughFilter(
      'provider_network_id',
      'SELECT n.id FROM circuits_providernetwork n JOIN circuits_provider p ON p.id = n.provider_id WHERE p.slug IN (:values)',
      'text',
    ),
  },
});

const VIRTUAL_CIRCUIT_ROLE_CHOICES = [
  ['peer', 'Peer', 'green'],
  ['hub', 'Hub', 'blue'],
  ['spoke', 'Spoke', 'orange'],
] as const;

/** NetBox's virtual interface types, the only ones a virtual circuit may end on. */
const VIRTUAL_INTERFACE_TYPES = ['virtual', 'lag', 'bridge'];

/** One end of a virtual circuit, on a virtual interface of a device; an interface ends at most one. */
export const VirtualCircuitTerminationResource = defineResource({
  appLabel: 'circuits',
  model: 'virtualcircuittermination',
  path: 'virtual-circuit-terminations',
  verboseName: 'virtual circuit termination',
  table: 'circuits_virtualcircuittermination',
  fields: {
    virtual_circuit: relation(() => VirtualCircuitResource, { onDelete: 'CASCADE', required: true }),
    role: choice(VIRTUAL_CIRCUIT_ROLE_CHOICES, { default: 'peer' }),
    interface: relation('dcim.interface', { onDelete: 'CASCADE', required: true, unique: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => `${String(row.role).charAt(0).toUpperCase()}${String(row.role).slice(1)} termination`,
  brief: ['virtual_circuit', 'role', 'interface', 'description'],
  ordering: ['virtual_circuit', 'role'],
  relatedObject: 'virtual_circuit',
  // NetBox serves it as on every pass-through port; no cable path passes a virtual termination, so it lists none.
  actions: [pathsAction('circuits.virtualcircuittermination')],
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const [found] = (await manager.query('SELECT type FROM dcim_interface WHERE id = $1', [values.interface_id])) as Array<{
      type: string;
    }>;
    return found && !VIRTUAL_INTERFACE_TYPES.includes(found.type)
      ? { interface: ['Virtual circuits may be terminated only to virtual interfaces.'] }
      : {};
  },
  extraFilters: {
    provider_network_id: throughFilter(
      'virtual_circuit_id',
      'SELECT id FROM circuits_virtualcircuit WHERE provider_network_id IN (:values)',
    ),
    provider_id: throughFilter(
      'virtual_circuit_id',
      'SELECT v.id FROM circuits_virtualcircuit v JOIN circuits_providernetwork n ON n.id = v.provider_network_id WHERE n.provider_id IN (:values)',
    ),
    device_id: throughFilter('interface_id', 'SELECT id FROM dcim_interface WHERE device_id IN (:values)'),
  },
});
