import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import type { ObjectEvent, ObjectEventSubscriber } from '../framework/resource/object-events';

/** The device status that ends a device's place in the inventory, as deleting it does. */
const DECOMMISSIONING = 'decommissioning';

/** Devices chosen by id, tag slug or device role slug (any one suffices). */
export interface DeviceSelection {
  readonly deviceIds: readonly number[];
  readonly tags: readonly string[];
  readonly roles: readonly string[];
}

/** A device and the names the inventory gives it. */
export interface DeviceNames {
  readonly id: number;
  /** Its name in lower case, with INVENTORY_DNS_SUFFIX appended when set. */
  readonly dnsNames: string[];
  /** The addresses (without prefix length) assigned to its interfaces. */
  readonly ipAddresses: string[];
}

/**
 * The selected devices (not being decommissioned) with a given DNS name or address, and every name
 * of each. An address is the device's when an IP address object is assigned to one of its
 * interfaces (NetBox's primary IPv4/IPv6 are such addresses).
 */
const DEVICES_NAMED = `WITH selected AS (
    SELECT d.id, d.name FROM dcim_device d
    WHERE d.status <> '${DECOMMISSIONING}' AND (
      d.id = ANY($1::int[])
      OR d.role_id IN (SELECT r.id FROM dcim_devicerole r WHERE lower(r.slug) = ANY($2::text[]))
      OR d.id IN (SELECT ti.object_id FROM extras_taggeditem ti
        JOIN extras_tag t ON t.id = ti.tag_id
        JOIN core_objecttype ot ON ot.id = ti.object_type_id AND ot.app_label = 'dcim' AND ot.model = 'device'
        WHERE lower(t.slug) = ANY($3::text[])))
  ), addresses AS (
    SELECT i.device_id, a.address FROM ipam_ipaddress a
    JOIN core_objecttype ot ON ot.id = a.assigned_object_type_id AND ot.app_label = 'dcim' AND ot.model = 'interface'
    JOIN dcim_interface i ON i.id = a.assigned_object_id
    WHERE i.device_id IN (SELECT id FROM selected)
  )
  SELECT s.id, s.name, (SELECT string_agg(DISTINCT host(x.address), ' ') FROM addresses x WHERE x.device_id = s.id) AS addresses
  FROM selected s
  WHERE lower(s.name) = $4 OR EXISTS (SELECT 1 FROM addresses x WHERE x.device_id = s.id AND host(x.address)::inet = $5::inet)
  ORDER BY s.id`;

/** What the inventory says about devices' names, for certificates bound to it. */
@Injectable()
export class DeviceInventory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** The selected devices, not being decommissioned, that have `name` (a DNS name or an address) among their names. */
  async devicesNamed(selection: DeviceSelection, name: string): Promise<DeviceNames[]> {
    const address = isIP(name) === 0 ? null : name;
    const deviceName = address === null ? this.deviceNameOf(name) : null;
    if (address === null && deviceName === null) return [];
    const rows = (await this.dataSource.query(DEVICES_NAMED, [
      selection.deviceIds,
      selection.roles,
      selection.tags,
      deviceName,
      address,
    ])) as Array<{ id: number; name: string | null; addresses: string | null }>;
    return rows.map((row) => ({
      id: row.id,
      dnsNames: row.name ? [this.dnsNameOf(row.name)] : [],
      ipAddresses: row.addresses ? row.addresses.split(' ') : [],
    }));
  }

  private dnsNameOf(deviceName: string): string {
    const suffix = this.config.inventoryDnsSuffix;
    return suffix ? `${deviceName.toLowerCase()}.${suffix}` : deviceName.toLowerCase();
  }

  /** The device name a DNS name stands for (lower case), or null when it lacks the configured suffix. */
  private deviceNameOf(dnsName: string): string | null {
    const lower = dnsName.toLowerCase();
    const suffix = this.config.inventoryDnsSuffix;
    if (!suffix) return lower;
    return lower.endsWith(`.${suffix}`) && lower.length > suffix.length + 1 ? lower.slice(0, -suffix.length - 1) : null;
  }
}

/** Called in the transaction that decommissions or deletes a device; throwing refuses that change. */
export type DeviceDecommissionListener = (manager: EntityManager, deviceId: number, username: string) => Promise<void>;

/**
 * Tells its listeners when a device leaves the inventory: set to `decommissioning` (from another
 * status) or deleted, inside the change's transaction.
 */
@Injectable()
export class DeviceDecommissioning implements ObjectEventSubscriber {
  readonly name = 'device decommissioning';
  readonly objectTypes = ['dcim.device'];
  private readonly listeners: DeviceDecommissionListener[] = [];

  listen(listener: DeviceDecommissionListener): void {
    this.listeners.push(listener);
  }

  async handle(manager: EntityManager, event: ObjectEvent): Promise<void> {
    const decommissioned =
      event.event === 'deleted' ||
      (event.event === 'updated' && statusOf(event.postchange) === DECOMMISSIONING && statusOf(event.prechange) !== DECOMMISSIONING);
    if (!decommissioned) return;
    for (const listener of this.listeners) await listener(manager, event.objectId, event.username);
  }
}

/** A snapshot's status: the choice's value (`{value, label}` in representations, the bare value in change-log snapshots). */
function statusOf(object: Record<string, unknown> | null): unknown {
  const status = object?.status as { value?: unknown } | string | undefined;
  return typeof status === 'object' && status !== null ? status.value : status;
}
