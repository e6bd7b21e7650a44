import { migrationsOf } from '../migrations';
import type { MigrationClass } from './common/database/data-source-options';
import { AVAILABLE_PLUGINS } from './plugins';

/**
 * Every migration of the application: the platform's and those of every available plugin. The entry
 * points (the application module, the migration command, the test setup) hand it to the database
 * layer, which names no plugin itself.
 */
export const APPLICATION_MIGRATIONS: readonly MigrationClass[] = migrationsOf(AVAILABLE_PLUGINS);
