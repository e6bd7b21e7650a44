import type { PlatformClient } from '../platform-client';
import { circuitsFactories } from './circuits';
import { dcimFactories } from './dcim';
import { ipamFactories } from './ipam';
import { tenancyFactories } from './tenancy';
import { virtualizationFactories } from './virtualization';
import { vpnFactories } from './vpn';

export { slugOf, unique } from './names';
export type { CableEnd, Created, Fields } from './dcim';

/**
 * Fixture factories for the core models, one file per app: `factories(api).device()` makes a
 * device and, unless named, its site, type, manufacturer and role; every object gets unique names,
 * so tests sharing an app never collide. Each call answers the created object (the 201 body).
 */
export function factories(api: PlatformClient) {
  return {
    ...dcimFactories(api),
    ...circuitsFactories(api),
    ...ipamFactories(api),
    ...tenancyFactories(api),
    ...virtualizationFactories(api),
    ...vpnFactories(api),
  };
}

export type Factories = ReturnType<typeof factories>;
