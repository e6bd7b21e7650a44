/**
 * The platform's public API for plugins: a plugin imports the platform and the cross-cutting layer
 * only through this module (ESLint's `layers/import-layers` rule refuses any other path; see
 * docs/architecture.md, "Layers"). What is not exported here is the platform's own business, free to
 * change without touching a plugin. Loading it loads the core models, so a plugin's `manifest.ts`,
 * which must load none, imports `plugins/plugin-declaration` and `plugins/plugin-settings` directly.
 */

// Declaring a plugin.
export { definePlugin } from './plugins/plugin-declaration';
export type { MigrationClass, PluginJobContext, PluginManifest } from './plugins/plugin-declaration';
export type { JobChange } from './plugins/job-change-log';
export { setting } from './plugins/plugin-settings';
export { RouteResponse } from './plugins/plugin-route';
export type { PluginRoute, PluginRouteContext } from './plugins/plugin-route';
export { publishedMapLayer } from './plugins/map-layers';
export type { MapLayerDeclaration, MapLayerGeometrySource } from './plugins/map-layers';

// Declaring models.
export { defineResource, quoteLiteral, resourceOf } from './framework/resource/resource-definition';
export { AfterTransaction } from './framework/resource/resource-declaration';
export type {
  ActionDocumentation,
  CollectionActionContext,
  ExtraFilter,
  FieldSpec,
  OpenApiSchema,
  ResourceAction,
  ResourceActionContext,
  ResourceDeclaration,
  ResourceDefinition,
  ResourceExtension,
  ResourceHookContext,
  ResourceRow,
  VisibleSelection,
} from './framework/resource/resource-declaration';
export {
  boolean,
  choice,
  color,
  date,
  datetime,
  decimal,
  genericRelation,
  integer,
  json,
  longText,
  many,
  relation,
  slug,
  stringList,
  text,
} from './framework/resource/fields';
export { computedProperties, countsOf } from './framework/resource/computed-properties';
export { columnIsSetFilter, idFilterProblem } from './framework/resource/extra-filters';
export { MAX_OBJECT_ID } from './framework/resource/field-input';
export { canonicalObjectType } from './framework/resource/app-label-aliases';
export { treeFilter } from './framework/resource/organizational';
export type { QueryParameters } from './framework/query/filter-parser';
export { nonFieldError, ProtectedObjectError, ResourceValidationError } from './framework/resource/resource-errors';

// The core models a plugin's models refer to, and their helpers.
export { CircuitResource, ProviderResource } from './circuits/circuits.resources';
export {
  CableResource,
  DeviceResource,
  DeviceTypeResource,
  FrontPortResource,
  FrontPortTemplateResource,
  InterfaceResource,
  LocationResource,
  ManufacturerResource,
  ModuleResource,
  ModuleTypeResource,
  RearPortResource,
  RearPortTemplateResource,
  SiteResource,
} from './dcim/dcim.resources';
export { CABLE_FILTERS } from './dcim/cable-terminations';
export { LENGTH_UNIT_CHOICES } from './dcim/dcim.choices';
export { exactlyOneOf } from './dcim/dcim.rules';
export { AsnResource, IpAddressResource, PrefixResource, VlanResource, VrfResource } from './ipam/ipam.resources';
export { parseIpNetwork } from './ipam/ip-network';
export { ContactResource, ContactRoleResource, TenantResource } from './tenancy/tenancy.resources';

// Configuration templates (Jinja), for plugins that render text.
export { ConfigTemplateError, renderConfigTemplate, templateFieldProblems } from './extras/config-templates/config-template-renderer';
export type { TemplateFilters } from './extras/config-templates/jinja-environment';

// From the cross-cutting layer: domain errors (mapped to HTTP statuses in one filter), the job
// queue, and the egress policy every request to a user-chosen URL goes through.
export { ConflictError, ForbiddenError, NotFoundError } from '../common/errors/common-errors';
export { JobQueue } from '../common/jobs/job-queue';
export type { EgressPolicy } from '../common/http/egress-policy';
