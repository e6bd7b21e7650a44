import { PeeringModels1795800000100 } from './1795800000100-PeeringModels';
import { PeeringSyncRuns1796670000000 } from './1796670000000-PeeringSyncRuns';
import type { MigrationClass } from '../../../platform/plugin-api';

/** The peering plugin's migrations, oldest first (`npm run migration:generate -- <Name> --plugin peering` adds to it). */
export const MIGRATIONS: MigrationClass[] = [PeeringModels1795800000100, PeeringSyncRuns1796670000000];
