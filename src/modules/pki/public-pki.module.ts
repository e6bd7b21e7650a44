import { Module } from '@nestjs/common';
import { OcspCachedPath } from './ocsp-cached-path';
import { OcspController } from './ocsp.controller';
import { PkiModule } from './pki.module';
import { PublicPkiController } from './public-pki.controller';

/** The root-mounted public endpoints (/crl, /ca, /ocsp), outside API_V1_STR; cached OCSP answers go before the pipeline. */
@Module({ imports: [PkiModule], controllers: [PublicPkiController, OcspController], providers: [OcspCachedPath] })
export class PublicPkiModule {}
