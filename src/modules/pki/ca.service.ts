import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  buildCaCertificate,
  exportPrivateKeyPem,
  generateKeyPair,
  importPrivateKeyPem,
  parseDistinguishedName,
  formatDistinguishedName,
  type CryptoKey,
} from '@libs/x509';
import { DataSource, EntityManager, In, IsNull, Repository } from 'typeorm';
import { AccessPolicy } from '../../common/auth/access-policy';
import type { Principal } from '../../common/auth/principal';
import { AppConfig, type IssuerExpiryBehavior } from '../../common/config/app-config';
import { findEntityById } from '../../common/database/entity-statements';
import { violatedUniqueConstraint } from '../../common/database/unique-violation';
import { ForbiddenError, InvalidRequestError } from '../../common/errors/common-errors';
import { AuditService } from '../audit/audit.service';
import { assertOrganizationExists } from '../users/users.service';
import { issuerUrls } from './ca-slug';
import { CreateCaDto, UpdateCaDto } from './ca.dto';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { CertificateEntity } from './certificate.entity';
import { keySpecFor } from './key-type';
import { caNotFound, CaHasChildrenError } from './pki-errors';
import { PrivateKeyVault } from './private-key-vault';
import { translateX509Error } from './x509-errors';

/** A CA ready to sign: its certificate and its decrypted private key. */
export interface CaSigner {
  ca: CertificateAuthorityEntity;
  privateKey: CryptoKey;
}

@Injectable()
export class CaService {
  private readonly signingKeys = new Map<number, { ciphertext: string; key: Promise<CryptoKey> }>();

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(CertificateAuthorityEntity) private readonly cas: Repository<CertificateAuthorityEntity>,
    private readonly policy: AccessPolicy,
    private readonly vault: PrivateKeyVault,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Creates a root CA, or an intermediate under `parent_ca_id`. The key is generated off the event
   * loop (WebCrypto), then the certificate is signed by itself or by the parent.
   */
  async create(actor: Principal, dto: CreateCaDto, baseUrl: string): Promise<CertificateAuthorityEntity> {
    if (!this.policy.hasCapability(actor, 'can_create_ca')) throw new ForbiddenError();
    const parent = dto.parent_ca_id ? await this.findAuthorized(actor, dto.parent_ca_id, 'can_create_ca') : null;
    const subject = translateX509Error(() => parseDistinguishedName(dto.subject_dn), 'subject_dn');
    const keyType = dto.key_type ?? 'rsa';
    if (dto.key_size !== undefined && keyType !== 'rsa') {
      throw new InvalidRequestError('key_size applies to RSA keys only', 'key_size_not_applicable');
    }
    const validDays = dto.valid_days ?? this.config.caCertDays;
    const pathLength = parent ? childPathLength(parent, dto.path_length ?? null) : (dto.path_length ?? null);
    const organizationId = parent ? parent.organizationId : actor.organizationId;
    if (parent) assertWithinValidity(parent, validDays, this.config.issuerExpiryBehavior);

    const keySize = keyType === 'rsa' ? (dto.key_size ?? this.config.caKeySize) : null;
    const keys = await generateKeyPair(keySpecFor(keyType, dto.key_size ?? this.config.caKeySize));
    const signer = parent ? await this.signer(parent) : null;
    const issued = await translateX509Error(
      () =>
        buildCaCertificate({
          subject,
          publicKey: keys.publicKey,
          signingKey: signer ? signer.privateKey : keys.privateKey,
          issuer: parent ? parent.certificate : null,
          validDays,
          pathLength,
          ...(parent ? issuerUrls(parent, baseUrl) : {}),
        }),
      'subject_dn',
    );
    const privateKey = this.vault.encrypt(await exportPrivateKeyPem(keys.privateKey));
    try {
      return await this.dataSource.transaction(async (manager) => {
        await assertNameFree(manager, dto.name, organizationId);
        const ca = await manager.save(
          manager.create(CertificateAuthorityEntity, {
            name: dto.name,
            description: dto.description ?? null,
            subjectDn: formatDistinguishedName(subject),
            keyType,
            keySize,
            validDays,
            parentCaId: parent?.id ?? null,
            pathLength,
            allowLeafCerts: dto.allow_leaf_certs ?? null,
            ocspSigner: dto.ocsp_signer ?? 'ca',
            ocspValidityHours: dto.ocsp_validity_hours ?? null,
            publicBaseUrl: normalizeBaseUrl(dto.public_base_url),
            certificate: issued.pem,
            privateKey,
            serialNumber: issued.serialNumber,
            notBefore: issued.notBefore,
            notAfter: issued.notAfter,
            organizationId,
            createdByUserId: actor.kind === 'user' ? actor.id : null,
            createdByServiceAccountId: actor.kind === 'service_account' ? actor.id : null,
          }),
        );
        await this.audit.record(manager, {
          action: 'ca_create',
          actor,
          organizationId,
          resourceType: 'ca',
          resourceId: ca.id,
          detail: `Created ${parent ? `intermediate CA under CA ${parent.id}` : 'root CA'} '${ca.name}'`,
        });
        return ca;
      });
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'certificate_authorities_org_name_key') throw caNameTaken();
      throw error;
    }
  }

  async list(actor: Principal): Promise<CertificateAuthorityEntity[]> {
    const scope = this.policy.listScope(actor);
    if ('none' in scope) return [];
    const where = 'organizationId' in scope ? { organizationId: scope.organizationId } : {};
    return this.cas.find({ where, order: { id: 'ASC' } });
  }

  /** A CA the actor may act on; outside its organization the CA does not exist (404). */
  async findAuthorized(actor: Principal, id: number, action: Parameters<AccessPolicy['decide']>[1]): Promise<CertificateAuthorityEntity> {
    const ca = await findEntityById(this.cas.manager, CertificateAuthorityEntity, id);
    if (!ca) throw caNotFound(id);
    this.policy.assert(actor, action, ca, () => caNotFound(id));
    return ca;
  }

  /** Returns the CA with its decrypted private key, and audits the retrieval. */
  async withPrivateKey(
    actor: Principal,
    id: number,
    how: 'api' | 'export',
  ): Promise<{ ca: CertificateAuthorityEntity; privateKey: string }> {
    const ca = await this.findAuthorized(actor, id, 'can_export_private_key');
    const privateKey = this.vault.decrypt(ca.privateKey);
    await this.dataSource.transaction((manager) =>
      this.audit.record(manager, {
        action: 'ca_export_private_key',
        actor,
        organizationId: ca.organizationId,
        resourceType: 'ca',
        resourceId: ca.id,
        detail: `${how === 'export' ? 'Exported' : 'Retrieved'} private key of CA '${ca.name}'`,
      }),
    );
    return { ca, privateKey };
  }

  /** The plaintext key for the response that creates the CA (creation itself is audited). */
  decryptedKey(ca: CertificateAuthorityEntity): string {
    return this.vault.decrypt(ca.privateKey);
  }

  /** The CA followed by its issuers up to the root. */
  async chain(actor: Principal, id: number): Promise<CertificateAuthorityEntity[]> {
    await this.findAuthorized(actor, id, 'read');
    return this.chainOf(id);
  }

  /** A CA and its issuers up to the root, without access checks (the caller has done them). */
  async chainOf(id: number): Promise<CertificateAuthorityEntity[]> {
    const chain = [await this.cas.findOneByOrFail({ id })];
    while (chain[chain.length - 1].parentCaId !== null) {
      chain.push(await this.cas.findOneByOrFail({ id: chain[chain.length - 1].parentCaId! }));
    }
    return chain;
  }

  /** Direct child CAs the actor can see. */
  async children(actor: Principal, id: number): Promise<CertificateAuthorityEntity[]> {
    await this.findAuthorized(actor, id, 'read');
    const children = await this.cas.find({ where: { parentCaId: id }, order: { id: 'ASC' } });
    return children.filter((child) => this.policy.canSee(actor, child));
  }

  /**
   * Sets the leaf-certificate policy (admins of the CA's organization, superusers) and/or assigns the
   * CA to an organization (superusers), in one transaction with one audit entry.
   */
  async update(actor: Principal, id: number, dto: UpdateCaDto): Promise<CertificateAuthorityEntity> {
    const settings = {
      ...(dto.ocsp_signer !== undefined && { ocspSigner: dto.ocsp_signer }),
      ...(dto.ocsp_validity_hours !== undefined && { ocspValidityHours: dto.ocsp_validity_hours }),
      ...(dto.public_base_url !== undefined && { publicBaseUrl: normalizeBaseUrl(dto.public_base_url) }),
    };
    if (dto.organization_id === undefined && dto.allow_leaf_certs === undefined && Object.keys(settings).length === 0) {
      throw new InvalidRequestError(
        'Give organization_id, allow_leaf_certs, ocsp_signer, ocsp_validity_hours or public_base_url',
        'nothing_to_update',
      );
    }
    if (dto.cascade !== undefined && dto.organization_id === undefined) {
      throw new InvalidRequestError('cascade applies only with organization_id', 'cascade_without_organization');
    }
    await this.findAuthorized(actor, id, 'manage');
    if (dto.organization_id !== undefined && actor.role !== 'superuser') {
      throw new ForbiddenError('Only superusers can assign a CA to an organization', 'organization_not_allowed');
    }
    return this.dataSource.transaction(async (manager) => {
      const ca = await manager.findOne(CertificateAuthorityEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!ca) throw caNotFound(id);
      const changes: string[] = [];
      if (dto.allow_leaf_certs !== undefined) {
        await manager.update(CertificateAuthorityEntity, { id }, { allowLeafCerts: dto.allow_leaf_certs });
        changes.push(
          `Set allow_leaf_certs of CA '${ca.name}' to ${leafPolicy(dto.allow_leaf_certs)} (previously ${leafPolicy(ca.allowLeafCerts)})`,
        );
      }
      if (Object.keys(settings).length > 0) {
        await manager.update(CertificateAuthorityEntity, { id }, settings);
        for (const [field, value] of Object.entries({
          ocsp_signer: dto.ocsp_signer,
          ocsp_validity_hours: dto.ocsp_validity_hours,
          public_base_url: dto.public_base_url,
        })) {
          if (value !== undefined) changes.push(`Set ${field} of CA '${ca.name}' to ${value === null ? 'default' : String(value)}`);
        }
      }
      if (dto.organization_id !== undefined) changes.push(await assignOrganization(manager, ca, dto.organization_id, dto.cascade ?? false));
      const updated = await manager.findOneByOrFail(CertificateAuthorityEntity, { id });
      await this.audit.record(manager, {
        action: 'ca_update',
        actor,
        organizationId: updated.organizationId,
        resourceType: 'ca',
        resourceId: id,
        detail: changes.join('; '),
      });
      return updated;
    });
  }

  async remove(actor: Principal, id: number): Promise<void> {
    const ca = await this.findAuthorized(actor, id, 'can_delete_ca');
    await this.dataSource.transaction(async (manager) => {
      const children = await manager.count(CertificateAuthorityEntity, { where: { parentCaId: id } });
      if (children > 0) throw new CaHasChildrenError(id, children);
      const certificates = await manager.count(CertificateEntity, { where: { issuerId: id } });
      // Of concurrent deletes only the one that removed the row answers 204 and audits.
      if (!(await manager.delete(CertificateAuthorityEntity, { id })).affected) throw caNotFound(id);
      await this.audit.record(manager, {
        action: 'ca_delete',
        actor,
        organizationId: ca.organizationId,
        resourceType: 'ca',
        resourceId: id,
        detail: `Deleted CA '${ca.name}' and its ${certificates} certificate(s)`,
      });
    });
  }

  /** Whether each CA issues leaves now: its explicit setting, else only while it has no sub-CA. */
  async leafCertsAllowed(cas: CertificateAuthorityEntity[]): Promise<Map<number, boolean>> {
    const managed = cas.filter((ca) => ca.allowLeafCerts === null).map((ca) => ca.id);
    const parents = managed.length
      ? new Set(
          (await this.cas.find({ select: { parentCaId: true }, where: { parentCaId: In(managed) } })).map((child) => child.parentCaId),
        )
      : new Set<number | null>();
    return new Map(cas.map((ca) => [ca.id, ca.allowLeafCerts ?? !parents.has(ca.id)]));
  }

  /**
   * The CA with its private key imported for signing. Imported keys are cached per CA (keyed by the
   * stored ciphertext, so a re-encrypted or replaced key is imported afresh): decrypting and parsing
   * PKCS#8 on every issuance would cost more than the signature.
   */
  async signer(ca: CertificateAuthorityEntity): Promise<CaSigner> {
    const cached = this.signingKeys.get(ca.id);
    if (cached?.ciphertext === ca.privateKey) return { ca, privateKey: await cached.key };
    const key = importPrivateKeyPem(this.vault.decrypt(ca.privateKey));
    this.signingKeys.set(ca.id, { ciphertext: ca.privateKey, key });
    try {
      return { ca, privateKey: await key };
    } catch (error) {
      this.signingKeys.delete(ca.id);
      throw error;
    }
  }
}

/** A base URL as stored: without trailing slashes; null stays null (the default applies). */
function normalizeBaseUrl(url: string | null | undefined): string | null {
  return url ? url.replace(/\/+$/, '') : null;
}

/** A child's path length must fit under its parent's: at most (and by default) one less. */
export function childPathLength(parent: CertificateAuthorityEntity, requested: number | null): number | null {
  if (parent.pathLength === null) return requested;
  if (parent.pathLength < 1) {
    throw new InvalidRequestError(
      `CA ${parent.id} has path length ${parent.pathLength} and does not allow sub-CAs`,
      'path_length_exhausted',
    );
  }
  const maximum = parent.pathLength - 1;
  if (requested !== null && requested > maximum) {
    throw new InvalidRequestError(
      `path_length ${requested} exceeds the maximum of ${maximum} allowed under CA ${parent.id}`,
      'path_length_too_long',
    );
  }
  return requested ?? maximum;
}

/**
 * An expired CA issues nothing. A validity reaching past the issuer's end is cut there by the engine
 * (`truncate`) or, with `err`, refused here.
 */
export function assertWithinValidity(issuer: CertificateAuthorityEntity, validDays: number, behavior: IssuerExpiryBehavior): void {
  const now = Date.now();
  if (issuer.notAfter.getTime() <= now) {
    throw new InvalidRequestError(`CA ${issuer.id} expired on ${issuer.notAfter.toISOString()}`, 'issuer_expired');
  }
  if (behavior === 'err' && now + validDays * 86_400_000 > issuer.notAfter.getTime()) {
    throw new InvalidRequestError(
      `valid_days ${validDays} would outlast the issuing CA ${issuer.id}, which expires on ${issuer.notAfter.toISOString()}`,
      'validity_exceeds_issuer',
    );
  }
}

async function assertNameFree(manager: EntityManager, name: string, organizationId: number | null): Promise<void> {
  const taken = await manager
    .createQueryBuilder(CertificateAuthorityEntity, 'ca')
    .where('lower(ca.name) = lower(:name)', { name })
    .andWhere('coalesce(ca.organization_id, 0) = :org', { org: organizationId ?? 0 })
    .getExists();
  if (taken) throw caNameTaken();
}

function caNameTaken(): InvalidRequestError {
  return new InvalidRequestError('A CA with this name already exists in the organization', 'ca_name_taken');
}

function leafPolicy(allowLeafCerts: boolean | null): string {
  return allowLeafCerts === null ? 'managed' : String(allowLeafCerts);
}

/**
 * Assigns the CA to an organization; returns the audit text. With `cascade`, descendants without an
 * organization are adopted too, together with their certificates that have none; a descendant owned
 * by another organization is left alone and its subtree is not entered.
 */
async function assignOrganization(
  manager: EntityManager,
  ca: CertificateAuthorityEntity,
  target: number,
  cascade: boolean,
): Promise<string> {
  await assertOrganizationExists(manager, target);
  const adopted = [ca.id];
  if (cascade) {
    let frontier = [ca.id];
    while (frontier.length > 0) {
      const children = await manager.find(CertificateAuthorityEntity, { where: { parentCaId: In(frontier) } });
      const entered = children.filter((child) => child.organizationId === null || child.organizationId === target);
      adopted.push(...entered.filter((child) => child.organizationId === null).map((child) => child.id));
      frontier = entered.map((child) => child.id);
    }
  }
  await manager.update(CertificateAuthorityEntity, { id: In(adopted) }, { organizationId: target });
  const certificates = cascade
    ? ((await manager.update(CertificateEntity, { issuerId: In(adopted), organizationId: IsNull() }, { organizationId: target }))
        .affected ?? 0)
    : 0;
  const previous = ca.organizationId;
  return (
    `Assigned CA '${ca.name}' to organization ${target} (previously ${previous === null ? 'unassigned' : `organization ${previous}`}; ` +
    `${adopted.length} CA(s), ${certificates} certificate(s) updated)`
  );
}
