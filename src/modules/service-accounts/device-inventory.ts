/**
 * The port through which issuance asks the network inventory about devices. The PKI side defines it
 * and knows nothing else of the platform; the platform provides it (`DEVICE_INVENTORY`). Without the
 * platform, nothing provides it and an account bound to devices can issue nothing.
 */
export const DEVICE_INVENTORY = Symbol('DEVICE_INVENTORY');

/** The devices an issuance policy is bound to: by id, by tag slug, by role slug (any one suffices). */
export interface DeviceBinding {
  readonly deviceIds: readonly number[];
  readonly tags: readonly string[];
  readonly roles: readonly string[];
}

/** A device and the names the inventory gives it, as certificates may carry them. */
export interface InventoryDevice {
  readonly id: number;
  /** DNS names, lower case: the device name, with the configured DNS suffix when there is one. */
  readonly dnsNames: readonly string[];
  /** IP addresses without prefix length: primary IPv4 and IPv6 and those of its interfaces. */
  readonly ipAddresses: readonly string[];
}

export interface DeviceInventory {
  boundDevices(binding: DeviceBinding): Promise<InventoryDevice[]>;
}
