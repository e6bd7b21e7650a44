import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../common/config/app-config';

/**
 * The base of the CRL and CA-certificate URLs written into certificates: PUBLIC_BASE_URL, or the
 * address the client used (scheme and host honour X-Forwarded-* when TRUST_PROXY allows).
 */
@Injectable()
export class PublicBaseUrl {
  constructor(private readonly config: AppConfig) {}

  for(request: Request): string {
    return this.config.publicBaseUrl ?? `${request.protocol}://${request.host ?? 'localhost'}`;
  }
}
