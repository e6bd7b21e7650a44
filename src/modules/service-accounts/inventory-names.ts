/**
 * The port through which issuance asks the network inventory which names a device may have
 * certified. Issuance defines it and knows nothing else of the inventory; the application wires an
 * implementation under `INVENTORY_NAMES` (src/device-enrollment/), so PKI modules never import the
 * platform.
 */
export const INVENTORY_NAMES = Symbol('INVENTORY_NAMES');

/** The devices an issuance policy is bound to: by id, by tag slug, by device role slug (any one suffices). */
export interface DeviceBinding {
  readonly deviceIds: readonly number[];
  readonly tags: readonly string[];
  readonly roles: readonly string[];
}

/** A device and every name the inventory gives it. */
export interface InventoryDevice {
  readonly id: number;
  /** DNS names, lower case: the device's name, with the configured DNS suffix when there is one. */
  readonly dnsNames: readonly string[];
  /** Addresses without prefix length: those of its interfaces (where NetBox's primary IPv4/IPv6 are). */
  readonly ipAddresses: readonly string[];
}

export interface InventoryNames {
  /** The devices of the binding, not being decommissioned, that have `subject` (a DNS name or an address) among their names. */
  devicesNamed(binding: DeviceBinding, subject: string): Promise<InventoryDevice[]>;
}
