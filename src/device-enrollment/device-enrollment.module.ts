import { Global, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { CertificateService } from '../modules/pki/certificate.service';
import { PkiModule } from '../modules/pki/pki.module';
import { INVENTORY_NAMES, InventoryNames } from '../modules/service-accounts/inventory-names';
import { DeviceDecommissioning, DeviceInventory } from '../platform/dcim/device-inventory';

/** Revokes the certificates issued to a device when the inventory decommissions or deletes it. */
@Injectable()
export class DecommissionedDeviceRevocation implements OnModuleInit {
  constructor(
    private readonly decommissioning: DeviceDecommissioning,
    private readonly certificates: CertificateService,
  ) {}

  onModuleInit(): void {
    this.decommissioning.listen(async (manager, deviceId, username) => {
      await this.certificates.revokeIssuedToDevice(manager, deviceId, username);
    });
  }
}

/**
 * Issuance bound to the inventory, wired between the two sides that do not know each other: the
 * platform's device inventory answers the issuance policy's `INVENTORY_NAMES` port, and the
 * platform's decommissioning events revoke the PKI's certificates.
 */
@Global()
@Module({
  imports: [PkiModule],
  providers: [
    { provide: INVENTORY_NAMES, inject: [DeviceInventory], useFactory: (inventory: DeviceInventory): InventoryNames => inventory },
    DecommissionedDeviceRevocation,
  ],
  exports: [INVENTORY_NAMES],
})
export class DeviceEnrollmentModule {}
