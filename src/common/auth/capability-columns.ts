import { Column } from 'typeorm';
import { CAPABILITIES, Capability } from './principal';

/**
 * The five capability columns users and service accounts both carry; their entities extend this
 * class, so the columns are declared once.
 */
export abstract class CapabilityColumns {
  @Column({ name: 'can_create_ca', type: 'boolean', default: false })
  canCreateCa: boolean;

  @Column({ name: 'can_create_cert', type: 'boolean', default: false })
  canCreateCert: boolean;

  @Column({ name: 'can_revoke_cert', type: 'boolean', default: false })
  canRevokeCert: boolean;

  @Column({ name: 'can_export_private_key', type: 'boolean', default: false })
  canExportPrivateKey: boolean;

  @Column({ name: 'can_delete_ca', type: 'boolean', default: false })
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
export function capabilityColumnsFrom(flags: Partial<Record<Capability, boolean>>): Pick<CapabilityColumns, keyof CapabilityColumns> {
  return Object.fromEntries(CAPABILITIES.map((capability) => [CAPABILITY_COLUMNS[capability], flags[capability] ?? false])) as Pick<
    CapabilityColumns,
    keyof CapabilityColumns
  >;
}

/**
 * Applies the flags that are given and differ from the row's; returns the names of those that
 * changed (for audit details).
 */
export function applyCapabilityFlags(row: CapabilityColumns, flags: Partial<Record<Capability, boolean>>): Capability[] {
  const changed = CAPABILITIES.filter(
    (capability) => flags[capability] !== undefined && flags[capability] !== row[CAPABILITY_COLUMNS[capability]],
  );
  for (const capability of changed) row[CAPABILITY_COLUMNS[capability]] = flags[capability]!;
  return changed;
}
