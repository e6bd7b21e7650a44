import type { PluginManifest } from '../../platform/plugins/plugin-declaration';
import { setting } from '../../platform/plugins/plugin-settings';
import { DEFAULT_IMPACT_TARGETS } from './impact-targets';

/** What the configuration check needs of the plugin (name, dependencies, settings), without loading its models. */
export const NOTICES_MANIFEST: PluginManifest = {
  name: 'notices',
  version: '1.0.0',
  description:
    'Provider maintenances and outages, their impacts, received notifications, notification templates and prepared notifications.',
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
    provider_map: setting.string({
      default: '',
      description: 'JSON object sender domain → parser name for inbound-email/ without ?parser= (empty: the default map of libs/mail)',
    }),
    raw_mail_retention_days: setting.integer({
      default: 30,
      min: 1,
      max: 3650,
      description: 'Days raw inbound emails are kept (inbound emails and event notifications), then blanked',
    }),
    outbound_max_attempts: setting.integer({
      default: 5,
      min: 1,
      max: 100,
      description: 'Failed sends of a prepared notification (claim, then release with the error) before it becomes failed',
    }),
    ical_past_days_default: setting.integer({
      default: 30,
      min: 0,
      max: 365,
      description: 'Days of past maintenances the iCal feed includes when past_days is not given',
    }),
  },
};
