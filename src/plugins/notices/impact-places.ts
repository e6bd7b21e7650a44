import { type ExtraFilter, idFilterProblem, treeFilter } from '../../platform/plugin-api';

/**
 * Where an impact's target is: the sites and locations it touches, computed when read rather than
 * cached (upstream keeps a site/location cache refreshed by signals on six models; reading through
 * the targets cannot go stale). A site is itself; a device is its site and location; a location is
 * its site and itself; a circuit is the sites and locations of its terminations. Any other target
 * type touches no site.
 */
export const objectTypeIdSql = (objectType: string) => {
  const [app, model] = objectType.split('.');
  return `(SELECT id FROM core_objecttype WHERE app_label = '${app}' AND model = '${model}')`;
};

export const IMPACT_PLACES_SQL = `
  SELECT i.id AS impact_id, i.event_content_type_id, i.event_object_id, p.site_id, p.location_id
    FROM notices_impact i
    JOIN LATERAL (
      SELECT s.id AS site_id, NULL::integer AS location_id FROM dcim_site s
       WHERE i.target_content_type_id = ${objectTypeIdSql('dcim.site')} AND s.id = i.target_object_id
      UNION ALL
      SELECT d.site_id, d.location_id FROM dcim_device d
       WHERE i.target_content_type_id = ${objectTypeIdSql('dcim.device')} AND d.id = i.target_object_id
      UNION ALL
      SELECT l.site_id, l.id FROM dcim_location l
       WHERE i.target_content_type_id = ${objectTypeIdSql('dcim.location')} AND l.id = i.target_object_id
      UNION ALL
      SELECT COALESCE(l.site_id, t.termination_id), l.id
        FROM circuits_circuittermination t
        LEFT JOIN dcim_location l ON t.termination_type_id = ${objectTypeIdSql('dcim.location')} AND l.id = t.termination_id
       WHERE i.target_content_type_id = ${objectTypeIdSql('circuits.circuit')} AND t.circuit_id = i.target_object_id
         AND t.termination_type_id IN (${objectTypeIdSql('dcim.site')}, ${objectTypeIdSql('dcim.location')})
    ) p ON true`;

type Scope = 'site_id' | 'region_id' | 'site_group_id' | 'location_id';

/** The condition on the places' columns (alias `p`) that a site-scoping parameter sets. */
function placeCondition(
  scope: Scope,
  values: string[],
  prefix: string,
): { where: string; params: Record<string, unknown> } | { problem: string } {
  if (scope === 'site_id' || scope === 'location_id') {
    const problem = idFilterProblem(values);
    if (problem) return { problem };
    return { where: `p.${scope} IN (:...${prefix})`, params: { [prefix]: values.map(Number) } };
  }
  const tree = scope === 'region_id' ? treeFilter('region_id', 'dcim_region', 'id') : treeFilter('group_id', 'dcim_sitegroup', 'id');
  const inner = tree(
    values.filter((value) => value !== 'null'),
    's',
    prefix,
  );
  if ('problem' in inner) return inner;
  return { where: `p.site_id IN (SELECT s.id FROM dcim_site s WHERE ${inner.where})`, params: inner.params };
}

/** `site_id`, `region_id` (with its descendants), `site_group_id` (idem), `location_id` of an event, through its impacts. */
export function eventPlaceFilters(objectType: string): Record<Scope, ExtraFilter> {
  const filter =
    (scope: Scope): ExtraFilter =>
    (values, alias, prefix) => {
      const condition = placeCondition(scope, values, prefix);
      if ('problem' in condition) return condition;
      return {
        where: `${alias}."id" IN (SELECT p.event_object_id FROM (${IMPACT_PLACES_SQL}) p
                 WHERE p.event_content_type_id = ${objectTypeIdSql(objectType)} AND ${condition.where})`,
        params: condition.params,
      };
    };
  return {
    site_id: filter('site_id'),
    region_id: filter('region_id'),
    site_group_id: filter('site_group_id'),
    location_id: filter('location_id'),
  };
}

/** The same parameters on the impacts themselves. */
export function impactPlaceFilters(): Record<Scope, ExtraFilter> {
  const filter =
    (scope: Scope): ExtraFilter =>
    (values, alias, prefix) => {
      const condition = placeCondition(scope, values, prefix);
      if ('problem' in condition) return condition;
      return {
        where: `${alias}."id" IN (SELECT p.impact_id FROM (${IMPACT_PLACES_SQL}) p WHERE ${condition.where})`,
        params: condition.params,
      };
    };
  return {
    site_id: filter('site_id'),
    region_id: filter('region_id'),
    site_group_id: filter('site_group_id'),
    location_id: filter('location_id'),
  };
}
