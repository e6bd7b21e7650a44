import { ObjectChangeResource, ObjectTypeResource } from './core/core.resources';
import { SiteResource } from './dcim/dcim.resources';
import {
  CustomFieldResource,
  EventRuleResource,
  JournalEntryResource,
  TagResource,
  WebhookResource,
} from './extras/extras.resources';
import { TenantGroupResource, TenantResource } from './tenancy/tenancy.resources';
import { GroupResource, ObjectPermissionResource, UserResource } from './users/users.resources';
import type { ResourceDefinition } from './framework/resource/resource-definition';

/** Every platform model. A new model is one declaration plus one line here. */
export const PLATFORM_RESOURCE_DEFINITIONS: readonly ResourceDefinition[] = [
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
  TenantGroupResource,
  TenantResource,
  SiteResource,
];
