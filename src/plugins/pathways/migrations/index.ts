import { PathwaysPathwayBase1796665689856 } from './1796665689856-PathwaysPathwayBase';
import { PathwaysModels1795800000300 } from './1795800000300-PathwaysModels';
import { PathwaysGeoLength1795800000301 } from './1795800000301-PathwaysGeoLength';
import type { MigrationClass } from '../../../platform/plugin-api';

/** The pathways plugin's migrations, oldest first (`npm run migration:generate -- <Name> --plugin pathways` adds to it). */
export const MIGRATIONS: MigrationClass[] = [PathwaysModels1795800000300, PathwaysGeoLength1795800000301, PathwaysPathwayBase1796665689856];
