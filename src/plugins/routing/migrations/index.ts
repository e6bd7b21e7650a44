import type { MigrationClass } from '../../../platform/plugin-api';

/**
 * The routing plugin's migrations, oldest first (`npm run migration:generate -- <Name> --plugin
 * routing` adds to it). Empty: its tables come from the platform's CoreModels migration, written
 * before routing was a plugin, and an existing database has that migration recorded by name.
 */
export const MIGRATIONS: MigrationClass[] = [];
