import { definePlugin } from '../../platform/plugin-api';
import { FMS_MANIFEST } from './manifest';
import {
  BufferTubeTemplateResource,
  CableElementTemplateResource,
  FiberAttenuationSpecResource,
  FiberCableTypeResource,
  RibbonTemplateResource,
} from './cable-types.resources';
import { PROTECTED_OBJECT_TYPES, refuseWhileHeld } from './circuit-protection';
import { markPlansStaleForCable } from './closure-splices';
import { ClosureCableEntryResource, SlackLoopResource, TrayProfileResource, TubeAssignmentResource } from './closures.resources';
import {
  BufferTubeResource,
  CableElementResource,
  FiberCableResource,
  FiberStrandResource,
  RibbonResource,
} from './fiber-cables.resources';
import { CLOSURE_STRANDS_ROUTE } from './closure-strands';
import { FIBER_CLAIMS_ROUTE } from './fiber-claims';
import { FiberCircuitNodeResource, FiberCircuitPathResource, FiberCircuitResource } from './fiber-circuits.resources';
import { MIGRATIONS } from './migrations';
import { SplicePlanEntryResource, SplicePlanResource, SpliceProjectResource } from './splice-plans.resources';

/** Fiber management: cable types and their templates, fiber cables and their components, splice plans, closures, fiber circuits. */
export const FmsPlugin = definePlugin({
  ...FMS_MANIFEST,
  appLabelAliases: ['netbox_fms'],
  resources: [
    FiberCableTypeResource,
    FiberAttenuationSpecResource,
    BufferTubeTemplateResource,
    RibbonTemplateResource,
    CableElementTemplateResource,
    FiberCableResource,
    BufferTubeResource,
    RibbonResource,
    FiberStrandResource,
    CableElementResource,
    SpliceProjectResource,
    SplicePlanResource,
    SplicePlanEntryResource,
    ClosureCableEntryResource,
    TrayProfileResource,
    TubeAssignmentResource,
    SlackLoopResource,
    FiberCircuitResource,
    FiberCircuitPathResource,
    FiberCircuitNodeResource,
  ],
  migrations: MIGRATIONS,
  routes: [FIBER_CLAIMS_ROUTE, CLOSURE_STRANDS_ROUTE],
  hooks: [
    ...PROTECTED_OBJECT_TYPES.map((objectType) => ({ objectTypes: [objectType], beforeDeleteAll: refuseWhileHeld(objectType) })),
    {
      objectTypes: ['dcim.cable'],
      afterCreate: (context, cable) => markPlansStaleForCable(context.manager, cable.id),
      beforeUpdate: async (context, cable) => markPlansStaleForCable(context.manager, cable.id),
      afterUpdate: (context, _before, cable) => markPlansStaleForCable(context.manager, cable.id),
      beforeDelete: (context, cable) => markPlansStaleForCable(context.manager, cable.id),
    },
  ],
});
