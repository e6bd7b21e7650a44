import { RoutingPoliciesAndCommunities1796677309647 } from './1796677309647-RoutingPoliciesAndCommunities';
import type { MigrationClass } from '../../../platform/plugin-api';

/**
 * The routing plugin's migrations, oldest first (`npm run migration:generate -- <Name> --plugin
 * routing` adds to it). Its first tables come from the platform's CoreModels migration, written
 * before routing was a plugin (an existing database has that migration recorded by name); later
 * models and columns are these.
 */
export const MIGRATIONS: MigrationClass[] = [RoutingPoliciesAndCommunities1796677309647];
