import { countsOf } from '../framework/resource/computed-properties';
import { boolean, choice, color, decimal, integer, json, longText, relation, slug, text } from '../framework/resource/fields';
import { defineOrganizationalResource } from '../framework/resource/organizational';
import { defineResource, ResourceRow } from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';
import {
  RACK_AIRFLOW_CHOICES,
  RACK_DIMENSION_UNIT_CHOICES,
  RACK_FORM_FACTOR_CHOICES,
  RACK_RESERVATION_STATUS_CHOICES,
  RACK_STATUS_CHOICES,
  RACK_WIDTH_CHOICES,
  WEIGHT_UNIT_CHOICES,
} from './dcim.choices';
import { LocationResource, ManufacturerResource, SiteResource } from './dcim.resources';
import { rackElevation, RACK_ELEVATION_OPENAPI } from './rack-elevation';
import { rackReservationRules, rackRules } from './rack-rules';

/** The physical attributes a rack type fixes and a rack without a type states itself (NetBox's RackBase). */
const rackDimensions = () => ({
  width: choice(RACK_WIDTH_CHOICES, { default: '19', numeric: true }),
  u_height: integer({ min: 1, max: 100, default: 42 }),
  starting_unit: integer({ min: 1, max: 32767, default: 1 }),
  desc_units: boolean({ default: false }),
  outer_width: integer({ min: 0, max: 32767, nullable: true }),
  outer_height: integer({ min: 0, max: 32767, nullable: true }),
  outer_depth: integer({ min: 0, max: 32767, nullable: true }),
  outer_unit: choice(RACK_DIMENSION_UNIT_CHOICES, { blank: true }),
  mounting_depth: integer({ min: 0, max: 32767, nullable: true }),
  weight: decimal({ precision: 8, scale: 2, min: 0, nullable: true }),
  max_weight: integer({ min: 0, nullable: true }),
  weight_unit: choice(WEIGHT_UNIT_CHOICES, { blank: true }),
});

/** Units must accompany the dimensions and weights they measure. */
function dimensionProblems(values: Record<string, unknown>): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if ([values.outer_width, values.outer_height, values.outer_depth].some((value) => value != null) && !values.outer_unit) {
    problems.outer_unit = ['Must specify a unit when setting an outer dimension'];
  }
  if ((values.max_weight != null || values.weight != null) && !values.weight_unit) {
    problems.weight_unit = ['Must specify a unit when setting a weight'];
  }
  return problems;
}

export const RackRoleResource = defineOrganizationalResource({
  appLabel: 'dcim',
  model: 'rackrole',
  path: 'rack-roles',
  verboseName: 'rack role',
  table: 'dcim_rackrole',
  fields: { color: color({ default: '9e9e9e' }), comments: longText({ search: true }) },
  brief: ['name', 'slug', 'description', 'rack_count'],
  extensions: [countsOf({ rack_count: { table: 'dcim_rack', column: 'role_id' } })],
});

export const RackTypeResource = defineResource({
  appLabel: 'dcim',
  model: 'racktype',
  path: 'rack-types',
  verboseName: 'rack type',
  table: 'dcim_racktype',
  fields: {
    manufacturer: relation(() => ManufacturerResource, { onDelete: 'PROTECT', required: true }),
    model: text({ maxLength: 100, required: true, search: true }),
    slug: slug(),
    description: text({ maxLength: 200, search: true }),
    form_factor: choice(RACK_FORM_FACTOR_CHOICES, { required: true }),
    ...rackDimensions(),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.model),
  brief: ['manufacturer', 'model', 'slug', 'description', 'rack_count'],
  ordering: ['manufacturer', 'model'],
  uniqueTogether: [['manufacturer', 'model']],
  validate: dimensionProblems,
  extensions: [countsOf({ rack_count: { table: 'dcim_rack', column: 'rack_type_id' } })],
});

export const RackResource = defineResource({
  appLabel: 'dcim',
  model: 'rack',
  path: 'racks',
  verboseName: 'rack',
  table: 'dcim_rack',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    facility_id: text({ maxLength: 50, nullable: true, search: true }),
    site: relation(() => SiteResource, { onDelete: 'PROTECT', required: true }),
    location: relation(() => LocationResource, { onDelete: 'SET NULL' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    status: choice(RACK_STATUS_CHOICES, { default: 'active' }),
    role: relation(() => RackRoleResource, { onDelete: 'PROTECT' }),
    serial: text({ maxLength: 50, search: true }),
    asset_tag: text({ maxLength: 50, nullable: true, unique: true, search: true }),
    rack_type: relation(() => RackTypeResource, { onDelete: 'PROTECT' }),
    form_factor: choice(RACK_FORM_FACTOR_CHOICES, { blank: true }),
    ...rackDimensions(),
    airflow: choice(RACK_AIRFLOW_CHOICES, { blank: true }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row: ResourceRow) => (row.facility_id ? `${row.name as string} (${row.facility_id as string})` : (row.name as string)),
  brief: ['name', 'description', 'device_count'],
  ordering: ['site', 'location', 'name', 'id'],
  uniqueTogether: [
    ['location', 'name'],
    ['location', 'facility_id'],
  ],
  relatedObject: 'site',
  validate: dimensionProblems,
  validateAsync: rackRules,
  extensions: [
    countsOf({
      device_count: { table: 'dcim_device', column: 'rack_id' },
      powerfeed_count: { table: 'dcim_powerfeed', column: 'rack_id' },
    }),
  ],
  actions: [
    {
      name: 'elevation',
      method: 'GET',
      permission: 'view',
      openapi: RACK_ELEVATION_OPENAPI,
      handle: ({ manager, row, scope, serializer, query, permittedIds }) =>
        rackElevation(manager, serializer, scope.baseUrl, row, query, scope.requestUrl, (ids) => permittedIds('dcim.device', 'view', ids)),
    },
  ],
});

export const RackReservationResource = defineResource({
  appLabel: 'dcim',
  model: 'rackreservation',
  path: 'rack-reservations',
  verboseName: 'rack reservation',
  table: 'dcim_rackreservation',
  fields: {
    rack: relation(() => RackResource, { onDelete: 'CASCADE', required: true }),
    units: json({
      noFilter: true,
      validate: (value) =>
        Array.isArray(value) &&
        value.length > 0 &&
        value.every((unit) => Number.isInteger(unit) && (unit as number) >= 1 && (unit as number) <= 32767)
          ? []
          : ['Expected a non-empty list of unit numbers.'],
    }),
    status: choice(RACK_RESERVATION_STATUS_CHOICES, { default: 'active' }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    user: relation('users.user', { onDelete: 'PROTECT', required: true }),
    description: text({ maxLength: 200, required: true, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => `Reservation for rack ${String(row.rack_id)}`,
  brief: ['status', 'user', 'description', 'units'],
  ordering: ['created', 'id'],
  relatedObject: 'rack',
  validateAsync: rackReservationRules,
});
