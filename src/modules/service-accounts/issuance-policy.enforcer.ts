import { BlockList, isIP } from 'node:net';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { DomainError, ErrorDetail } from '../../common/errors/domain-error';
import { DEVICE_INVENTORY, DeviceInventory, InventoryDevice } from './device-inventory';
import { IssuancePolicyEntity } from './issuance-policy.entity';
import { evaluatePolicy, IssuanceRequest, PolicyViolation } from './issuance-policy';

export class NoPolicyError extends DomainError {
  readonly kind = 'forbidden';

  constructor() {
    super('service_account_has_no_policy', 'The service account has no issuance policy');
  }

  override detail(): ErrorDetail {
    return { code: this.code, message: this.message };
  }
}

export class PolicyViolationError extends DomainError {
  readonly kind = 'invalid';

  constructor(readonly violation: PolicyViolation) {
    super('policy_violation', `The issuance policy does not allow ${violation.field}: ${violation.value}`);
  }

  override detail(): ErrorDetail {
    return { code: this.code, field: this.violation.field, value: this.violation.value, message: this.message };
  }
}

/** A name a device bound to the account does not have in the inventory (403, naming it). */
export class NotInInventoryError extends DomainError {
  readonly kind = 'forbidden';

  constructor(
    readonly field: string,
    readonly value: string,
  ) {
    super('not_in_inventory', `${field} ${JSON.stringify(value)} is not an inventory name of a device this service account is bound to`);
  }

  override detail(): ErrorDetail {
    return { code: this.code, field: this.field, value: this.value, message: this.message };
  }
}

/** What issuance learns from the policy: the device the certificate is issued to, when the account is bound to the inventory. */
export interface IssuanceGrant {
  readonly deviceId: number | null;
}

const USER_GRANT: IssuanceGrant = { deviceId: null };

/**
 * Checks what a service account issues against its policy; users are never subject to policy. Every
 * issuance path (REST issue, sign-csr and renewal, and the enrollment protocols) goes through here.
 * A policy bound to devices replaces the name patterns by the inventory: the common name picks the
 * device, and every SAN must be one of its inventory names.
 */
@Injectable()
export class IssuancePolicyEnforcer {
  constructor(
    @InjectRepository(IssuancePolicyEntity) private readonly policies: Repository<IssuancePolicyEntity>,
    @Optional() @Inject(DEVICE_INVENTORY) private readonly inventory: DeviceInventory | null,
  ) {}

  async assertAllowed(actor: Principal, request: IssuanceRequest): Promise<IssuanceGrant> {
    if (actor.kind !== 'service_account') return USER_GRANT;
    const policy = await this.policies.findOne({ where: { serviceAccountId: actor.id } });
    if (!policy) throw new NoPolicyError();
    const bound = policy.boundDeviceIds.length + policy.boundDeviceTags.length + policy.boundDeviceRoles.length > 0;
    const violation = evaluatePolicy(policy, request, { names: !bound });
    if (violation) throw new PolicyViolationError(violation);
    if (!bound) return USER_GRANT;
    const devices = this.inventory
      ? await this.inventory.boundDevices({
          deviceIds: policy.boundDeviceIds,
          tags: policy.boundDeviceTags,
          roles: policy.boundDeviceRoles,
        })
      : [];
    return { deviceId: deviceFor(devices, request) };
  }
}

/** The bound device the request names (by its common name) whose inventory names cover every SAN. */
function deviceFor(devices: readonly InventoryDevice[], request: IssuanceRequest): number {
  const candidates = devices.map((device) => ({ device, has: inventoryNames(device) })).filter(({ has }) => has(request.commonName));
  if (candidates.length === 0) throw new NotInInventoryError('common_name', request.commonName);
  let firstMissing: NotInInventoryError | null = null;
  for (const { device, has } of candidates) {
    const missing = firstMissingName(request, has);
    if (!missing) return device.id;
    firstMissing ??= missing;
  }
  throw firstMissing!;
}

/** The first SAN of the request that is not among the device's names (email SANs never are). */
function firstMissingName(request: IssuanceRequest, has: (name: string) => boolean): NotInInventoryError | null {
  const dns = request.dns.find((name) => !has(name));
  if (dns !== undefined) return new NotInInventoryError('san_dns_names', dns);
  const ip = request.ip.find((address) => !has(address));
  if (ip !== undefined) return new NotInInventoryError('san_ip_addresses', ip);
  return request.email.length > 0 ? new NotInInventoryError('san_email_addresses', request.email[0]) : null;
}

/** Whether a name (DNS, case-insensitive, or an IP address in any notation) is one of the device's. */
function inventoryNames(device: InventoryDevice): (name: string) => boolean {
  const dns = new Set(device.dnsNames);
  const addresses = new BlockList();
  for (const address of device.ipAddresses) {
    const version = isIP(address);
    if (version !== 0) addresses.addAddress(address, version === 6 ? 'ipv6' : 'ipv4');
  }
  return (name) => {
    const version = isIP(name);
    return version === 0 ? dns.has(name.toLowerCase()) : addresses.check(name, version === 6 ? 'ipv6' : 'ipv4');
  };
}
