import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, Repository } from 'typeorm';
import {
  buildCertsOnlyPkcs7,
  buildCsrAttributes,
  certificatePemToDer,
  commonNameOf,
  ENCRYPTED_KEY_REQUEST_ATTRIBUTES,
  formatDistinguishedName,
  parseCsr,
  type ParsedCsr,
  privateKeyPemToDer,
  readCertificate,
  resolveSubjectAltNames,
} from '@libs/x509';
import type { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../common/config/app-config';
import { CaService } from '../pki/ca.service';
import type { CertificateAuthorityEntity } from '../pki/certificate-authority.entity';
import type { IssueCertificateDto, SignCsrDto } from '../pki/certificate.dto';
import { CertificateEntity, type LeafCertificateType } from '../pki/certificate.entity';
import { CertificateService } from '../pki/certificate.service';
import type { KeyType } from '../pki/key-type';
import { PublicPkiService } from '../pki/public-pki.service';
import { translateX509Error } from '../pki/x509-errors';
import { IssuancePolicyEntity } from '../service-accounts/issuance-policy.entity';
import { NoPolicyError, PolicyViolationError } from '../service-accounts/issuance-policy.enforcer';
import { EstAuthenticator } from './est-authenticator';
import { EstBadRequestError, EstForbiddenError, EstUnauthenticatedError } from './est-errors';

/** Who re-enrolls: Basic credentials, a forwarded client certificate, or both. */
export interface ReenrollCredentials {
  principal: Principal | undefined;
  certificate: Uint8Array | undefined;
}

/** A serverkeygen answer: the key (DER PKCS#8, returned once, never stored) and the certs-only PKCS#7. */
export interface ServerGeneratedKey {
  privateKey: Uint8Array;
  pkcs7: Buffer;
}

/** The type an EST certificate gets: the first of these the account's policy allows and the CSR's SANs fit. */
const TYPE_PREFERENCE: readonly LeafCertificateType[] = ['dual_purpose', 'server', 'client'];

/** The signature algorithm csrattrs asks CSRs to use: the hash strength of the CA's own signatures. */
const CSR_SIGNATURE_ALGORITHMS: Readonly<Record<KeyType, string>> = {
  rsa: '1.2.840.113549.1.1.11',
  'ecdsa-p256': '1.2.840.10045.4.3.2',
  'ecdsa-p384': '1.2.840.10045.4.3.3',
  ed25519: '1.3.101.112',
};

/**
 * EST (RFC 7030) on the CAs of this service. Enrollment goes through CertificateService exactly as
 * the REST API's sign-csr, issue and renew do — the account's issuance policy, the CA checks and the
 * audit log — with two EST choices: the certificate type and validity are not in the request, so
 * they come from the account's policy; a policy refusal is a 403 (the client cannot fix it).
 */
@Injectable()
export class EstService {
  constructor(
    private readonly publicPki: PublicPkiService,
    private readonly cas: CaService,
    private readonly certificates: CertificateService,
    private readonly authenticator: EstAuthenticator,
    private readonly config: AppConfig,
    @InjectRepository(CertificateEntity) private readonly certificateRows: Repository<CertificateEntity>,
    @InjectRepository(IssuancePolicyEntity) private readonly policies: Repository<IssuancePolicyEntity>,
  ) {}

  /** The CA's certificate and those above it, as a certs-only PKCS#7 (RFC 7030 §4.1.3). */
  async caCertificates(slug: string): Promise<Buffer> {
    const ca = await this.publicPki.ca(slug);
    const chain = await this.cas.chainOf(ca.id);
    return buildCertsOnlyPkcs7(chain.map((entry) => entry.certificate));
  }

  /** CsrAttrs naming the signature algorithm CSRs should use (RFC 7030 §4.5). */
  async csrAttributes(slug: string): Promise<Buffer> {
    const ca = await this.publicPki.ca(slug);
    return buildCsrAttributes([CSR_SIGNATURE_ALGORITHMS[ca.keyType]]);
  }

  /** simpleenroll: the CSR signed as sign-csr signs it; the answer holds the new certificate only (§4.2.3). */
  async enroll(slug: string, principal: Principal | undefined, body: unknown, baseUrl: string): Promise<Buffer> {
    const actor = required(principal);
    const ca = await this.publicPki.ca(slug);
    const { pem, csr } = await readCsr(body);
    const { certificateType, validDays } = await this.issuanceDefaults(actor, csr);
    const dto: SignCsrDto = { csr: pem, ca_id: ca.id, certificate_type: certificateType, valid_days: validDays };
    const certificate = await refusalsAsForbidden(() => this.certificates.signCsr(actor, dto, baseUrl));
    return buildCertsOnlyPkcs7([certificate.certificate]);
  }

  /**
   * simplereenroll (§4.2.2): renews the certificate the client holds — the one its client certificate
   * presents, or with Basic credentials alone the newest valid one of this CA with the CSR's subject.
   * The CSR must carry that certificate's subject and SANs; only its key is new.
   */
  async reenroll(slug: string, credentials: ReenrollCredentials, body: unknown, baseUrl: string): Promise<Buffer> {
    if (!credentials.principal && !credentials.certificate) throw new EstUnauthenticatedError();
    const ca = await this.publicPki.ca(slug);
    const { pem, csr } = await readCsr(body);
    let current: CertificateEntity;
    let actor: Principal;
    if (credentials.certificate) {
      current = await this.presented(ca, credentials.certificate);
      actor = credentials.principal ?? (await this.ownerOf(current));
    } else {
      actor = credentials.principal!;
      current = await this.newestWithSubject(ca, actor, csr);
    }
    assertSameNames(current, csr);
    if (current.origin !== 'csr') {
      throw new EstBadRequestError(
        'reenroll_server_generated_key',
        `Certificate #${current.id} has a key generated here: get its successor from serverkeygen`,
      );
    }
    const { certificate } = await refusalsAsForbidden(() => this.certificates.renew(actor, current.id, { csr: pem }, baseUrl));
    return buildCertsOnlyPkcs7([certificate.certificate]);
  }

  /**
   * serverkeygen (§4.4): a key generated here of the CSR key's type, and a certificate for it with the
   * CSR's subject and SANs. The key is returned once and not kept.
   */
  async serverKeyGen(slug: string, principal: Principal | undefined, body: unknown, baseUrl: string): Promise<ServerGeneratedKey> {
    const actor = required(principal);
    const ca = await this.publicPki.ca(slug);
    const { csr } = await readCsr(body);
    const encrypted = csr.attributeTypes.find((type) => ENCRYPTED_KEY_REQUEST_ATTRIBUTES.has(type));
    if (encrypted !== undefined) {
      throw new EstBadRequestError(
        'encrypted_key_not_supported',
        `csr: ${ENCRYPTED_KEY_REQUEST_ATTRIBUTES.get(encrypted)} asks for an encrypted key; this server returns keys as unencrypted PKCS#8 over TLS only`,
      );
    }
    const commonName = commonNameOf(csr.subjectName);
    if (!commonName) throw new EstBadRequestError('common_name_required', 'csr: the subject has no common name');
    const { certificateType, validDays } = await this.issuanceDefaults(actor, csr);
    const dto: IssueCertificateDto = {
      common_name: commonName,
      subject_dn: formatDistinguishedName(csr.subjectName),
      certificate_type: certificateType,
      san_dns_names: [...csr.sans.dns],
      san_ip_addresses: [...csr.sans.ip],
      san_email_addresses: [...csr.sans.email],
      valid_days: validDays,
      include_private_key: false,
      ...keyLike(csr),
    };
    const issued = await refusalsAsForbidden(() => this.certificates.issue(actor, ca.id, dto, baseUrl));
    return { privateKey: privateKeyPemToDer(issued.privateKey!), pkcs7: buildCertsOnlyPkcs7([issued.certificate.certificate]) };
  }

  /** The certificate type and validity EST cannot ask for: from the account's policy (no policy: refused as sign-csr refuses). */
  private async issuanceDefaults(actor: Principal, csr: ParsedCsr): Promise<{ certificateType: LeafCertificateType; validDays: number }> {
    const policy = await this.policies.findOne({ where: { serviceAccountId: actor.id } });
    if (!policy) throw new NoPolicyError();
    const { dns, ip, email } = csr.sans;
    const fits = (type: LeafCertificateType) =>
      type === 'client' ? dns.length + ip.length === 0 : type === 'server' ? email.length === 0 : true;
    const allowed = TYPE_PREFERENCE.filter((type) => policy.allowedCertificateTypes.includes(type));
    const certificateType = allowed.find(fits) ?? allowed[0] ?? 'dual_purpose';
    return { certificateType, validDays: Math.min(this.config.certDays, policy.maxValidityDays) };
  }

  /** The stored certificate the client presented: byte for byte one this CA issued, unrevoked and unexpired. */
  private async presented(ca: CertificateAuthorityEntity, der: Uint8Array): Promise<CertificateEntity> {
    const notOurs = () => new EstUnauthenticatedError('The client certificate was not issued by this CA');
    let serialNumber: string;
    try {
      serialNumber = readCertificate(der).serialNumber;
    } catch {
      throw notOurs();
    }
    const stored = await this.certificateRows.findOne({ where: { issuerId: ca.id, serialNumber } });
    if (!stored || !Buffer.from(certificatePemToDer(stored.certificate)).equals(der)) throw notOurs();
    if (stored.status === 'revoked') {
      throw new EstForbiddenError('certificate_revoked', `The client certificate (#${stored.id}) is revoked`);
    }
    if (stored.notAfter.getTime() <= Date.now()) {
      throw new EstForbiddenError('certificate_expired', `The client certificate (#${stored.id}) has expired`);
    }
    return stored;
  }

  /** Certificate authentication acts as the service account that obtained the certificate. */
  private async ownerOf(certificate: CertificateEntity): Promise<Principal> {
    if (certificate.createdByServiceAccountId === null) {
      throw new EstForbiddenError(
        'certificate_not_from_service_account',
        'Certificate authentication re-enrolls certificates a service account obtained; authenticate with Basic credentials',
      );
    }
    const owner = await this.authenticator.accountPrincipal(certificate.createdByServiceAccountId);
    if (!owner) {
      throw new EstForbiddenError(
        'service_account_unavailable',
        'The service account that obtained this certificate is disabled or deleted',
      );
    }
    return owner;
  }

  private async newestWithSubject(ca: CertificateAuthorityEntity, actor: Principal, csr: ParsedCsr): Promise<CertificateEntity> {
    const found = await this.certificateRows.findOne({
      where: {
        issuerId: ca.id,
        subjectDn: csr.subject,
        status: 'valid',
        notAfter: MoreThan(new Date()),
        organizationId: actor.organizationId ?? undefined,
      },
      order: { id: 'DESC' },
    });
    if (!found) {
      throw new EstBadRequestError('no_certificate_to_reenroll', `csr: no valid certificate of this CA has the subject ${csr.subject}`);
    }
    return found;
  }
}

function required(principal: Principal | undefined): Principal {
  if (!principal) throw new EstUnauthenticatedError();
  return principal;
}

/** The body as PEM: base64 DER (RFC 7030 §4.2.1, line breaks allowed); a PEM body is taken as it is. */
async function readCsr(body: unknown): Promise<{ pem: string; csr: ParsedCsr }> {
  const text = typeof body === 'string' ? body.trim() : '';
  if (text === '') {
    throw new EstBadRequestError(
      'csr_required',
      'The body must be a base64-encoded PKCS#10 request sent as Content-Type: application/pkcs10',
    );
  }
  let pem = text;
  if (!text.startsWith('-----BEGIN')) {
    const compact = text.replace(/\s+/g, '');
    if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
      throw new EstBadRequestError('csr_not_base64', 'csr: the body is not base64 (RFC 7030 §4.2.1: base64 DER of the PKCS#10 request)');
    }
    pem = `-----BEGIN CERTIFICATE REQUEST-----\n${compact.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE REQUEST-----\n`;
  }
  return { pem, csr: await translateX509Error(() => parseCsr(pem), 'csr') };
}

/** RFC 7030 §4.2.2: the new request names exactly what the certificate being renewed names. */
function assertSameNames(current: CertificateEntity, csr: ParsedCsr): void {
  if (csr.subject !== current.subjectDn) {
    throw new EstBadRequestError(
      'reenroll_subject_differs',
      `csr: subject ${csr.subject} differs from the certificate's ${current.subjectDn} (RFC 7030 §4.2.2)`,
    );
  }
  const requested = translateX509Error(
    () => resolveSubjectAltNames(current.certificateType as LeafCertificateType, current.commonName, csr.sans),
    'csr',
  );
  const differs = (asked: readonly string[], held: readonly string[]) => [...asked].sort().join('\n') !== [...held].sort().join('\n');
  if (
    differs(requested.dns, current.sanDnsNames) ||
    differs(requested.ip, current.sanIpAddresses) ||
    differs(requested.email, current.sanEmailAddresses)
  ) {
    const held = [...current.sanDnsNames, ...current.sanIpAddresses, ...current.sanEmailAddresses].join(', ') || 'none';
    throw new EstBadRequestError('reenroll_sans_differ', `csr: subjectAltName differs from the certificate's (${held}) (RFC 7030 §4.2.2)`);
  }
}

/** The key serverkeygen generates: the CSR key's type and, for RSA, its size. */
function keyLike(csr: ParsedCsr): Pick<IssueCertificateDto, 'key_type' | 'key_size'> {
  const algorithm = csr.keyAlgorithm;
  if (algorithm.type === 'rsa') {
    const size = ([2048, 3072, 4096, 8192] as const).find((candidate) => candidate >= algorithm.size) ?? 8192;
    return { key_type: 'rsa', key_size: size };
  }
  if (algorithm.type === 'ec') return { key_type: algorithm.curve === 'P-384' ? 'ecdsa-p384' : 'ecdsa-p256' };
  return { key_type: 'ed25519' };
}

/**
 * A policy refusal is the account's configuration, not the request's shape: 403 with the reason
 * (RFC 7030 §4.2.3), like the 403 a missing policy already is.
 */
async function refusalsAsForbidden<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PolicyViolationError) {
      throw new EstForbiddenError('policy_violation', error.message, { field: error.violation.field, value: error.violation.value });
    }
    throw error;
  }
}
