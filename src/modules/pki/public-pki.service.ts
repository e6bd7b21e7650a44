import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { NotFoundError } from '../../common/errors/common-errors';
import { parseCaSlug, slugify } from './ca-slug';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { CrlDocument, CrlService } from './crl.service';

function publicCaNotFound(): NotFoundError {
  return new NotFoundError('CA not found', 'ca_not_found');
}

/** Resolves public slugs: both the id and the name prefix must match the CA's current name. */
@Injectable()
export class PublicPkiService {
  constructor(
    @InjectRepository(CertificateAuthorityEntity) private readonly cas: Repository<CertificateAuthorityEntity>,
    private readonly crls: CrlService,
  ) {}

  async ca(slug: string | undefined): Promise<CertificateAuthorityEntity> {
    const parsed = slug === undefined ? undefined : parseCaSlug(slug);
    if (!parsed) throw publicCaNotFound();
    const ca = await this.cas.findOne({ where: { id: parsed.id } });
    if (!ca || slugify(ca.name) !== parsed.prefix) throw publicCaNotFound();
    return ca;
  }

  async crl(slug: string): Promise<CrlDocument> {
    return this.crls.current(await this.ca(slug));
  }
}
