import { cableEndpointFields } from '../dcim/dcim.resources';
import { choice, date, genericRelation, integer, longText, relation, slug, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';

export const ProviderResource = defineResource({
  appLabel: 'circuits',
  model: 'provider',
  path: 'providers',
  verboseName: 'provider',
  table: 'circuits_provider',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
});

export const CircuitTypeResource = defineResource({
  appLabel: 'circuits',
  model: 'circuittype',
  path: 'circuit-types',
  verboseName: 'circuit type',
  table: 'circuits_circuittype',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
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
    termination: genericRelation(),
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
  // NetBox 4.2+: a termination points at a site, location, region or site group.
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    if (values.termination_type_id == null) return {};
    const [type] = (await manager.query(`SELECT app_label || '.' || model AS label FROM core_objecttype WHERE id = $1`, [
      values.termination_type_id,
    ])) as Array<{ label: string }>;
    return CIRCUIT_TERMINATION_TARGETS.includes(type?.label)
      ? {}
      : { termination_type: [`A circuit terminates on one of ${CIRCUIT_TERMINATION_TARGETS.join(', ')}.`] };
  },
});
