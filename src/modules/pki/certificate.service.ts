import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  buildCaCertificate,
  buildLeafCertificate,
  type CertifiablePublicKey,
  commonNameOf,
  exportPrivateKeyPem,
  formatDistinguishedName,
  generateKeyPair,
  normalizeSerialNumber,
  parseCsr,
  parseDistinguishedName,
  readCertificate,
  resolveSubjectAltNames,
  REVOCATION_REASON_CODES,
  revocationReasonCode,
  type DistinguishedName,
  withCommonName,
  type X509EngineError,
} from '@libs/x509';
import type { Logger } from 'pino';
import { Inject } from '@nestjs/common';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { AccessPolicy } from '../../common/auth/access-policy';
import type { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../common/config/app-config';
import { entityInsert } from '../../common/database/entity-statements';
import { preparedQuery } from '../../common/database/prepared-query';
import { ForbiddenError, InvalidRequestError } from '../../common/errors/common-errors';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { AuditService } from '../audit/audit.service';
import { IssuancePolicyEnforcer } from '../service-accounts/issuance-policy.enforcer';
import { issuerUrls } from './ca-slug';
import { assertWithinValidity, CaService, childPathLength } from './ca.service';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { CertificateEntity, CertificateOrigin, CertificateType } from './certificate.entity';
import { IssueCertificateDto, RenewCertificateDto, RevokeCertificateDto, SignCsrDto } from './certificate.dto';
import { CrlService } from './crl.service';
import { OcspService } from './ocsp.service';
import { KeyType, keySpecFor } from './key-type';
import {
  AlreadyRevokedError,
  caNamedNotFound,
  certificateNotFound,
  certificateWithSerialNotFound,
  LeafIssuanceNotAllowedError,
  RenewalError,
} from './pki-errors';
import { PrivateKeyVault } from './private-key-vault';
import { translateX509Error } from './x509-errors';
import { Metrics } from '../../common/metrics/metrics';

interface RequestedSans {
  dns: string[];
  ip: string[];
  email: string[];
}

/** Everything needed to sign one certificate: a leaf, or of type `ca` a CA-constrained one. */
interface LeafRequest {
  ca: CertificateAuthorityEntity;
  subject: DistinguishedName;
  commonName: string;
  type: CertificateType;
  /** basicConstraints pathLen of a `ca` certificate (null: unconstrained); unused for leaves. */
  pathLength: number | null;
  validDays: number;
  sans: RequestedSans;
  origin: CertificateOrigin;
  publicKey: CertifiablePublicKey;
  keyType: KeyType;
  keySize: number | null;
  /** Encrypted private key to keep, when the key was generated here and is kept. */
  storedPrivateKey: string | null;
  renewedFromId: number | null;
  /** The inventory device the issuance policy granted it to. */
  deviceId: number | null;
  auditDetail: string;
}

/** A newly issued certificate and, for keys generated here, the plaintext key to return once. */
export interface IssuedLeaf {
  certificate: CertificateEntity;
  privateKey: string | null;
}

const SAN_FIELDS = { dns: 'san_dns_names', ip: 'san_ip_addresses', email: 'san_email_addresses' } as const;
/** Why the certificates of a device leaving the inventory are revoked (RFC 5280 cessationOfOperation). */
const DEVICE_DECOMMISSIONED = 'cessationOfOperation';

@Injectable()
export class CertificateService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(CertificateEntity) private readonly certificates: Repository<CertificateEntity>,
    @InjectRepository(CertificateAuthorityEntity) private readonly cas: Repository<CertificateAuthorityEntity>,
    private readonly caService: CaService,
    private readonly crls: CrlService,
    private readonly ocsp: OcspService,
    private readonly policy: AccessPolicy,
    private readonly vault: PrivateKeyVault,
    private readonly audit: AuditService,
    private readonly config: AppConfig,
    private readonly issuancePolicy: IssuancePolicyEnforcer,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  /** Issues a certificate for a key generated here. */
  async issue(actor: Principal, caId: number, dto: IssueCertificateDto, baseUrl: string): Promise<IssuedLeaf> {
    const ca = await this.caService.findAuthorized(actor, caId, 'can_create_cert');
    const subject = translateX509Error(() => withCommonName(parseDistinguishedName(dto.subject_dn), dto.common_name), 'subject_dn');
    const keyType = dto.key_type ?? 'rsa';
    if (dto.key_size !== undefined && keyType !== 'rsa') {
      throw new InvalidRequestError('key_size applies to RSA keys only', 'key_size_not_applicable');
    }
    const validDays = dto.valid_days ?? this.config.certDays;
    const pathLength = this.caCertificatePathLength(actor, ca, dto);
    const sans = resolvedSans(dto.certificate_type, dto.common_name, requestedSans(dto));
    const { deviceId } = await this.issuancePolicy.assertAllowed(actor, {
      certificateType: dto.certificate_type,
      caId: ca.id,
      commonName: dto.common_name,
      ...sans,
      validDays,
    });
    await this.assertIssuable(ca, dto.certificate_type, validDays);
    const keys = await generateKeyPair(keySpecFor(keyType, dto.key_size ?? this.config.certKeySize));
    const privateKeyPem = await exportPrivateKeyPem(keys.privateKey);
    const keep = dto.include_private_key ?? true;
    const certificate = await this.sign(actor, baseUrl, {
      ca,
      subject,
      commonName: dto.common_name,
      type: dto.certificate_type,
      pathLength,
      validDays,
      sans,
      origin: 'server_key',
      publicKey: keys.publicKey,
      keyType,
      keySize: keyType === 'rsa' ? (dto.key_size ?? this.config.certKeySize) : null,
      storedPrivateKey: keep ? this.vault.encrypt(privateKeyPem) : null,
      renewedFromId: null,
      deviceId,
      auditDetail: `Issued certificate '${dto.common_name}'`,
    });
    return { certificate, privateKey: privateKeyPem };
  }

  /** Signs a CSR: its subject, SANs and key are defaults; explicit fields override them. */
  async signCsr(actor: Principal, dto: SignCsrDto, baseUrl: string): Promise<CertificateEntity> {
    if ((dto.ca_id === undefined) === (dto.ca_name === undefined)) {
      throw new InvalidRequestError('Give exactly one of ca_id or ca_name', 'ca_selector_required');
    }
    const ca =
      dto.ca_id !== undefined
        ? await this.caService.findAuthorized(actor, dto.ca_id, 'can_create_cert')
        : await this.findByName(actor, dto.ca_name!);
    const csr = await translateX509Error(() => parseCsr(dto.csr), 'csr');
    const base = dto.subject_dn ? translateX509Error(() => parseDistinguishedName(dto.subject_dn!), 'subject_dn') : csr.subjectName;
    const subject = dto.common_name ? translateX509Error(() => withCommonName(base, dto.common_name!), 'common_name') : base;
    const commonName = commonNameOf(subject);
    if (!commonName) throw new InvalidRequestError('No common name in CSR or request', 'common_name_required');
    const validDays = dto.valid_days ?? this.config.certDays;
    const sans = resolvedSans(dto.certificate_type, commonName, {
      dns: dto.san_dns_names ?? [...csr.sans.dns],
      ip: dto.san_ip_addresses ?? [...csr.sans.ip],
      email: dto.san_email_addresses ?? [...csr.sans.email],
    });
    const { deviceId } = await this.issuancePolicy.assertAllowed(actor, {
      certificateType: dto.certificate_type,
      caId: ca.id,
      commonName,
      ...sans,
      validDays,
    });
    await this.assertIssuable(ca, dto.certificate_type, validDays);
    return this.sign(actor, baseUrl, {
      ca,
      subject,
      commonName,
      type: dto.certificate_type,
      pathLength: null,
      validDays,
      sans,
      origin: 'csr',
      publicKey: csr.publicKey,
      ...keyDescription(csr.keyAlgorithm),
      storedPrivateKey: null,
      renewedFromId: null,
      deviceId,
      auditDetail: `Signed CSR for '${commonName}'`,
    });
  }

  /**
   * Issues a successor with the same subject, SANs, CA, type and validity. A CSR certificate needs
   * a new CSR (only its key is used); a server-key certificate gets a fresh key.
   */
  async renew(actor: Principal, id: number, dto: RenewCertificateDto, baseUrl: string): Promise<IssuedLeaf> {
    const old = await this.findAuthorized(actor, id, 'can_create_cert');
    if (old.origin === 'csr' && !dto.csr) {
      throw new RenewalError('csr_required_for_csr_origin_cert', 'This certificate came from a CSR: send a new csr to renew it');
    }
    if (old.origin === 'server_key' && dto.csr) {
      throw new RenewalError('csr_not_allowed_for_server_key_cert', 'This certificate has a server-generated key: renew it without a csr');
    }
    const ca = await this.cas.findOneByOrFail({ id: old.issuerId });
    const { deviceId } = await this.issuancePolicy.assertAllowed(actor, {
      certificateType: old.certificateType,
      caId: ca.id,
      commonName: old.commonName,
      dns: old.sanDnsNames,
      ip: old.sanIpAddresses,
      email: old.sanEmailAddresses,
      validDays: old.validDays,
    });
    await this.assertIssuable(ca, old.certificateType, old.validDays);
    const subject = parseDistinguishedName(old.subjectDn);
    const common = {
      ca,
      subject,
      commonName: old.commonName,
      type: old.certificateType,
      pathLength: old.certificateType === 'ca' ? readCertificate(old.certificate).pathLength : null,
      validDays: old.validDays,
      sans: { dns: old.sanDnsNames, ip: old.sanIpAddresses, email: old.sanEmailAddresses },
      renewedFromId: old.id,
      deviceId: deviceId ?? old.deviceId,
      auditDetail: `Renewed certificate '${old.commonName}' from #${old.id}`,
    };
    if (old.origin === 'csr') {
      const csr = await translateX509Error(() => parseCsr(dto.csr!), 'csr');
      const certificate = await this.sign(actor, baseUrl, {
        ...common,
        origin: 'csr',
        publicKey: csr.publicKey,
        ...keyDescription(csr.keyAlgorithm),
        storedPrivateKey: null,
      });
      return { certificate, privateKey: null };
    }
    const keys = await generateKeyPair(keySpecFor(old.keyType, (old.keySize ?? this.config.certKeySize) as never));
    const privateKeyPem = await exportPrivateKeyPem(keys.privateKey);
    const certificate = await this.sign(actor, baseUrl, {
      ...common,
      origin: 'server_key',
      publicKey: keys.publicKey,
      keyType: old.keyType,
      keySize: old.keySize,
      storedPrivateKey: old.privateKey === null ? null : this.vault.encrypt(privateKeyPem),
    });
    return { certificate, privateKey: privateKeyPem };
  }

  /** Revokes once: of concurrent revocations exactly one succeeds, the rest get 409. */
  async revoke(actor: Principal, id: number, dto: RevokeCertificateDto | undefined): Promise<CertificateEntity> {
    const certificate = await this.findAuthorized(actor, id, 'can_revoke_cert');
    return this.revokeEntitled(certificate, actor, dto?.reason ?? null);
  }

  /**
   * Revokes a certificate whose revocation the caller has already entitled by other means than the capability (the
   * ACME account that ordered it, or a request signed by the certificate's own key). `actor` is null when no
   * principal stands behind the request; `why` ends the audit detail.
   */
  async revokeEntitled(
    certificate: CertificateEntity,
    actor: Principal | null,
    reason: string | null,
    why?: string,
  ): Promise<CertificateEntity> {
    const id = certificate.id;
    const revoked = await this.dataSource.transaction(async (manager) => {
      if (!(await this.revokeIn(manager, certificate, reason, { actor, why }))) throw new AlreadyRevokedError(id);
      return manager.findOneByOrFail(CertificateEntity, { id });
    });
    this.ocsp.forgetCaStates();
    // The CRL is brought up to date now so it lists the revocation at once (concurrent revocations
    // share a rebuild); if that fails, the next fetch rebuilds it.
    await this.crls.refresh(revoked.issuerId).catch((error: unknown) => {
      this.logger.error({ err: error, ca_id: revoked.issuerId }, 'CRL rebuild after revocation failed');
    });
    return revoked;
  }

  /**
   * Revokes every valid certificate issued to an inventory device (reason cessationOfOperation), in
   * the transaction that decommissions or deletes the device, each as `revoke` does (the CA's
   * revocation count, an audit entry naming the platform user). The CRL and OCSP answers follow the
   * count: the CRL is rebuilt on its next fetch, OCSP answers within a second. Returns how many.
   */
  async revokeIssuedToDevice(manager: EntityManager, deviceId: number, username: string): Promise<number> {
    const issued = await manager.find(CertificateEntity, { where: { deviceId, status: 'valid' }, order: { id: 'ASC' } });
    let count = 0;
    for (const certificate of issued) {
      if (await this.revokeIn(manager, certificate, DEVICE_DECOMMISSIONED, { username, why: `device #${deviceId} decommissioned` }))
        count++;
    }
    if (count > 0) this.ocsp.forgetCaStates();
    return count;
  }

  /** Marks a valid certificate revoked, counts it on its CA, audits it; false when it was no longer valid. */
  private async revokeIn(
    manager: EntityManager,
    certificate: CertificateEntity,
    reason: string | null,
    by: { actor: Principal | null; why?: string } | { username: string; why: string },
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(CertificateEntity)
      .set({ status: 'revoked', revokedAt: () => 'now()', revocationReason: reason })
      .where("id = :id AND status = 'valid'", { id: certificate.id })
      .execute();
    if (!result.affected) return false;
    await manager.increment(CertificateAuthorityEntity, { id: certificate.issuerId }, 'revocationCount', 1);
    await this.audit.record(manager, {
      action: 'cert_revoke',
      actor: 'actor' in by ? by.actor : null,
      ...('username' in by ? { username: by.username } : {}),
      organizationId: certificate.organizationId,
      resourceType: 'certificate',
      resourceId: certificate.id,
      detail:
        `Revoked certificate '${certificate.commonName}'${reason === null ? '' : ` (reason: ${JSON.stringify(reason)})`}` +
        (by.why === undefined ? '' : `: ${by.why}`),
    });
    this.metrics.certificatesRevoked.inc({ type: certificate.certificateType, reason: reasonLabel(reason) });
    return true;
  }

  async list(actor: Principal, caId: number | undefined, skip: number, limit: number): Promise<CertificateEntity[]> {
    const scope = this.policy.listScope(actor);
    if ('none' in scope) return [];
    const where = {
      ...('organizationId' in scope ? { organizationId: scope.organizationId } : {}),
      ...(caId !== undefined ? { issuerId: caId } : {}),
    };
    return this.certificates.find({ where, order: { id: 'ASC' }, skip, take: limit });
  }

  async findAuthorized(actor: Principal, id: number, action: Parameters<AccessPolicy['decide']>[1]): Promise<CertificateEntity> {
    const certificate = await this.certificates.findOne({ where: { id } });
    if (!certificate) throw certificateNotFound(id);
    this.policy.assert(actor, action, certificate, () => certificateNotFound(id));
    return certificate;
  }

  async bySerial(actor: Principal, serial: string): Promise<CertificateEntity> {
    const normalized = translateX509Error(() => normalizeSerialNumber(serial.replace(/:/g, '')), 'serial');
    const matches = await this.certificates.find({ where: { serialNumber: normalized }, order: { id: 'ASC' } });
    const visible = matches.find((certificate) => this.policy.canSee(actor, certificate));
    if (!visible) throw certificateWithSerialNotFound(normalized);
    return visible;
  }

  async renewedToIds(ids: number[]): Promise<Map<number, number[]>> {
    const successors = ids.length
      ? await this.certificates.find({ select: { id: true, renewedFromId: true }, where: { renewedFromId: In(ids) }, order: { id: 'ASC' } })
      : [];
    const map = new Map<number, number[]>(ids.map((id) => [id, []]));
    for (const successor of successors) map.get(successor.renewedFromId!)?.push(successor.id);
    return map;
  }

  /** Returns the decrypted key (null when none is kept) and audits the retrieval. */
  async withPrivateKey(
    actor: Principal,
    id: number,
    how: 'api' | 'export',
  ): Promise<{ certificate: CertificateEntity; privateKey: string | null }> {
    const certificate = await this.findAuthorized(actor, id, 'can_export_private_key');
    const privateKey = certificate.privateKey === null ? null : this.vault.decrypt(certificate.privateKey);
    if (privateKey !== null) {
      await this.dataSource.transaction((manager) =>
        this.audit.record(manager, {
          action: 'cert_export_private_key',
          actor,
          organizationId: certificate.organizationId,
          resourceType: 'certificate',
          resourceId: id,
          detail: `${how === 'export' ? 'Exported' : 'Retrieved'} private key of certificate '${certificate.commonName}'`,
        }),
      );
    }
    return { certificate, privateKey };
  }

  private async findByName(actor: Principal, name: string): Promise<CertificateAuthorityEntity> {
    const scope = this.policy.listScope(actor);
    if ('none' in scope) throw caNamedNotFound(name);
    const query = this.cas.createQueryBuilder('ca').where('lower(ca.name) = lower(:name)', { name });
    if ('organizationId' in scope) query.andWhere('ca.organization_id = :org', { org: scope.organizationId });
    const found = await query.orderBy('ca.id', 'ASC').getMany();
    if (found.length === 0) throw caNamedNotFound(name);
    if (found.length > 1) {
      throw new InvalidRequestError(`ca_name '${name}' matches ${found.length} CAs; use ca_id`, 'ca_name_ambiguous');
    }
    this.policy.assert(actor, 'can_create_cert', found[0], () => caNamedNotFound(name));
    return found[0];
  }

  /**
   * For a `ca` certificate: the caller also needs can_create_ca (it amounts to a sub-CA) and the
   * path length must fit under the issuer's. Other types take no path length.
   */
  private caCertificatePathLength(actor: Principal, ca: CertificateAuthorityEntity, dto: IssueCertificateDto): number | null {
    if (dto.certificate_type !== 'ca') {
      if (dto.path_length !== undefined) {
        throw new InvalidRequestError('path_length applies to certificate_type ca only', 'path_length_not_applicable');
      }
      return null;
    }
    if (!this.policy.hasCapability(actor, 'can_create_ca')) throw new ForbiddenError();
    return childPathLength(ca, dto.path_length ?? null);
  }

  private async assertIssuable(ca: CertificateAuthorityEntity, type: CertificateType, validDays: number): Promise<void> {
    if (type === 'ca') {
      assertWithinValidity(ca, validDays, this.config.issuerExpiryBehavior);
      return;
    }
    if (ca.allowLeafCerts === false) throw new LeafIssuanceNotAllowedError(ca.id, 'allow_leaf_certs is false');
    if (ca.allowLeafCerts === null && (await this.hasSubCas(ca.id))) {
      throw new LeafIssuanceNotAllowedError(ca.id, 'it has sub-CAs; set allow_leaf_certs to true to allow both');
    }
    assertWithinValidity(ca, validDays, this.config.issuerExpiryBehavior);
  }

  private async hasSubCas(caId: number): Promise<boolean> {
    const [row] = await preparedQuery<{ found: boolean }>(
      this.dataSource.manager,
      'SELECT EXISTS (SELECT 1 FROM certificate_authorities WHERE parent_ca_id = $1) AS found',
      [caId],
    );
    return row.found;
  }

  private async sign(actor: Principal, baseUrl: string, request: LeafRequest): Promise<CertificateEntity> {
    const signer = await this.caService.signer(request.ca);
    const issued = await translateX509Error(
      () =>
        request.type === 'ca'
          ? buildCaCertificate({
              subject: request.subject,
              publicKey: request.publicKey,
              signingKey: signer.privateKey,
              issuer: request.ca.certificate,
              validDays: request.validDays,
              pathLength: request.pathLength,
              ...issuerUrls(request.ca, baseUrl),
            })
          : buildLeafCertificate({
              subject: request.subject,
              publicKey: request.publicKey,
              issuerCertificate: request.ca.certificate,
              issuerPrivateKey: signer.privateKey,
              validDays: request.validDays,
              profile: request.type,
              sans: request.sans,
              ...issuerUrls(request.ca, baseUrl),
            }),
      (error) => sanField(error, request.sans),
    );
    const values = {
      issuerId: request.ca.id,
      commonName: request.commonName,
      subjectDn: formatDistinguishedName(request.subject),
      certificateType: request.type,
      origin: request.origin,
      keyType: request.keyType,
      keySize: request.keySize,
      validDays: request.validDays,
      status: 'valid' as const,
      sanDnsNames: [...issued.sans.dns],
      sanIpAddresses: [...issued.sans.ip],
      sanEmailAddresses: [...issued.sans.email],
      certificate: issued.pem,
      privateKey: request.storedPrivateKey,
      serialNumber: issued.serialNumber,
      notBefore: issued.notBefore,
      notAfter: issued.notAfter,
      organizationId: request.ca.organizationId,
      createdByUserId: actor.kind === 'user' ? actor.id : null,
      createdByServiceAccountId: actor.kind === 'service_account' ? actor.id : null,
      renewedFromId: request.renewedFromId,
      deviceId: request.deviceId,
    };
    // The certificate and its audit row are written by one statement: one round trip, atomic.
    const inserted = await this.audit.insertAudited(
      this.dataSource.manager,
      entityInsert(this.dataSource.manager, CertificateEntity, values, ['id', 'organization_id', 'created_at', 'updated_at']),
      { action: 'cert_create', actor, resourceType: 'certificate', detail: request.auditDetail },
    );
    this.metrics.certificatesIssued.inc({ type: request.type, origin: request.origin });
    return Object.assign(new CertificateEntity(), values, {
      id: inserted.id as number,
      revokedAt: null,
      revocationReason: null,
      createdAt: inserted.created_at as Date,
      updatedAt: inserted.updated_at as Date,
    });
  }
}

function requestedSans(dto: { san_dns_names?: string[]; san_ip_addresses?: string[]; san_email_addresses?: string[] }): RequestedSans {
  return { dns: dto.san_dns_names ?? [], ip: dto.san_ip_addresses ?? [], email: dto.san_email_addresses ?? [] };
}

/**
 * The SANs the certificate will carry: the requested ones after the profile rules (the CN added as
 * DNS, IP or email SAN where none of that kind was asked for). Policies are checked against these,
 * so a SAN derived from the CN cannot slip past them.
 */
function resolvedSans(type: CertificateType, commonName: string, requested: RequestedSans): RequestedSans {
  if (type === 'ca') {
    const kind = (['dns', 'ip', 'email'] as const).find((key) => requested[key].length > 0);
    if (kind) throw new InvalidRequestError(`${SAN_FIELDS[kind]}: a CA certificate carries no SANs`, 'ca_certificate_sans');
    return { dns: [], ip: [], email: [] };
  }
  const sans = translateX509Error(
    () => resolveSubjectAltNames(type, commonName, requested),
    (error) => sanField(error, requested),
  );
  return { dns: [...sans.dns], ip: [...sans.ip], email: [...sans.email] };
}

function keyDescription(algorithm: { type: string; size?: number; curve?: string }): { keyType: KeyType; keySize: number | null } {
  if (algorithm.type === 'rsa') return { keyType: 'rsa', keySize: algorithm.size ?? null };
  if (algorithm.type === 'ec') return { keyType: algorithm.curve === 'P-384' ? 'ecdsa-p384' : 'ecdsa-p256', keySize: null };
  return { keyType: 'ed25519', keySize: null };
}

/** Names the SAN field an engine error is about, from the value it quotes. */
function sanField(error: X509EngineError, sans: RequestedSans): string {
  const value = (error as X509EngineError & { value?: string }).value?.toLowerCase();
  for (const kind of ['dns', 'ip', 'email'] as const) {
    if (value !== undefined && sans[kind].some((entry) => entry.toLowerCase() === value)) return SAN_FIELDS[kind];
  }
  return error.code === 'invalid_distinguished_name' ? 'subject_dn' : 'common_name';
}

/** The RFC 5280 reason a stored free-text reason maps to (as on the CRL), `none` without one: a bounded label. */
function reasonLabel(reason: string | null): string {
  const code = revocationReasonCode(reason);
  if (code === null) return 'none';
  return Object.entries(REVOCATION_REASON_CODES).find(([, value]) => value === code)?.[0] ?? 'unspecified';
}
