import { definePlugin } from '../../platform/plugins/plugin-declaration';
import { setting } from '../../platform/plugins/plugin-settings';
import { EventNotificationResource } from './event-notifications.resources';
import { MaintenanceResource, OutageResource } from './events.resources';
import { DEFAULT_IMPACT_TARGETS, ImpactResource } from './impacts.resources';
import { MIGRATIONS } from './migrations';
import { NOTICES_ROUTES } from './notices-routes';
import { NotificationTemplateResource, TemplateScopeResource } from './notification-templates.resources';
import { PreparedNotificationResource } from './prepared-notifications.resources';

/** Maintenances and outages of providers, their impacts, received and prepared notifications. */
export const NoticesPlugin = definePlugin({
  name: 'notices',
  version: '1.0.0',
  description:
    'Provider maintenances and outages, their impacts, received notifications, notification templates and prepared notifications.',
  resources: [
    MaintenanceResource,
    OutageResource,
    ImpactResource,
    EventNotificationResource,
    NotificationTemplateResource,
    TemplateScopeResource,
    PreparedNotificationResource,
  ],
  migrations: MIGRATIONS,
  routes: NOTICES_ROUTES,
  settings: {
    allowed_content_types: setting.list({
      default: DEFAULT_IMPACT_TARGETS,
      description: 'Object types (app.model) an impact may target',
    }),
    event_history_days: setting.integer({
      default: 30,
      min: 0,
      max: 3650,
      description: 'How many days back event-history/ shows events (events without an end always show)',
    }),
    ical_past_days_default: setting.integer({
      default: 30,
      min: 0,
      max: 365,
      description: 'Days of past maintenances the iCal feed includes when past_days is not given',
    }),
  },
});
