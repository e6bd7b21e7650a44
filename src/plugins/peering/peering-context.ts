import type { EntityManager } from 'typeorm';

/** A name and id, as the context lists peer groups, route maps and policies. */
interface Named {
  id: number;
  name: string;
}

export type PeeringTemplateContext = {
  device: {
    id: number;
    name: string | null;
    platform: { name: string; slug: string } | null;
    site: { name: string; slug: string } | null;
  } | null;
  sessions: Array<Record<string, unknown>>;
  peer_groups: Named[];
  route_maps: Array<Named & { entries: RouteMapEntryContext[] }>;
  prefix_lists: PrefixListContext[];
  communities: CommunityContext[];
};

/** A route-map entry, its matches by name (communities by value). */
interface RouteMapEntryContext {
  sequence: number;
  action: string;
  flow_control: number | null;
  match_prefix_list: string[];
  match_community_list: string[];
  match_community: string[];
  match_aspath: string[];
  match: unknown;
  set: unknown;
}

interface PrefixListContext extends Named {
  family: string;
  entries: Array<{ sequence: number; action: string; prefix: string; ge: number | null; le: number | null }>;
}

interface CommunityContext extends Named {
  community: string;
  status: string;
}

interface SessionRow {
  id: number;
  service_reference: string;
  name: string;
  description: string;
  status: string;
  enabled: boolean;
  password: string | null;
  /** The session template the password is inherited from; null when it is the peer's own (or none). */
  password_template_id: number | null;
  ttl: number | null;
  peer_id: number;
  local_asn: string | null;
  peer_asn: string | null;
  peer_asn_description: string | null;
  local_ip: string | null;
  remote_ip: string | null;
  relationship: string | null;
  irr_as_set: string | null;
  ipv4_max_prefixes: number | null;
  ipv6_max_prefixes: number | null;
  bfd_name: string | null;
  bfd_min_tx: number | null;
  bfd_min_rx: number | null;
  bfd_multiplier: number | null;
  bfd_hold: number | null;
  peer_group_id: number | null;
  peer_group_name: string | null;
  network_id: number | null;
  network_name: string | null;
  fabric_name: string | null;
}

interface FamilyRow {
  peer_id: number;
  afi: string;
  route_map_in_id: number | null;
  route_map_in: string | null;
  route_map_out_id: number | null;
  route_map_out: string | null;
  prefix_list_in_id: number | null;
  prefix_list_in: string | null;
  prefix_list_out_id: number | null;
  prefix_list_out: string | null;
}

/**
 * Bounds every inheritance walk: cycles are refused on write, and a chain that loops all the same
 * (written by two concurrent requests) ends here instead of looping the render.
 */
const MAX_TEMPLATE_DEPTH = 64;

/**
 * Each listed peer's session-template chain (`peer_id`, `template_id`, `depth` from 1 for the peer's
 * own template): the template, its parent, that one's parent… A template met twice ends the chain.
 */
const SESSION_CHAIN = `
  session_chain(peer_id, template_id, depth, seen) AS (
    SELECT p.id, p.peer_session_id, 1, ARRAY[p.peer_session_id] FROM routing_bgppeer p
     WHERE p.id IN (SELECT bgp_peer_id FROM peering_peeringsession WHERE id = ANY($1)) AND p.peer_session_id IS NOT NULL
    UNION ALL
    SELECT c.peer_id, t.parent_id, c.depth + 1, c.seen || t.parent_id
      FROM session_chain c JOIN routing_bgpsessiontemplate t ON t.id = c.template_id
     WHERE t.parent_id IS NOT NULL AND NOT (t.parent_id = ANY(c.seen)) AND c.depth < ${MAX_TEMPLATE_DEPTH}
  )`;

/** The nearest value of a session-template column along the peer `p`'s chain (null when none sets it). */
const inheritedSession = (column: string) =>
  `(SELECT t.${column} FROM session_chain c JOIN routing_bgpsessiontemplate t ON t.id = c.template_id
     WHERE c.peer_id = p.id AND NULLIF(t.${column}::text, '') IS NOT NULL ORDER BY c.depth LIMIT 1)`;

/**
 * One row per session: the BGP peer and what it refers to. Each value is the peer's own, else the
 * nearest along its session template's chain (the template, then its parent, …), else: the local ASN
 * the router's, the remote one the peer group's. Addresses are read without the mask.
 */
const SESSION_SELECT = `
  WITH RECURSIVE ${SESSION_CHAIN}
  SELECT s.id, s.service_reference, p.id AS peer_id, COALESCE(p.name, '') AS name, p.description, p.status, p.enabled,
         COALESCE(NULLIF(p.password, ''), ${inheritedSession('password')}) AS password,
         CASE WHEN NULLIF(p.password, '') IS NULL THEN (SELECT c.template_id FROM session_chain c JOIN routing_bgpsessiontemplate t ON t.id = c.template_id
                WHERE c.peer_id = p.id AND NULLIF(t.password, '') IS NOT NULL ORDER BY c.depth LIMIT 1) END AS password_template_id,
         COALESCE(p.ttl, ${inheritedSession('ttl')}) AS ttl,
         COALESCE(la.asn, ra_router.asn)::text AS local_asn, COALESCE(ra.asn, ta.asn)::text AS peer_asn, COALESCE(ra.description, ta.description) AS peer_asn_description,
         host(src.address) AS local_ip, host(dst.address) AS remote_ip, rel.name AS relationship,
         pa.irr_as_set, pa.ipv4_max_prefixes, pa.ipv6_max_prefixes,
         bfd.name AS bfd_name, bfd.min_tx_int AS bfd_min_tx, bfd.min_rx_int AS bfd_min_rx, bfd.multiplier AS bfd_multiplier, bfd.hold AS bfd_hold,
         tpl.id AS peer_group_id, tpl.name AS peer_group_name, net.id AS network_id, net.name AS network_name, fab.name AS fabric_name
    FROM peering_peeringsession s
    JOIN routing_bgppeer p ON p.id = s.bgp_peer_id
    JOIN routing_bgpscope sc ON sc.id = p.scope_id
    JOIN routing_bgprouter r ON r.id = sc.router_id
    JOIN ipam_asn ra_router ON ra_router.id = r.asn_id
    LEFT JOIN ipam_asn la ON la.id = COALESCE(p.local_as_id, ${inheritedSession('local_as_id')})
    LEFT JOIN routing_bgppeertemplate tpl ON tpl.id = p.peer_group_id
    LEFT JOIN ipam_asn ta ON ta.id = tpl.remote_as_id
    LEFT JOIN ipam_asn ra ON ra.id = COALESCE(p.remote_as_id, ${inheritedSession('remote_as_id')})
    LEFT JOIN peering_peerasn pa ON pa.asn_id = COALESCE(ra.id, ta.id)
    LEFT JOIN ipam_ipaddress src ON src.id = p.source_id
    LEFT JOIN ipam_ipaddress dst ON dst.id = p.peer_id
    LEFT JOIN peering_relationship rel ON rel.id = s.relationship_id
    LEFT JOIN routing_bfdprofile bfd ON bfd.id = COALESCE(p.bfd_profile_id, ${inheritedSession('bfd_id')})
    LEFT JOIN peering_peeringnetwork net ON net.id = s.peering_network_id
    LEFT JOIN peering_peeringfabric fab ON fab.id = net.fabric_id`;

/**
 * Each address family's policy-template ancestry (`af_id`, `template_id`, `depth` from 1 for the
 * family's own template): the template, its parents, theirs… A template reached along several
 * routes counts at its smallest depth; the depth bound ends a chain that loops.
 */
const POLICY_CHAIN = `
  policy_chain(af_id, template_id, depth) AS (
    SELECT af.id, af.peer_policy_id, 1 FROM routing_bgppeeraddressfamily af
     WHERE af.assigned_peer_id = ANY($1) AND af.peer_policy_id IS NOT NULL
    UNION
    SELECT c.af_id, j.to_bgppolicytemplate_id, c.depth + 1
      FROM policy_chain c JOIN routing_bgppolicytemplate_parents j ON j.bgppolicytemplate_id = c.template_id
     WHERE c.depth < ${MAX_TEMPLATE_DEPTH}
  )`;

/**
 * The nearest value of a policy-template column along the family `af`'s ancestry: the nearer
 * template first, and of two at the same depth the one with the lower id (upstream's parents are an
 * unordered set).
 */
const inheritedPolicy = (column: string) =>
  `(SELECT t.${column} FROM policy_chain c JOIN routing_bgppolicytemplate t ON t.id = c.template_id
     WHERE c.af_id = af.id AND t.${column} IS NOT NULL ORDER BY c.depth, t.id LIMIT 1)`;

const asNumber = (value: string | null): number | null => (value === null ? null : Number(value));

function sessionEntry(row: SessionRow, families: readonly FamilyRow[], withSecrets: boolean): Record<string, unknown> {
  const peerAsn = asNumber(row.peer_asn);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    enabled: row.enabled,
    local_asn: asNumber(row.local_asn),
    peer_asn: peerAsn,
    local_ip: row.local_ip,
    remote_ip: row.remote_ip,
    ...(withSecrets ? { password: row.password ?? '' } : {}),
    ttl: row.ttl,
    relationship: row.relationship,
    service_reference: row.service_reference,
    peer_name: peerAsn === null ? null : row.peer_asn_description || `AS${peerAsn}`,
    irr_as_set: row.irr_as_set || null,
    ipv4_max_prefixes: row.ipv4_max_prefixes,
    ipv6_max_prefixes: row.ipv6_max_prefixes,
    bfd_profile:
      row.bfd_name === null
        ? null
        : {
            name: row.bfd_name,
            minimum_interval: row.bfd_min_tx,
            minimum_rx_interval: row.bfd_min_rx,
            multiplier: row.bfd_multiplier,
            hold: row.bfd_hold,
          },
    peer_group: row.peer_group_id === null ? null : { id: row.peer_group_id, name: row.peer_group_name },
    peering_network: row.network_id === null ? null : { id: row.network_id, name: row.network_name, fabric: row.fabric_name },
    address_families: families.map((family) => ({
      afi: family.afi,
      ...(family.route_map_in ? { route_map_in: { name: family.route_map_in } } : {}),
      ...(family.route_map_out ? { route_map_out: { name: family.route_map_out } } : {}),
      ...(family.prefix_list_in ? { prefix_list_in: { name: family.prefix_list_in } } : {}),
      ...(family.prefix_list_out ? { prefix_list_out: { name: family.prefix_list_out } } : {}),
    })),
    afi_safis: row.local_ip === null ? [] : [row.local_ip.includes(':') ? 'ipv6-unicast' : 'ipv4-unicast'],
  };
}

function distinct(items: ReadonlyArray<Named | null>): Named[] {
  const seen = new Map<number, Named>();
  for (const item of items) if (item && !seen.has(item.id)) seen.set(item.id, item);
  return [...seen.values()];
}

/** The peering sessions of a device: those whose BGP peer is in a scope of one of the device's BGP routers, in id order. */
export async function deviceSessionIds(manager: EntityManager, deviceId: number): Promise<number[]> {
  const rows = (await manager.query(
    `SELECT s.id FROM peering_peeringsession s
       JOIN routing_bgppeer p ON p.id = s.bgp_peer_id
       JOIN routing_bgpscope sc ON sc.id = p.scope_id
       JOIN routing_bgprouter r ON r.id = sc.router_id
      WHERE r.device_id = $1 ORDER BY s.id`,
    [deviceId],
  )) as Array<{ id: number }>;
  return rows.map(({ id }) => id);
}

/** The BGP peer of each of these sessions, by session id. */
export async function sessionPeerIds(manager: EntityManager, sessionIds: readonly number[]): Promise<Map<number, number>> {
  const rows = (await manager.query('SELECT id, bgp_peer_id FROM peering_peeringsession WHERE id = ANY($1)', [sessionIds])) as Array<{
    id: number;
    bgp_peer_id: number;
  }>;
  return new Map(rows.map((row) => [row.id, row.bgp_peer_id]));
}

/** The session templates whose password the sessions' peers inherit, by template id (to check who may see them). */
export async function inheritedPasswordTemplateIds(manager: EntityManager, sessionIds: readonly number[]): Promise<number[]> {
  const rows = (await manager.query(`${SESSION_SELECT} WHERE s.id = ANY($1)`, [sessionIds])) as SessionRow[];
  return [...new Set(rows.map((row) => row.password_template_id).filter((id): id is number => id !== null))];
}

/**
 * The template context of render-config: the given sessions, in id order (peers without a session
 * never appear, disabled ones do), and the device when given. A session carries its `password` only
 * when its BGP peer is among `secretPeerIds` (the caller may see its secrets) and, for a password
 * inherited from a session template, that template is among `secretTemplateIds`.
 */
export async function peeringContext(
  manager: EntityManager,
  deviceId: number | null,
  sessionIds: readonly number[],
  secretPeerIds: ReadonlySet<number>,
  secretTemplateIds: ReadonlySet<number>,
): Promise<PeeringTemplateContext> {
  let device: PeeringTemplateContext['device'] = null;
  if (deviceId !== null) {
    const [row] = (await manager.query(
      `SELECT d.id, d.name, pl.name AS platform_name, pl.slug AS platform_slug, st.name AS site_name, st.slug AS site_slug
         FROM dcim_device d LEFT JOIN dcim_platform pl ON pl.id = d.platform_id LEFT JOIN dcim_site st ON st.id = d.site_id WHERE d.id = $1`,
      [deviceId],
    )) as Array<{
      id: number;
      name: string | null;
      platform_name: string | null;
      platform_slug: string;
      site_name: string | null;
      site_slug: string;
    }>;
    device = {
      id: row.id,
      name: row.name,
      platform: row.platform_name === null ? null : { name: row.platform_name, slug: row.platform_slug },
      site: row.site_name === null ? null : { name: row.site_name, slug: row.site_slug },
    };
  }
  const rows = (await manager.query(`${SESSION_SELECT} WHERE s.id = ANY($1) ORDER BY s.id`, [sessionIds])) as SessionRow[];
  const families = (await manager.query(
    `WITH RECURSIVE ${POLICY_CHAIN}
     SELECT af.assigned_peer_id AS peer_id, af.afi, rmi.id AS route_map_in_id, rmi.name AS route_map_in, rmo.id AS route_map_out_id, rmo.name AS route_map_out,
            pli.id AS prefix_list_in_id, pli.name AS prefix_list_in, plo.id AS prefix_list_out_id, plo.name AS prefix_list_out
       FROM routing_bgppeeraddressfamily af
       LEFT JOIN routing_routemap rmi ON rmi.id = COALESCE(af.routemap_in_id, ${inheritedPolicy('routemap_in_id')})
       LEFT JOIN routing_routemap rmo ON rmo.id = COALESCE(af.routemap_out_id, ${inheritedPolicy('routemap_out_id')})
       LEFT JOIN routing_prefixlist pli ON pli.id = COALESCE(af.prefixlist_in_id, ${inheritedPolicy('prefixlist_in_id')})
       LEFT JOIN routing_prefixlist plo ON plo.id = COALESCE(af.prefixlist_out_id, ${inheritedPolicy('prefixlist_out_id')})
      WHERE af.assigned_peer_id = ANY($1) ORDER BY af.assigned_peer_id, af.afi`,
    [rows.map((row) => row.peer_id)],
  )) as FamilyRow[];
  return {
    device,
    sessions: rows.map((row) =>
      sessionEntry(
        row,
        families.filter((family) => family.peer_id === row.peer_id),
        secretPeerIds.has(row.peer_id) && (row.password_template_id === null || secretTemplateIds.has(row.password_template_id)),
      ),
    ),
    peer_groups: distinct(rows.map((row) => (row.peer_group_id === null ? null : { id: row.peer_group_id, name: row.peer_group_name! }))),
    ...(await routingPolicies(
      manager,
      distinct(
        families.flatMap((family) => [
          family.route_map_in_id === null ? null : { id: family.route_map_in_id, name: family.route_map_in! },
          family.route_map_out_id === null ? null : { id: family.route_map_out_id, name: family.route_map_out! },
        ]),
      ),
      families.flatMap((family) => [family.prefix_list_in_id, family.prefix_list_out_id]).filter((id): id is number => id !== null),
    )),
  };
}

/** The names of the objects a route-map entry matches, one list per many-to-many table. */
const entryMatches = (table: string, column: string, target: string, value: string) =>
  `COALESCE((SELECT json_agg(t.${value} ORDER BY t.${value}) FROM ${table} j JOIN ${target} t ON t.id = j.${column} WHERE j.routemapentry_id = e.id), '[]'::json)`;

/**
 * The route maps of the sessions' address families with their entries; the prefix lists those
 * families and entries name, with their entries; the communities the entries match, directly or
 * through a community list.
 */
async function routingPolicies(
  manager: EntityManager,
  routeMaps: Named[],
  familyPrefixListIds: number[],
): Promise<Pick<PeeringTemplateContext, 'route_maps' | 'prefix_lists' | 'communities'>> {
  const routeMapIds = routeMaps.map(({ id }) => id);
  const entries = (await manager.query(
    `SELECT e.route_map_id, e.sequence, e.action, e.flow_control, e.match, e.set,
            ${entryMatches('routing_routemapentry_match_prefix_list', 'prefixlist_id', 'routing_prefixlist', 'name')} AS match_prefix_list,
            ${entryMatches('routing_routemapentry_match_community_list', 'communitylist_id', 'routing_communitylist', 'name')} AS match_community_list,
            ${entryMatches('routing_routemapentry_match_community', 'community_id', 'routing_community', 'community')} AS match_community,
            ${entryMatches('routing_routemapentry_match_aspath', 'aspath_id', 'routing_aspath', 'name')} AS match_aspath
       FROM routing_routemapentry e WHERE e.route_map_id = ANY($1) ORDER BY e.route_map_id, e.sequence`,
    [routeMapIds],
  )) as Array<RouteMapEntryContext & { route_map_id: number }>;
  const prefixLists = (await manager.query(
    `SELECT l.id, l.name, l.family,
            COALESCE((SELECT json_agg(json_build_object('sequence', x.sequence, 'action', x.action, 'prefix', x.prefix::text, 'ge', x.ge, 'le', x.le) ORDER BY x.sequence)
                        FROM routing_prefixlistentry x WHERE x.prefix_list_id = l.id), '[]'::json) AS entries
       FROM routing_prefixlist l
      WHERE l.id = ANY($1)
         OR l.id IN (SELECT j.prefixlist_id FROM routing_routemapentry_match_prefix_list j JOIN routing_routemapentry e ON e.id = j.routemapentry_id WHERE e.route_map_id = ANY($2))
      ORDER BY l.name`,
    [familyPrefixListIds, routeMapIds],
  )) as PrefixListContext[];
  const communities = (await manager.query(
    `SELECT c.id, c.name, c.community, c.status FROM routing_community c
      WHERE c.id IN (SELECT j.community_id FROM routing_routemapentry_match_community j JOIN routing_routemapentry e ON e.id = j.routemapentry_id WHERE e.route_map_id = ANY($1))
         OR c.id IN (SELECT le.community_id FROM routing_communitylistentry le
                       JOIN routing_routemapentry_match_community_list j ON j.communitylist_id = le.community_list_id
                       JOIN routing_routemapentry e ON e.id = j.routemapentry_id WHERE e.route_map_id = ANY($1))
      ORDER BY c.community`,
    [routeMapIds],
  )) as CommunityContext[];
  return {
    route_maps: routeMaps.map((routeMap) => ({
      ...routeMap,
      entries: entries
        .filter((entry) => entry.route_map_id === routeMap.id)
        .map(({ route_map_id: _, ...entry }) => ({ ...entry, sequence: Number(entry.sequence) })),
    })),
    prefix_lists: prefixLists.map((list) => ({
      ...list,
      entries: list.entries.map((entry) => ({ ...entry, sequence: Number(entry.sequence) })),
    })),
    communities,
  };
}
