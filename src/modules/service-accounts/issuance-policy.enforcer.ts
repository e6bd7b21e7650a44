import { BlockList, isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { DomainError, ErrorDetail } from '../../common/errors/domain-error';
import { IssuancePolicyEntity } from './issuance-policy.entity';
import { evaluatePolicy, isBoundToInventory, IssuanceRequest, PolicyViolation } from './issuance-policy';
import { INVENTORY_NAMES } from './inventory-names';
import type { InventoryDevice, InventoryNames } from './inventory-names';

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

  constructor(
    readonly violation: PolicyViolation,
    message = `The issuance policy does not allow ${violation.field}: ${violation.value}`,
    code = 'policy_violation',
  ) {
    super(code, message);
  }

  override detail(): ErrorDetail {
    return { code: this.code, field: this.violation.field, value: this.violation.value, message: this.message };
  }
}

/** A name asked for that no bound device has in the inventory (the field says where the request carries it). */
export class NotInInventoryError extends PolicyViolationError {
  constructor(field: 'common_name' | 'san_dns_names' | 'san_ip_addresses' | 'san_email_addresses', value: string) {
    super(
      { field, value },
      `${field} ${JSON.stringify(value)} is not among the inventory names of a device the service account is bound to`,
      'not_in_inventory',
    );
  }
}

/** What a request may be issued as: for an account bound to the inventory, the device it is issued to. */
export interface IssuanceGrant {
  deviceId: number | null;
}

const UNBOUND: IssuanceGrant = { deviceId: null };

/** Checks what a service account issues against its policy; users are never subject to policy. */
@Injectable()
export class IssuancePolicyEnforcer {
  constructor(
    @InjectRepository(IssuancePolicyEntity) private readonly policies: Repository<IssuancePolicyEntity>,
    @Inject(INVENTORY_NAMES) private readonly inventory: InventoryNames,
  ) {}

  async assertAllowed(actor: Principal, request: IssuanceRequest): Promise<IssuanceGrant> {
    if (actor.kind !== 'service_account') return UNBOUND;
    const policy = await this.policies.findOne({ where: { serviceAccountId: actor.id } });
    if (!policy) throw new NoPolicyError();
    const violation = evaluatePolicy(policy, request);
    if (violation) throw new PolicyViolationError(violation);
    if (!isBoundToInventory(policy)) return UNBOUND;
    const candidates = await this.inventory.devicesNamed(
      { deviceIds: policy.boundDeviceIds, tags: policy.boundDeviceTags, roles: policy.boundDeviceRoles },
      request.commonName,
    );
    return { deviceId: deviceFor(candidates, request) };
  }
}

/**
 * The bound device (one of those having the common name) whose inventory names cover every SAN;
 * otherwise the refusal names the first name missing (for the first candidate).
 */
function deviceFor(candidates: readonly InventoryDevice[], request: IssuanceRequest): number {
  if (candidates.length === 0) throw new NotInInventoryError('common_name', request.commonName);
  let refusal: NotInInventoryError | null = null;
  for (const device of candidates) {
    const missing = firstMissingName(request, inventoryNamesOf(device));
    if (!missing) return device.id;
    refusal ??= missing;
  }
  throw refusal!;
}

/** The first SAN that is not among the device's names (the inventory gives a device no email address). */
function firstMissingName(request: IssuanceRequest, has: (name: string) => boolean): NotInInventoryError | null {
  const dns = request.dns.find((name) => !has(name));
  if (dns !== undefined) return new NotInInventoryError('san_dns_names', dns);
  const ip = request.ip.find((address) => !has(address));
  if (ip !== undefined) return new NotInInventoryError('san_ip_addresses', ip);
  return request.email.length > 0 ? new NotInInventoryError('san_email_addresses', request.email[0]) : null;
}

/** Whether a name (DNS, case-insensitive; an address in any notation) is one of the device's. */
function inventoryNamesOf(device: InventoryDevice): (name: string) => boolean {
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
