/** Default of the `allowed_content_types` setting: what an impact may target. */
export const DEFAULT_IMPACT_TARGETS = ['circuits.circuit', 'dcim.device', 'dcim.site', 'dcim.location'];
