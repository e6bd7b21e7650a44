import { CircuitResource, CircuitTerminationResource, CircuitTypeResource, ProviderResource } from './circuits/circuits.resources';
import { ObjectChangeResource, ObjectTypeResource } from './core/core.resources';
import {
  CableResource,
  CableTerminationResource,
  DeviceResource,
  DeviceRoleResource,
  DeviceTypeResource,
  FrontPortResource,
  FrontPortTemplateResource,
  InterfaceResource,
  LocationResource,
  ManufacturerResource,
  ModuleBayResource,
  ModuleBayTemplateResource,
  ModuleResource,
  ModuleTypeResource,
  PlatformResource,
  PortMappingResource,
  PortTemplateMappingResource,
  RearPortResource,
  RearPortTemplateResource,
  RegionResource,
  SiteGroupResource,
  SiteResource,
} from './dcim/dcim.resources';
import {
  ConfigTemplateResource,
  CustomFieldResource,
  EventRuleResource,
  JournalEntryResource,
  TagResource,
  WebhookResource,
} from './extras/extras.resources';
import { AsnResource, IpAddressResource, PrefixResource, RirResource, VlanResource, VrfResource } from './ipam/ipam.resources';
import {
  ContactAssignmentResource,
  ContactGroupResource,
  ContactResource,
  ContactRoleResource,
  TenantGroupResource,
  TenantResource,
} from './tenancy/tenancy.resources';
import { GroupResource, ObjectPermissionResource, UserResource } from './users/users.resources';
import type { ResourceDefinition } from './framework/resource/resource-definition';

/** The platform's own models (plugins bring theirs: src/plugins). A new model is one declaration plus one line here. */
export const PLATFORM_RESOURCE_DEFINITIONS: readonly ResourceDefinition[] = [
  // core, users, extras
  ObjectTypeResource,
  ObjectChangeResource,
  UserResource,
  GroupResource,
  ObjectPermissionResource,
  TagResource,
  CustomFieldResource,
  JournalEntryResource,
  WebhookResource,
  EventRuleResource,
  ConfigTemplateResource,
  // tenancy
  TenantGroupResource,
  TenantResource,
  ContactGroupResource,
  ContactRoleResource,
  ContactResource,
  ContactAssignmentResource,
  // dcim
  RegionResource,
  SiteGroupResource,
  SiteResource,
  LocationResource,
  ManufacturerResource,
  DeviceRoleResource,
  PlatformResource,
  DeviceTypeResource,
  ModuleTypeResource,
  RearPortTemplateResource,
  FrontPortTemplateResource,
  PortTemplateMappingResource,
  ModuleBayTemplateResource,
  DeviceResource,
  ModuleBayResource,
  ModuleResource,
  RearPortResource,
  FrontPortResource,
  PortMappingResource,
  InterfaceResource,
  CableResource,
  CableTerminationResource,
  // circuits
  ProviderResource,
  CircuitTypeResource,
  CircuitResource,
  CircuitTerminationResource,
  // ipam
  RirResource,
  AsnResource,
  VrfResource,
  VlanResource,
  PrefixResource,
  IpAddressResource,
];
