import { CAPABILITIES, Capability } from './principal';

/** The five capability columns users and service accounts both carry. */
export interface CapabilityColumns {
  canCreateCa: boolean;
  canCreateCert: boolean;
  canRevokeCert: boolean;
  canExportPrivateKey: boolean;
  canDeleteCa: boolean;
}

/** Entity property of each capability flag (API and audit use the snake_case names). */
export const CAPABILITY_COLUMNS: Record<Capability, keyof CapabilityColumns> = {
  can_create_ca: 'canCreateCa',
  can_create_cert: 'canCreateCert',
  can_revoke_cert: 'canRevokeCert',
  can_export_private_key: 'canExportPrivateKey',
  can_delete_ca: 'canDeleteCa',
};

export function capabilitiesOf(row: CapabilityColumns): Set<Capability> {
  return new Set(CAPABILITIES.filter((capability) => row[CAPABILITY_COLUMNS[capability]]));
}

/** Columns for a new row: the flags given, false for the rest. */
export function capabilityColumnsFrom(flags: Partial<Record<Capability, boolean>>): CapabilityColumns {
  return Object.fromEntries(
    CAPABILITIES.map((capability) => [CAPABILITY_COLUMNS[capability], flags[capability] ?? false]),
  ) as unknown as CapabilityColumns;
}

/**
 * Applies the flags that are given and differ from the row's; returns the names of those that
 * changed (for audit details).
 */
export function applyCapabilityFlags(row: CapabilityColumns, flags: Partial<Record<Capability, boolean>>): Capability[] {
  const changed = CAPABILITIES.filter((capability) => flags[capability] !== undefined && flags[capability] !== row[CAPABILITY_COLUMNS[capability]]);
  for (const capability of changed) row[CAPABILITY_COLUMNS[capability]] = flags[capability]!;
  return changed;
}
