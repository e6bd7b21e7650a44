import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { DomainError, ErrorDetail } from '../../common/errors/domain-error';
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

/** Checks what a service account issues against its policy; users are never subject to policy. */
@Injectable()
export class IssuancePolicyEnforcer {
  constructor(@InjectRepository(IssuancePolicyEntity) private readonly policies: Repository<IssuancePolicyEntity>) {}

  async assertAllowed(actor: Principal, request: IssuanceRequest): Promise<void> {
    if (actor.kind !== 'service_account') return;
    const policy = await this.policies.findOne({ where: { serviceAccountId: actor.id } });
    if (!policy) throw new NoPolicyError();
    const violation = evaluatePolicy(policy, request);
    if (violation) throw new PolicyViolationError(violation);
  }
}
