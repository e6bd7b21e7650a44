import { PeeringModels1795800000100 } from './1795800000100-PeeringModels';
import { PeeringSyncRuns1795800000200 } from './1795800000200-PeeringSyncRuns';
import type { MigrationClass } from '../../../platform/plugin-api';

/** The peering plugin's migrations, oldest first (`npm run migration:generate -- <Name> --plugin peering` adds to it). */
export const MIGRATIONS: MigrationClass[] = [PeeringModels1795800000100, PeeringSyncRuns1795800000200];
