import { ParseConfidence1796667821244 } from './1796667821244-ParseConfidence';
import { SenderAuthenticationAndEventIds1795922121739 } from './1795922121739-SenderAuthenticationAndEventIds';
import { NoticesModels1795800000200 } from './1795800000200-NoticesModels';
import { MailIntegration1795800000500 } from './1795800000500-MailIntegration';
import { UpstreamNotificationFields1796000000000 } from './1796000000000-UpstreamNotificationFields';
import type { MigrationClass } from '../../../platform/plugin-api';

/** The notices plugin's migrations, oldest first (`npm run migration:generate -- <Name> --plugin notices` adds to it). */
export const MIGRATIONS: MigrationClass[] = [
  NoticesModels1795800000200,
  MailIntegration1795800000500,
  SenderAuthenticationAndEventIds1795922121739,
  UpstreamNotificationFields1796000000000,
  ParseConfidence1796667821244,
];
