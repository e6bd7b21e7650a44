import { Module } from '@nestjs/common';
import { OcspController } from './ocsp.controller';
import { PkiModule } from './pki.module';
import { PublicPkiController } from './public-pki.controller';

/** The root-mounted public endpoints (/crl, /ca, /ocsp), outside API_V1_STR. */
@Module({ imports: [PkiModule], controllers: [PublicPkiController, OcspController] })
export class PublicPkiModule {}
