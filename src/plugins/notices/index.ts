import { definePlugin } from '../../platform/plugin-api';
import { NOTICES_MANIFEST } from './manifest';
import { EventNotificationResource } from './event-notifications.resources';
import { INBOUND_ROUTES } from './inbound-email';
import { InboundEmailResource } from './inbound-emails.resources';
import { MaintenanceResource, OutageResource } from './events.resources';
import { ImpactResource } from './impacts.resources';
import { MIGRATIONS } from './migrations';
import { NOTICES_ROUTES } from './notices-routes';
import { NotificationTemplateResource, TemplateScopeResource } from './notification-templates.resources';
import { PreparedNotificationResource } from './prepared-notifications.resources';

/** Maintenances and outages of providers, their impacts, received and prepared notifications. */
export const NoticesPlugin = definePlugin({
  ...NOTICES_MANIFEST,
  resources: [
    MaintenanceResource,
    OutageResource,
    ImpactResource,
    EventNotificationResource,
    NotificationTemplateResource,
    TemplateScopeResource,
    PreparedNotificationResource,
    InboundEmailResource,
  ],
  migrations: MIGRATIONS,
  routes: [...NOTICES_ROUTES, ...INBOUND_ROUTES],
});
