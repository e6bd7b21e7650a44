import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes, type KeyObject, X509Certificate } from 'node:crypto';
import { isDnsName, normalizeSerialNumber, parseCsr, type ParsedCsr, readCertificate } from '@libs/x509';
import { DataSource, In, Not, Repository } from 'typeorm';
import { violatedUniqueConstraint } from '../../common/database/unique-violation';
import { capabilitiesOf } from '../../common/auth/capability-columns';
import type { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../common/config/app-config';
import { DomainError } from '../../common/errors/domain-error';
import { AuditService } from '../audit/audit.service';
import { CaService } from '../pki/ca.service';
import type { CertificateAuthorityEntity } from '../pki/certificate-authority.entity';
import { CertificateEntity } from '../pki/certificate.entity';
import { CertificateService } from '../pki/certificate.service';
import { PrivateKeyVault } from '../pki/private-key-vault';
import { PublicPkiService } from '../pki/public-pki.service';
import { IssuancePolicyEnforcer, PolicyViolationError } from '../service-accounts/issuance-policy.enforcer';
import { ServiceAccountEntity } from '../service-accounts/service-account.entity';
import {
  AcmeAccountEntity,
  AcmeAuthorizationEntity,
  AcmeChallengeEntity,
  AcmeEabKeyEntity,
  type AcmeIdentifier,
  AcmeOrderEntity,
} from './acme.entities';
import { AcmeDns01Validator } from './acme-dns01.validator';
import { AcmeHttp01Validator } from './acme-http01.validator';
import {
  base64UrlDecode,
  importJwk,
  jwkThumbprint,
  parseJws,
  parsePayload,
  publicJwk,
  readExternalAccountBinding,
  readKeyChange,
  readProtectedHeader,
  verifySignature,
  type ProtectedHeader,
} from './acme-jws';
import { AcmeNonces } from './acme-nonces';
import { AcmeProblem } from './acme-problem';
import { AcmeUrls } from './acme-urls';

const ORDER_LIFETIME_MS = 7 * 24 * 3600 * 1000;
/** How long a client should wait before asking for a certificate's renewal information again (RFC 9773 §4.3). */
const RENEWAL_INFO_RETRY_AFTER_SECONDS = 6 * 3600;
/** Orders per page of an account's orders list. */
export const ORDERS_PAGE_SIZE = 50;
/** At most this many identifiers in one order (one authorization and challenge each). */
const MAX_IDENTIFIERS = 100;
/** RFC 5280's upper bound on a CN: longer names go in the SANs only. */
const MAX_COMMON_NAME_LENGTH = 64;

/** One CA's directory, as a request addresses it. */
export interface AcmeDirectoryContext {
  ca: CertificateAuthorityEntity;
  urls: AcmeUrls;
  /** Base of the AIA/CRL URLs written into certificates (as for the REST API). */
  baseUrl: string;
}

/** A request whose JWS verified: for kid requests, the account that signed it. */
export interface AcmeRequest {
  header: ProtectedHeader;
  payloadText: string;
  key: KeyObject;
  account?: AcmeAccountEntity;
}

/** What a handler answers: status, body, and the Location / Link headers it needs. */
export interface AcmeReply {
  status: number;
  body: unknown;
  location?: string;
  links?: string[];
  contentType?: string;
  /** Sent as Retry-After (renewalInfo). */
  retryAfterSeconds?: number;
}

/**
 * The ACME server (RFC 8555) of every CA: accounts bound to service accounts, orders, http-01 authorizations and
 * finalization through the REST API's issuance path (CertificateService.signCsr: issuance policy, capabilities,
 * audit log).
 */
@Injectable()
export class AcmeService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(AcmeAccountEntity) private readonly accounts: Repository<AcmeAccountEntity>,
    @InjectRepository(AcmeOrderEntity) private readonly orders: Repository<AcmeOrderEntity>,
    @InjectRepository(AcmeAuthorizationEntity) private readonly authorizations: Repository<AcmeAuthorizationEntity>,
    @InjectRepository(AcmeChallengeEntity) private readonly challenges: Repository<AcmeChallengeEntity>,
    @InjectRepository(ServiceAccountEntity) private readonly serviceAccounts: Repository<ServiceAccountEntity>,
    private readonly publicPki: PublicPkiService,
    private readonly caService: CaService,
    private readonly certificates: CertificateService,
    private readonly issuancePolicy: IssuancePolicyEnforcer,
    private readonly vault: PrivateKeyVault,
    private readonly audit: AuditService,
    private readonly nonces: AcmeNonces,
    private readonly http01: AcmeHttp01Validator,
    private readonly dns01: AcmeDns01Validator,
    private readonly config: AppConfig,
  ) {}

  /** The CA a directory slug names; unknown slugs are 404 (malformed). */
  async context(slug: string, baseUrl: string): Promise<AcmeDirectoryContext> {
    let ca: CertificateAuthorityEntity;
    try {
      ca = await this.publicPki.ca(slug);
    } catch {
      throw new AcmeProblem('malformed', `No ACME directory for CA ${JSON.stringify(slug)}`, 404);
    }
    return { ca, urls: new AcmeUrls(baseUrl, slug), baseUrl };
  }

  directory(context: AcmeDirectoryContext): Record<string, unknown> {
    const { urls } = context;
    return {
      newNonce: urls.newNonce,
      newAccount: urls.newAccount,
      newOrder: urls.newOrder,
      revokeCert: urls.revokeCert,
      keyChange: urls.keyChange,
      renewalInfo: urls.renewalInfo,
      meta: { externalAccountRequired: this.config.acme.eabRequired },
    };
  }

  issueNonce(): Promise<string> {
    return this.nonces.issue();
  }

  /**
   * Checks a POST per RFC 8555 §6.2–6.5: flattened JWS, supported alg, url equal to the request's URL, a fresh
   * nonce, jwk (newAccount) or kid of a valid account of this directory (everything else), and the signature.
   */
  async verify(
    context: AcmeDirectoryContext,
    body: unknown,
    requestUrl: string,
    keyBy: 'jwk' | 'kid' | 'jwk-or-kid',
  ): Promise<AcmeRequest> {
    const jws = parseJws(body);
    const header = readProtectedHeader(jws);
    if (header.url !== requestUrl) {
      throw new AcmeProblem('unauthorized', `The protected header url ${JSON.stringify(header.url)} is not this request's URL`);
    }
    if (!(await this.nonces.consume(header.nonce))) throw new AcmeProblem('badNonce', 'The nonce is unknown, expired or already used');
    let key: KeyObject;
    let account: AcmeAccountEntity | undefined;
    if (keyBy === 'jwk' || (keyBy === 'jwk-or-kid' && header.jwk !== undefined)) {
      if (header.jwk === undefined) throw new AcmeProblem('malformed', 'This request must carry the account key as jwk, not kid');
      key = importJwk(header.jwk);
    } else {
      if (header.kid === undefined) throw new AcmeProblem('malformed', 'This request must name its account by kid, not carry a jwk');
      const id = context.urls.accountIdOf(header.kid);
      account = id === undefined ? undefined : ((await this.accounts.findOne({ where: { id, caId: context.ca.id } })) ?? undefined);
      if (account === undefined) throw new AcmeProblem('accountDoesNotExist', 'The kid names no account of this directory');
      if (account.status !== 'valid') throw new AcmeProblem('unauthorized', `The account is ${account.status}`);
      key = importJwk(account.jwk);
    }
    verifySignature(jws, header.alg, key);
    return { header, payloadText: base64UrlDecode(jws.payload, 'The payload').toString('utf8'), key, account };
  }

  // ---- accounts -------------------------------------------------------------------------------------------------

  async newAccount(context: AcmeDirectoryContext, request: AcmeRequest): Promise<AcmeReply> {
    const payload = parsePayload(request.payloadText);
    const thumbprint = jwkThumbprint(request.key);
    const existing = await this.accounts.findOne({ where: { caId: context.ca.id, keyThumbprint: thumbprint } });
    if (existing) return { status: 200, body: this.accountBody(context, existing), location: context.urls.account(existing.id) };
    if (payload.onlyReturnExisting === true) throw new AcmeProblem('accountDoesNotExist', 'No account exists with this key');
    const contact = readContact(payload.contact);
    const binding =
      payload.externalAccountBinding === undefined
        ? undefined
        : readExternalAccountBinding(payload.externalAccountBinding, context.urls.newAccount, request.key);
    if (binding === undefined && this.config.acme.eabRequired) {
      throw new AcmeProblem('externalAccountRequired', 'This server requires an externalAccountBinding (a key issued through the API)');
    }
    const account = await this.dataSource.transaction(async (manager) => {
      let serviceAccountId = this.config.acme.defaultServiceAccountId ?? null;
      if (binding !== undefined) {
        const key = await manager.findOne(AcmeEabKeyEntity, { where: { keyId: binding.keyId }, lock: { mode: 'pessimistic_write' } });
        if (!key || key.usedAt !== null || !binding.verify(Buffer.from(this.vault.decrypt(key.hmacKey), 'base64url'))) {
          throw new AcmeProblem('unauthorized', 'The externalAccountBinding is not valid (unknown or used key id, or wrong MAC)');
        }
        await manager.update(AcmeEabKeyEntity, { id: key.id }, { usedAt: () => 'now()' });
        serviceAccountId = key.serviceAccountId;
      }
      const serviceAccount =
        serviceAccountId === null ? null : await manager.findOne(ServiceAccountEntity, { where: { id: serviceAccountId } });
      if (!serviceAccount) throw new AcmeProblem('serverInternal', 'The service account ACME accounts issue as does not exist');
      const saved = await manager.save(
        manager.create(AcmeAccountEntity, {
          caId: context.ca.id,
          keyThumbprint: thumbprint,
          jwk: publicJwk(request.key),
          contact,
          status: 'valid',
          serviceAccountId: serviceAccount.id,
          eabKeyId: binding?.keyId ?? null,
        }),
      );
      await this.audit.record(manager, {
        action: 'acme_account_create',
        actor: principalOf(serviceAccount),
        organizationId: serviceAccount.organizationId,
        resourceType: 'acme_account',
        resourceId: saved.id,
        detail: `Created ACME account #${saved.id} on CA '${context.ca.name}'${binding ? ` with EAB key ${binding.keyId}` : ''}`,
      });
      return saved;
    });
    return { status: 201, body: this.accountBody(context, account), location: context.urls.account(account.id) };
  }

  /** POST to the account URL: POST-as-GET, a contact update, or deactivation (§7.3.2, §7.3.6). */
  async updateAccount(context: AcmeDirectoryContext, request: AcmeRequest, id: number): Promise<AcmeReply> {
    const account = this.ownAccount(request, id);
    if (request.payloadText !== '') {
      const payload = parsePayload(request.payloadText);
      if (payload.contact !== undefined) account.contact = readContact(payload.contact);
      if (payload.status !== undefined && payload.status !== 'deactivated') {
        throw new AcmeProblem('malformed', 'An account status may only be set to "deactivated"');
      }
      const deactivate = payload.status === 'deactivated';
      await this.dataSource.transaction(async (manager) => {
        await manager.update(
          AcmeAccountEntity,
          { id: account.id },
          { contact: account.contact, ...(deactivate ? { status: 'deactivated' } : {}) },
        );
        if (!deactivate) return;
        account.status = 'deactivated';
        // §7.3.6: the account's pending orders end with it.
        await manager.update(AcmeOrderEntity, { accountId: account.id, status: In(['pending', 'ready']) }, { status: 'invalid' });
        const serviceAccount = await manager.findOne(ServiceAccountEntity, { where: { id: account.serviceAccountId ?? 0 } });
        await this.audit.record(manager, {
          action: 'acme_account_deactivate',
          actor: serviceAccount ? principalOf(serviceAccount) : null,
          organizationId: serviceAccount?.organizationId ?? null,
          resourceType: 'acme_account',
          resourceId: account.id,
          detail: `Deactivated ACME account #${account.id} on CA '${context.ca.name}'`,
        });
      });
    }
    return { status: 200, body: this.accountBody(context, account), location: context.urls.account(account.id) };
  }

  /**
   * keyChange (§7.3.5): the outer JWS is signed by the account's current key (kid); its payload is a JWS signed by
   * the new key (jwk, no nonce) with the same url, naming the account and its current key. The key is swapped only
   * if it is still the one the request was checked against; a new key another account of the directory has is 409
   * with that account's URL.
   */
  async keyChange(context: AcmeDirectoryContext, request: AcmeRequest): Promise<AcmeReply> {
    const account = request.account!;
    const inner = readKeyChange(parsePayload(request.payloadText));
    if (inner.url !== request.header.url) throw new AcmeProblem('malformed', 'The inner JWS url must be the outer JWS url');
    if (inner.account !== request.header.kid) throw new AcmeProblem('malformed', 'The inner payload account must be the outer kid');
    if (inner.oldKey === null || typeof inner.oldKey !== 'object' || Array.isArray(inner.oldKey)) {
      throw new AcmeProblem('malformed', 'The inner payload has no oldKey');
    }
    if (jwkThumbprint(importJwk(inner.oldKey as Record<string, unknown>)) !== account.keyThumbprint) {
      throw new AcmeProblem('malformed', "oldKey is not the account's current key");
    }
    const thumbprint = jwkThumbprint(inner.newKey);
    const conflict = () => this.accounts.findOne({ where: { caId: context.ca.id, keyThumbprint: thumbprint } });
    const holder = await conflict();
    if (holder) throw new AcmeProblem('malformed', 'Another account has this key', 409, undefined, context.urls.account(holder.id));
    try {
      const swapped = await this.dataSource.transaction(async (manager) => {
        const result = await manager.update(
          AcmeAccountEntity,
          { id: account.id, keyThumbprint: account.keyThumbprint, status: 'valid' },
          { keyThumbprint: thumbprint, jwk: publicJwk(inner.newKey) },
        );
        if (!result.affected) return false;
        const serviceAccount = await manager.findOne(ServiceAccountEntity, { where: { id: account.serviceAccountId ?? 0 } });
        await this.audit.record(manager, {
          action: 'acme_account_key_change',
          actor: serviceAccount ? principalOf(serviceAccount) : null,
          organizationId: serviceAccount?.organizationId ?? null,
          resourceType: 'acme_account',
          resourceId: account.id,
          detail: `Rolled over the key of ACME account #${account.id} on CA '${context.ca.name}' to ${thumbprint}`,
        });
        return true;
      });
      if (!swapped) throw new AcmeProblem('unauthorized', 'The account key or status changed while this request was processed');
    } catch (error) {
      if (violatedUniqueConstraint(error) !== 'acme_accounts_ca_id_key_thumbprint_key') throw error;
      const winner = await conflict();
      throw new AcmeProblem(
        'malformed',
        'Another account has this key',
        409,
        undefined,
        winner ? context.urls.account(winner.id) : undefined,
      );
    }
    Object.assign(account, { keyThumbprint: thumbprint, jwk: publicJwk(inner.newKey) });
    return { status: 200, body: this.accountBody(context, account), location: context.urls.account(account.id) };
  }

  /**
   * The account's orders (§7.1.2.1), oldest first, a page at a time with Link rel="next": every order but the
   * invalid ones (and those that expired before they were finalized), which the RFC says to leave out.
   */
  async accountOrders(context: AcmeDirectoryContext, request: AcmeRequest, id: number, after: number): Promise<AcmeReply> {
    assertPostAsGet(request);
    const account = this.ownAccount(request, id);
    const page = await this.orders
      .createQueryBuilder('o')
      .select('o.id')
      .where('o.account_id = :accountId AND o.id > :after', { accountId: account.id, after })
      .andWhere("(o.status = 'valid' OR (o.status <> 'invalid' AND o.expires > now()))")
      .orderBy('o.id', 'ASC')
      .limit(ORDERS_PAGE_SIZE + 1)
      .getMany();
    const more = page.length > ORDERS_PAGE_SIZE;
    const shown = page.slice(0, ORDERS_PAGE_SIZE);
    return {
      status: 200,
      body: { orders: shown.map((order) => context.urls.order(order.id)) },
      links: more ? [`<${context.urls.accountOrders(account.id, shown[shown.length - 1].id)}>;rel="next"`] : [],
    };
  }

  private accountBody(context: AcmeDirectoryContext, account: AcmeAccountEntity): Record<string, unknown> {
    return { status: account.status, contact: account.contact, orders: context.urls.accountOrders(account.id) };
  }

  private ownAccount(request: AcmeRequest, id: number): AcmeAccountEntity {
    if (request.account === undefined || request.account.id !== id) {
      throw new AcmeProblem('unauthorized', 'The request is not signed by this account');
    }
    return request.account;
  }

  // ---- orders ---------------------------------------------------------------------------------------------------

  async newOrder(context: AcmeDirectoryContext, request: AcmeRequest): Promise<AcmeReply> {
    const account = request.account!;
    const payload = parsePayload(request.payloadText);
    if (payload.notBefore !== undefined || payload.notAfter !== undefined) {
      throw new AcmeProblem('malformed', "notBefore and notAfter are not supported: the validity is the issuance policy's");
    }
    const identifiers = readIdentifiers(payload.identifiers);
    const replaced = payload.replaces === undefined ? undefined : await this.replacedCertificate(context, account, payload.replaces);
    const principal = await this.principalFor(account);
    await this.asAcmeProblem(() =>
      this.issuancePolicy.assertAllowed(principal, {
        certificateType: 'server',
        caId: context.ca.id,
        commonName: identifiers[0].value,
        dns: identifiers.map(({ value }) => value),
        ip: [],
        email: [],
        validDays: this.config.certDays,
      }),
    );
    const expires = new Date(Date.now() + ORDER_LIFETIME_MS);
    const order = await this.dataSource.transaction(async (manager) => {
      const saved = await manager
        .save(
          manager.create(AcmeOrderEntity, {
            accountId: account.id,
            status: 'pending',
            identifiers,
            expires,
            certificateId: null,
            error: null,
            replaces: replaced?.certId ?? null,
            replacesCertificateId: replaced?.certificate.id ?? null,
          }),
        )
        .catch((error: unknown) => {
          if (violatedUniqueConstraint(error) === 'acme_orders_replaces_certificate_id_key') throw alreadyReplaced();
          throw error;
        });
      for (const identifier of identifiers) {
        const authorization = await manager.save(
          manager.create(AcmeAuthorizationEntity, { orderId: saved.id, identifierValue: identifier.value, status: 'pending', expires }),
        );
        // A wildcard name can only be proven by its DNS zone (§7.1.3): dns-01 alone.
        const types = isWildcard(identifier.value) ? (['dns-01'] as const) : (['http-01', 'dns-01'] as const);
        for (const type of types) {
          await manager.save(
            manager.create(AcmeChallengeEntity, {
              authorizationId: authorization.id,
              type,
              token: randomBytes(32).toString('base64url'),
              status: 'pending',
              validatedAt: null,
              error: null,
            }),
          );
        }
      }
      return saved;
    });
    return { status: 201, body: await this.orderBody(context, order), location: context.urls.order(order.id) };
  }

  async getOrder(context: AcmeDirectoryContext, request: AcmeRequest, id: number): Promise<AcmeReply> {
    assertPostAsGet(request);
    const order = await this.ownOrder(request, id);
    return { status: 200, body: await this.orderBody(context, order), location: context.urls.order(order.id) };
  }

  /**
   * Finalize (§7.4): the order must be ready; the CSR must ask for exactly the order's names (an empty subject, as
   * certbot sends, is fine: the CN becomes the first name). Issuance goes through CertificateService.signCsr as the
   * account's service account, so its issuance policy, capabilities and the audit log apply.
   */
  async finalize(context: AcmeDirectoryContext, request: AcmeRequest, id: number): Promise<AcmeReply> {
    const order = await this.ownOrder(request, id);
    const payload = parsePayload(request.payloadText);
    if (order.status !== 'ready') throw new AcmeProblem('orderNotReady', `The order is ${order.status}, not ready`);
    if (typeof payload.csr !== 'string') throw new AcmeProblem('malformed', 'The payload has no csr');
    const der = base64UrlDecode(payload.csr, 'csr');
    const pem = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE REQUEST-----\n`;
    let csr: ParsedCsr;
    try {
      csr = await parseCsr(pem);
    } catch (error) {
      throw new AcmeProblem('badCSR', (error as Error).message);
    }
    const names = order.identifiers.map(({ value }) => value);
    assertCsrMatches(csr, names);
    const claimed = await this.orders.update({ id: order.id, status: 'ready' }, { status: 'processing' });
    if (!claimed.affected) throw new AcmeProblem('orderNotReady', 'The order is being finalized already');
    const principal = await this.principalFor(request.account!);
    const commonName = names.find((name) => name.length <= MAX_COMMON_NAME_LENGTH);
    let certificate: CertificateEntity;
    try {
      certificate = await this.asAcmeProblem(() =>
        this.certificates.signCsr(
          principal,
          {
            csr: pem,
            ca_id: context.ca.id,
            certificate_type: 'server',
            common_name: commonName,
            san_dns_names: names,
            san_ip_addresses: [],
            san_email_addresses: [],
          },
          context.baseUrl,
        ),
      );
    } catch (error) {
      await this.orders.update({ id: order.id }, { status: 'ready' });
      throw error;
    }
    await this.orders.update({ id: order.id }, { status: 'valid', certificateId: certificate.id });
    Object.assign(order, { status: 'valid', certificateId: certificate.id });
    return { status: 200, body: await this.orderBody(context, order), location: context.urls.order(order.id) };
  }

  /** The certificate and its issuers, leaf first (§7.4.2). */
  async certificate(request: AcmeRequest, orderId: number): Promise<AcmeReply> {
    assertPostAsGet(request);
    const order = await this.ownOrder(request, orderId);
    if (order.certificateId === null) throw new AcmeProblem('malformed', 'No certificate for this order', 404);
    const certificate = await this.dataSource.manager.findOneByOrFail(CertificateEntity, { id: order.certificateId });
    const issuers = await this.caService.chainOf(certificate.issuerId);
    const chain = [certificate.certificate, ...issuers.map((ca) => ca.certificate)].map((pem) => pem.trim() + '\n').join('');
    return { status: 200, body: Buffer.from(chain), contentType: 'application/pem-certificate-chain' };
  }

  private async ownOrder(request: AcmeRequest, id: number): Promise<AcmeOrderEntity> {
    const order = await this.orders.findOne({ where: { id, accountId: request.account!.id } });
    if (!order) throw new AcmeProblem('malformed', 'No such order for this account', 404);
    if (order.status !== 'valid' && order.status !== 'invalid' && order.expires.getTime() <= Date.now()) {
      await this.orders.update({ id }, { status: 'invalid' });
      order.status = 'invalid';
    }
    return order;
  }

  private async orderBody(context: AcmeDirectoryContext, order: AcmeOrderEntity): Promise<Record<string, unknown>> {
    const authorizations = await this.authorizations.find({ where: { orderId: order.id }, order: { id: 'ASC' } });
    return {
      status: order.status,
      expires: order.expires.toISOString(),
      identifiers: order.identifiers,
      authorizations: authorizations.map(({ id }) => context.urls.authorization(id)),
      finalize: context.urls.finalize(order.id),
      ...(order.certificateId !== null ? { certificate: context.urls.certificate(order.id) } : {}),
      ...(order.error ? { error: order.error } : {}),
      ...(order.replaces !== null ? { replaces: order.replaces } : {}),
    };
  }

  // ---- renewal information (RFC 9773) -----------------------------------------------------------------------------

  /**
   * GET renewalInfo/<certID>: when to renew. A valid certificate's window is the first half of the last third of its
   * validity (notAfter - lifetime/3 to notAfter - lifetime/6); a revoked one's lies in the past (the hour before the
   * revocation), so a client renews at once.
   */
  async renewalInfo(context: AcmeDirectoryContext, certId: string): Promise<AcmeReply> {
    const certificate = await this.certificateOf(context, certId);
    let start: number;
    let end: number;
    if (certificate.status === 'revoked') {
      end = (certificate.revokedAt ?? new Date()).getTime();
      start = end - 3600_000;
    } else {
      const notAfter = certificate.notAfter.getTime();
      const lifetime = notAfter - certificate.notBefore.getTime();
      start = notAfter - Math.floor(lifetime / 3);
      end = notAfter - Math.floor(lifetime / 6);
    }
    return {
      status: 200,
      body: { suggestedWindow: { start: isoSeconds(start), end: isoSeconds(end) } },
      retryAfterSeconds: RENEWAL_INFO_RETRY_AFTER_SECONDS,
    };
  }

  /** The certificate of this CA a certID (RFC 9773 §4.1: base64url AKI keyIdentifier "." base64url serial) names. */
  private async certificateOf(context: AcmeDirectoryContext, certId: string): Promise<CertificateEntity> {
    const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(certId);
    if (!match) throw new AcmeProblem('malformed', 'A certID is base64url(AKI keyIdentifier) "." base64url(serial)');
    const keyIdentifier = Buffer.from(match[1], 'base64url').toString('hex');
    const serialBytes = Buffer.from(match[2], 'base64url');
    if (
      keyIdentifier !== readCertificate(context.ca.certificate).subjectKeyIdentifier ||
      serialBytes.length === 0 ||
      serialBytes.length > 20
    ) {
      throw new AcmeProblem('malformed', 'The certID names no certificate of this CA', 404);
    }
    let serial: string;
    try {
      serial = normalizeSerialNumber(serialBytes.toString('hex'));
    } catch {
      throw new AcmeProblem('malformed', 'The certID names no certificate of this CA', 404);
    }
    const certificate = await this.dataSource.manager.findOne(CertificateEntity, {
      where: { issuerId: context.ca.id, serialNumber: serial },
    });
    if (!certificate) throw new AcmeProblem('malformed', 'The certID names no certificate of this CA', 404);
    return certificate;
  }

  /**
   * newOrder's `replaces` (RFC 9773 §5): a certificate the account ordered, not already replaced by another order that
   * is not invalid (alreadyReplaced; the partial unique index decides between concurrent orders).
   */
  private async replacedCertificate(
    context: AcmeDirectoryContext,
    account: AcmeAccountEntity,
    value: unknown,
  ): Promise<{ certId: string; certificate: CertificateEntity }> {
    if (typeof value !== 'string' || value.length > 128) throw new AcmeProblem('malformed', 'replaces must be a certID string');
    const certificate = await this.certificateOf(context, value);
    const ordered = await this.orders.count({ where: { accountId: account.id, certificateId: certificate.id } });
    if (ordered === 0) throw new AcmeProblem('unauthorized', 'replaces names a certificate this account did not order');
    const replacing = await this.orders.count({ where: { replacesCertificateId: certificate.id, status: Not('invalid') } });
    if (replacing > 0) throw alreadyReplaced();
    return { certId: value, certificate };
  }

  // ---- authorizations and challenges ----------------------------------------------------------------------------

  async getAuthorization(context: AcmeDirectoryContext, request: AcmeRequest, id: number): Promise<AcmeReply> {
    const authorization = await this.ownAuthorization(request, id);
    if (request.payloadText !== '') {
      const payload = parsePayload(request.payloadText);
      if (payload.status !== 'deactivated') throw new AcmeProblem('malformed', 'An authorization status may only be set to "deactivated"');
      authorization.status = 'deactivated';
      await this.authorizations.update({ id }, { status: 'deactivated' });
      await this.orders.update({ id: authorization.orderId, status: In(['pending', 'ready']) }, { status: 'invalid' });
    }
    return { status: 200, body: await this.authorizationBody(context, authorization), location: context.urls.authorization(id) };
  }

  /**
   * POST {} to a challenge asks for validation (§7.5.1); POST-as-GET reads it. The check runs before the answer,
   * so the answer already says valid or invalid.
   */
  async respondToChallenge(context: AcmeDirectoryContext, request: AcmeRequest, id: number): Promise<AcmeReply> {
    const challenge = await this.challenges.findOne({ where: { id } });
    if (!challenge) throw new AcmeProblem('malformed', 'No such challenge', 404);
    const authorization = await this.ownAuthorization(request, challenge.authorizationId);
    if (request.payloadText !== '') {
      parsePayload(request.payloadText);
      if (challenge.status === 'pending' && authorization.status === 'pending') {
        await this.validate(challenge, authorization, request.account!);
      }
    }
    return {
      status: 200,
      body: this.challengeBody(context, challenge),
      links: [`<${context.urls.authorization(authorization.id)}>;rel="up"`],
    };
  }

  private async validate(
    challenge: AcmeChallengeEntity,
    authorization: AcmeAuthorizationEntity,
    account: AcmeAccountEntity,
  ): Promise<void> {
    const claimed = await this.challenges.update({ id: challenge.id, status: 'pending' }, { status: 'processing' });
    if (!claimed.affected) return;
    const keyAuthorization = `${challenge.token}.${account.keyThumbprint}`;
    const domain = baseName(authorization.identifierValue);
    const problem =
      challenge.type === 'dns-01'
        ? await this.dns01.validate(domain, keyAuthorization)
        : await this.http01.validate(domain, challenge.token, keyAuthorization);
    await this.dataSource.transaction(async (manager) => {
      if (problem === undefined) {
        Object.assign(challenge, { status: 'valid', validatedAt: new Date(), error: null });
        authorization.status = 'valid';
      } else {
        Object.assign(challenge, { status: 'invalid', error: problem });
        authorization.status = 'invalid';
      }
      await manager.update(
        AcmeChallengeEntity,
        { id: challenge.id },
        { status: challenge.status, validatedAt: challenge.validatedAt, error: challenge.error },
      );
      await manager.update(AcmeAuthorizationEntity, { id: authorization.id }, { status: authorization.status });
      if (problem !== undefined) {
        await manager.update(AcmeOrderEntity, { id: authorization.orderId, status: 'pending' }, { status: 'invalid', error: problem });
        return;
      }
      const open = await manager.count(AcmeAuthorizationEntity, {
        where: { orderId: authorization.orderId, status: In(['pending', 'invalid', 'deactivated']) },
      });
      if (open === 0) await manager.update(AcmeOrderEntity, { id: authorization.orderId, status: 'pending' }, { status: 'ready' });
    });
  }

  private async ownAuthorization(request: AcmeRequest, id: number): Promise<AcmeAuthorizationEntity> {
    const authorization = await this.authorizations.findOne({ where: { id } });
    const order = authorization
      ? await this.orders.findOne({ where: { id: authorization.orderId, accountId: request.account!.id } })
      : null;
    if (!authorization || !order) throw new AcmeProblem('malformed', 'No such authorization for this account', 404);
    return authorization;
  }

  private async authorizationBody(context: AcmeDirectoryContext, authorization: AcmeAuthorizationEntity): Promise<Record<string, unknown>> {
    const challenges = await this.challenges.find({ where: { authorizationId: authorization.id }, order: { id: 'ASC' } });
    return {
      identifier: { type: 'dns', value: baseName(authorization.identifierValue) },
      status: authorization.status,
      expires: authorization.expires.toISOString(),
      challenges: challenges.map((challenge) => this.challengeBody(context, challenge)),
      ...(isWildcard(authorization.identifierValue) ? { wildcard: true } : {}),
    };
  }

  private challengeBody(context: AcmeDirectoryContext, challenge: AcmeChallengeEntity): Record<string, unknown> {
    return {
      type: challenge.type,
      url: context.urls.challenge(challenge.id),
      token: challenge.token,
      status: challenge.status,
      ...(challenge.validatedAt ? { validated: challenge.validatedAt.toISOString() } : {}),
      ...(challenge.error ? { error: challenge.error } : {}),
    };
  }

  // ---- revocation ------------------------------------------------------------------------------------------------

  /**
   * revokeCert (§7.6): signed with kid by the account whose order issued the certificate, or with jwk by the
   * certificate's own key. The revocation is the REST API's (CRL rebuilt, OCSP answers re-signed, `cert_revoke` in the
   * audit log), entitled by the protocol instead of the `can_revoke_cert` capability.
   */
  async revokeCert(context: AcmeDirectoryContext, request: AcmeRequest): Promise<AcmeReply> {
    const payload = parsePayload(request.payloadText);
    if (typeof payload.certificate !== 'string') throw new AcmeProblem('malformed', 'The payload has no certificate');
    const der = base64UrlDecode(payload.certificate, 'certificate');
    const reason = readRevocationReason(payload.reason);
    let submitted: X509Certificate;
    try {
      submitted = new X509Certificate(der);
    } catch {
      throw new AcmeProblem('malformed', 'certificate is not a DER X.509 certificate');
    }
    const certificate = await this.dataSource.manager.findOne(CertificateEntity, {
      where: { issuerId: context.ca.id, serialNumber: normalizeSerialNumber(submitted.serialNumber) },
    });
    if (!certificate || !new X509Certificate(certificate.certificate).raw.equals(der)) {
      throw new AcmeProblem('malformed', 'This CA did not issue the certificate', 404);
    }
    let actor: Principal | null = null;
    let why: string;
    if (request.account !== undefined) {
      const ordered = await this.orders.count({ where: { accountId: request.account.id, certificateId: certificate.id } });
      if (ordered === 0) throw new AcmeProblem('unauthorized', 'The account did not order this certificate');
      actor = await this.principalFor(request.account);
      why = `ACME revokeCert by account #${request.account.id}`;
    } else {
      const certificateKey = submitted.publicKey.export({ type: 'spki', format: 'der' });
      if (!request.key.export({ type: 'spki', format: 'der' }).equals(certificateKey)) {
        throw new AcmeProblem('unauthorized', "The jwk is not the certificate's public key");
      }
      why = "ACME revokeCert signed by the certificate's key";
    }
    if (certificate.status === 'revoked') throw new AcmeProblem('alreadyRevoked', 'The certificate is already revoked');
    try {
      await this.certificates.revokeEntitled(certificate, actor, reason, why);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'certificate_already_revoked') {
        throw new AcmeProblem('alreadyRevoked', 'The certificate is already revoked');
      }
      throw error;
    }
    return { status: 200, body: undefined };
  }

  // ---- issuing principal ----------------------------------------------------------------------------------------

  /** The service account the ACME account issues as, as a principal (refused when disabled or gone). */
  private async principalFor(account: AcmeAccountEntity): Promise<Principal> {
    const serviceAccount =
      account.serviceAccountId === null ? null : await this.serviceAccounts.findOne({ where: { id: account.serviceAccountId } });
    if (!serviceAccount || serviceAccount.disabledAt !== null) {
      throw new AcmeProblem('unauthorized', 'The service account this ACME account issues as is disabled or deleted');
    }
    return principalOf(serviceAccount);
  }

  /** Runs an issuance step, turning the PKI's domain errors into ACME problems. */
  private async asAcmeProblem<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error instanceof PolicyViolationError) throw new AcmeProblem('rejectedIdentifier', error.message);
      if (error.kind === 'invalid') throw new AcmeProblem('badCSR', error.message);
      if (error.kind === 'forbidden' || error.kind === 'not_found') {
        throw new AcmeProblem('unauthorized', `The account's service account may not issue from this CA: ${error.message}`);
      }
      throw error;
    }
  }
}

function principalOf(serviceAccount: ServiceAccountEntity): Principal {
  return {
    kind: 'service_account',
    id: serviceAccount.id,
    name: serviceAccount.name,
    role: 'user',
    organizationId: serviceAccount.organizationId,
    capabilities: capabilitiesOf(serviceAccount),
  };
}

function assertPostAsGet(request: AcmeRequest): void {
  if (request.payloadText !== '') throw new AcmeProblem('malformed', 'This resource is read with POST-as-GET (an empty payload)');
}

/**
 * The RFC 5280 reason codes an ACME client may give, stored under their RFC 5280 names (which the CRL and OCSP map
 * back to the code). 0 and no reason are stored as none: RFC 5280 §5.3.1 prefers no reasonCode to unspecified. The
 * CA-level reasons (cACompromise, aACompromise), certificateHold (revocation here is final) and removeFromCRL are
 * badRevocationReason.
 */
const ACME_REVOCATION_REASONS: Record<number, string | null> = {
  0: null,
  1: 'keyCompromise',
  3: 'affiliationChanged',
  4: 'superseded',
  5: 'cessationOfOperation',
  9: 'privilegeWithdrawn',
};

function readRevocationReason(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || !(value in ACME_REVOCATION_REASONS)) {
    throw new AcmeProblem(
      'badRevocationReason',
      `reason ${JSON.stringify(value)} is not allowed (allowed: ${Object.keys(ACME_REVOCATION_REASONS).join(', ')})`,
    );
  }
  return ACME_REVOCATION_REASONS[value];
}

/** `mailto:` contacts only (§7.3); the list is stored as given. */
function readContact(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
    throw new AcmeProblem('malformed', 'contact must be an array of URLs');
  }
  const contact = value as string[];
  if (contact.length > 10) throw new AcmeProblem('malformed', 'contact lists at most 10 URLs');
  for (const entry of contact) {
    if (!entry.startsWith('mailto:'))
      throw new AcmeProblem('unsupportedContact', `Only mailto: contacts are supported (got ${JSON.stringify(entry)})`);
    const address = entry.slice('mailto:'.length);
    if (!/^[^@\s,?]{1,64}@[^@\s,?]{1,253}$/.test(address))
      throw new AcmeProblem('invalidContact', `${JSON.stringify(entry)} is not a mailto: address`);
  }
  return contact;
}

const alreadyReplaced = (): AcmeProblem => new AcmeProblem('alreadyReplaced', 'Another order already replaces this certificate');

/** RFC 3339 at whole seconds, as renewal windows are given. */
const isoSeconds = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const isWildcard = (name: string): boolean => name.startsWith('*.');

/** The name a challenge proves control of: a wildcard's base name (§7.1.3), else the name itself. */
const baseName = (name: string): string => (isWildcard(name) ? name.slice(2) : name);

/** The order's identifiers: DNS names (a wildcard only as a leading `*.`), lower-cased, without duplicates. */
function readIdentifiers(value: unknown): AcmeIdentifier[] {
  if (!Array.isArray(value) || value.length === 0) throw new AcmeProblem('malformed', 'identifiers must be a non-empty array');
  if (value.length > MAX_IDENTIFIERS)
    throw new AcmeProblem('rejectedIdentifier', `An order may have at most ${MAX_IDENTIFIERS} identifiers`);
  const names = new Set<string>();
  for (const entry of value as unknown[]) {
    const { type, value: name } = (entry ?? {}) as Record<string, unknown>;
    if (type !== 'dns')
      throw new AcmeProblem('unsupportedIdentifier', `Identifier type ${JSON.stringify(type)} is not supported (dns only)`);
    if (typeof name !== 'string') throw new AcmeProblem('malformed', 'An identifier value must be a string');
    if (!isDnsName(name)) throw new AcmeProblem('rejectedIdentifier', `${JSON.stringify(name)} is not a DNS name`);
    names.add(name.toLowerCase());
  }
  return [...names].map((name) => ({ type: 'dns', value: name }));
}

/** The CSR must request exactly the order's names (as DNS SANs, the CN if any among them) and nothing else. */
function assertCsrMatches(csr: ParsedCsr, names: string[]): void {
  if (csr.sans.ip.length > 0 || csr.sans.email.length > 0) throw new AcmeProblem('badCSR', 'The CSR may request DNS names only');
  const requested = new Set(csr.sans.dns.map((name) => name.toLowerCase()));
  const commonName = csr.subjectName.rdns
    .flat()
    .find(({ key }) => key === 'CN')
    ?.value.toLowerCase();
  if (commonName !== undefined) requested.add(commonName);
  const ordered = new Set(names);
  const missing = names.filter((name) => !requested.has(name));
  const extra = [...requested].filter((name) => !ordered.has(name));
  if (missing.length > 0 || extra.length > 0) {
    throw new AcmeProblem(
      'badCSR',
      `The CSR's names differ from the order's${missing.length ? `; missing: ${missing.join(', ')}` : ''}${extra.length ? `; not in the order: ${extra.join(', ')}` : ''}`,
    );
  }
}
