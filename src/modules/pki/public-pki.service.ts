import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { preparedQuery } from '../../common/database/prepared-query';
import { NotFoundError } from '../../common/errors/common-errors';
import { parseCaSlug, slugify } from './ca-slug';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { CrlDocument, CrlService, CrlState } from './crl.service';

function publicCaNotFound(): NotFoundError {
  return new NotFoundError('CA not found', 'ca_not_found');
}

/** The CA a public slug names: both the id and the name prefix must match the CA's current name. */
async function findBySlug<T extends { name: string }>(
  slug: string | undefined,
  load: (id: number) => Promise<T | null | undefined>,
): Promise<T> {
  const parsed = slug === undefined ? undefined : parseCaSlug(slug);
  if (!parsed) throw publicCaNotFound();
  const found = await load(parsed.id);
  if (!found || slugify(found.name) !== parsed.prefix) throw publicCaNotFound();
  return found;
}

const CRL_STATE_QUERY = `SELECT id, name, crl_number, crl_next_update, revocation_count, crl_revocation_count
  FROM certificate_authorities WHERE id = $1`;

interface CrlStateRow {
  id: number;
  name: string;
  crl_number: string;
  crl_next_update: Date | null;
  revocation_count: number;
  crl_revocation_count: number | null;
}

/** Resolves public slugs to CAs and their CRLs. */
@Injectable()
export class PublicPkiService {
  constructor(
    @InjectRepository(CertificateAuthorityEntity) private readonly cas: Repository<CertificateAuthorityEntity>,
    private readonly crls: CrlService,
  ) {}

  ca(slug: string | undefined): Promise<CertificateAuthorityEntity> {
    return findBySlug(slug, (id) => this.cas.findOne({ where: { id } }));
  }

  /**
   * The CA's current CRL. Every fetch reads the CA's CRL state (one indexed row, a few columns, a
   * prepared statement): a rebuild by another process or replica is served at once, while the DER
   * itself comes from memory.
   */
  async crl(slug: string): Promise<CrlDocument> {
    const row = await findBySlug(slug, async (id) => {
      const [found] = await preparedQuery<CrlStateRow>(this.cas.manager, CRL_STATE_QUERY, [id]);
      return found;
    });
    const state: CrlState = {
      id: row.id,
      crlNumber: row.crl_number,
      crlNextUpdate: row.crl_next_update,
      revocationCount: row.revocation_count,
      crlRevocationCount: row.crl_revocation_count,
    };
    return this.crls.current(state);
  }
}
