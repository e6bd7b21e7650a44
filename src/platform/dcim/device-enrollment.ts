import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { CertificateService } from '../../modules/pki/certificate.service';
import type { DeviceBinding, DeviceInventory, InventoryDevice } from '../../modules/service-accounts/device-inventory';
import type { ObjectEvent, ObjectEventSubscriber } from '../framework/resource/object-events';

/** The device status that ends its certificates, as deleting it does. */
const DECOMMISSIONING = 'decommissioning';

const OBJECT_TYPE_ID = (model: string) => `(SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = '${model}')`;

/**
 * The devices a binding names (by id, by tag slug, by device role slug) with their addresses: those
 * assigned to their interfaces (a NetBox primary IPv4/IPv6 is always one of them). A device being
 * decommissioned is no longer bound.
 */
const BOUND_DEVICES = `SELECT d.id, d.name,
    (SELECT string_agg(host(a.address), ' ') FROM ipam_ipaddress a JOIN dcim_interface i ON i.id = a.assigned_object_id
      WHERE a.assigned_object_type_id = ${OBJECT_TYPE_ID('interface')} AND i.device_id = d.id) AS addresses
  FROM dcim_device d
  WHERE d.status <> '${DECOMMISSIONING}' AND (
    d.id = ANY($1::int[])
    OR d.role_id IN (SELECT id FROM dcim_devicerole WHERE slug = ANY($2::text[]))
    OR d.id IN (SELECT ti.object_id FROM extras_taggeditem ti JOIN extras_tag t ON t.id = ti.tag_id
      WHERE t.slug = ANY($3::text[]) AND ti.object_type_id = ${OBJECT_TYPE_ID('device')}))
  ORDER BY d.id`;

/** The platform side of issuance bound to the inventory (the PKI's `DeviceInventory` port). */
@Injectable()
export class PlatformDeviceInventory implements DeviceInventory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async boundDevices(binding: DeviceBinding): Promise<InventoryDevice[]> {
    const rows = (await this.dataSource.query(BOUND_DEVICES, [binding.deviceIds, binding.tags, binding.roles])) as Array<{
      id: number;
      name: string | null;
      addresses: string | null;
    }>;
    const suffix = this.config.inventoryDnsSuffix;
    return rows.map((row) => ({
      id: row.id,
      dnsNames: row.name ? [suffix ? `${row.name.toLowerCase()}.${suffix}` : row.name.toLowerCase()] : [],
      ipAddresses: row.addresses ? row.addresses.split(' ') : [],
    }));
  }
}

/** Revokes a device's certificates (cessationOfOperation) when it is set to decommissioning or deleted, in that change's transaction. */
@Injectable()
export class DeviceCertificateRevocation implements ObjectEventSubscriber {
  readonly name = 'revoke the certificates of decommissioned devices';
  readonly objectTypes = ['dcim.device'];

  constructor(private readonly certificates: CertificateService) {}

  async handle(manager: EntityManager, event: ObjectEvent): Promise<void> {
    const decommissioned =
      event.event === 'deleted' ||
      (event.event === 'updated' && statusOf(event.postchange) === DECOMMISSIONING && statusOf(event.prechange) !== DECOMMISSIONING);
    if (decommissioned) await this.certificates.revokeForDevice(manager, event.objectId, event.username);
  }
}

function statusOf(object: Record<string, unknown> | null): unknown {
  const status = object?.status as { value?: unknown } | string | undefined;
  return typeof status === 'object' && status !== null ? status.value : status;
}
