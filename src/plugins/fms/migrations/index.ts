import { FiberCircuitProviderCircuits1796666560497 } from './1796666560497-FiberCircuitProviderCircuits';
import { FmsModels1795800000000 } from './1795800000000-FmsModels';
import type { MigrationClass } from '../../../platform/plugin-api';

/** The fms plugin's migrations, oldest first (`npm run migration:generate -- <Name> --plugin fms` adds to it). */
export const MIGRATIONS: MigrationClass[] = [FmsModels1795800000000, FiberCircuitProviderCircuits1796666560497];
