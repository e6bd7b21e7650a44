import { Module } from '@nestjs/common';
import { PkiModule } from './pki.module';
import { PublicPkiController } from './public-pki.controller';

/** The root-mounted public endpoints (/crl, /ca), outside API_V1_STR. */
@Module({ imports: [PkiModule], controllers: [PublicPkiController] })
export class PublicPkiModule {}
