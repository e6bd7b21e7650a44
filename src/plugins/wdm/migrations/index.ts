import { WdmModels1795800000400 } from './1795800000400-WdmModels';
import { WdmWavelengthPathChannels1796700000000 } from './1796700000000-WdmWavelengthPathChannels';
import type { MigrationClass } from '../../../platform/plugin-api';

/** The wdm plugin's migrations, oldest first (`npm run migration:generate -- <Name> --plugin wdm` adds to it). */
export const MIGRATIONS: MigrationClass[] = [WdmModels1795800000400, WdmWavelengthPathChannels1796700000000];
