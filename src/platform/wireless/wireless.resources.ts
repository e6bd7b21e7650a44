import type { EntityManager } from 'typeorm';
import { WIRELESS_INTERFACE_TYPE_CHOICES } from '../dcim/dcim.choices';
import { throughFilter } from '../framework/resource/extra-filters';
import { choice, decimal, genericRelation, longText, relation, text } from '../framework/resource/fields';
import { defineOrganizationalResource } from '../framework/resource/organizational';
import { defineResource } from '../framework/resource/resource-definition';
import { VlanResource } from '../ipam/ipam.resources';
import { TenantResource } from '../tenancy/tenancy.resources';

const authenticationFields = () => ({
  auth_type: choice(
    [
      ['open', 'Open'],
      ['wep', 'WEP'],
      ['wpa-personal', 'WPA Personal (PSK)'],
      ['wpa-enterprise', 'WPA Enterprise'],
    ],
    { blank: true, label: 'authentication type' },
  ),
  auth_cipher: choice(
    [
      ['auto', 'Auto'],
      ['tkip', 'TKIP'],
      ['aes', 'AES'],
    ],
    { blank: true, label: 'authentication cipher' },
  ),
  auth_psk: text({ maxLength: 64, secret: true, label: 'pre-shared key' }),
});

/** Nested groups of wireless LANs. */
export const WirelessLanGroupResource = defineOrganizationalResource({
  appLabel: 'wireless',
  model: 'wirelesslangroup',
  path: 'wireless-lan-groups',
  verboseName: 'wireless LAN group',
  graphqlName: 'wireless_lan_group',
  table: 'wireless_wirelesslangroup',
  tree: true,
  fields: { comments: longText({ search: true }) },
});

/** A wireless network (SSID), optionally scoped to a region, site group, site or location. */
export const WirelessLanResource = defineResource({
  appLabel: 'wireless',
  model: 'wirelesslan',
  path: 'wireless-lans',
  verboseName: 'wireless LAN',
  graphqlName: 'wireless_lan',
  table: 'wireless_wirelesslan',
  fields: {
    ssid: text({ maxLength: 32, required: true, search: true, label: 'SSID' }),
    group: relation(() => WirelessLanGroupResource, { onDelete: 'SET NULL' }),
    status: choice(
      [
        ['active', 'Active', 'green'],
        ['reserved', 'Reserved', 'cyan'],
        ['disabled', 'Disabled', 'orange'],
        ['deprecated', 'Deprecated', 'red'],
      ],
      { default: 'active' },
    ),
    vlan: relation(() => VlanResource, { onDelete: 'PROTECT', label: 'VLAN' }),
    scope: genericRelation({ onDelete: 'CASCADE', allowedTypes: ['dcim.region', 'dcim.sitegroup', 'dcim.site', 'dcim.location'] }),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    ...authenticationFields(),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.ssid),
  brief: ['ssid', 'description'],
  ordering: ['ssid', 'id'],
});

const WIRELESS_TYPES: readonly string[] = WIRELESS_INTERFACE_TYPE_CHOICES.map(([value]) => value);

/** Both ends of a wireless link are wireless interfaces, and not the same one. */
async function wirelessLinkRules(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {};
  for (const end of ['interface_a', 'interface_b'] as const) {
    const [found] = (await manager.query('SELECT type FROM dcim_interface WHERE id = $1', [values[`${end}_id`]])) as Array<{
      type: string;
    }>;
    if (found && !WIRELESS_TYPES.includes(found.type)) problems[end] = [`${found.type} is not a wireless interface.`];
  }
  if (values.interface_a_id != null && values.interface_a_id === values.interface_b_id) {
    problems.interface_b = ['A wireless link joins two different interfaces.'];
  }
  return problems;
}

/** A point-to-point wireless connection between two device interfaces. */
export const WirelessLinkResource = defineResource({
  appLabel: 'wireless',
  model: 'wirelesslink',
  path: 'wireless-links',
  verboseName: 'wireless link',
  graphqlName: 'wireless_link',
  table: 'wireless_wirelesslink',
  fields: {
    interface_a: relation('dcim.interface', { onDelete: 'CASCADE', required: true }),
    interface_b: relation('dcim.interface', { onDelete: 'CASCADE', required: true }),
    ssid: text({ maxLength: 32, search: true, label: 'SSID' }),
    status: choice(
      [
        ['connected', 'Connected'],
        ['planned', 'Planned'],
        ['decommissioning', 'Decommissioning'],
      ],
      { default: 'connected' },
    ),
    tenant: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    ...authenticationFields(),
    distance: decimal({ precision: 8, scale: 2, min: 0, nullable: true }),
    distance_unit: choice(
      [
        ['km', 'Kilometers'],
        ['m', 'Meters'],
        ['mi', 'Miles'],
        ['ft', 'Feet'],
      ],
      { blank: true },
    ),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => (row.ssid ? String(row.ssid) : `#${String(row.id)}`),
  brief: ['ssid', 'description'],
  ordering: ['id'],
  uniqueTogether: [['interface_a', 'interface_b']],
  validate: (values): Record<string, string[]> =>
    values.distance != null && !values.distance_unit ? { distance_unit: ['Must specify a unit when setting a wireless distance'] } : {},
  validateAsync: wirelessLinkRules,
  extraFilters: {
    device_id: throughFilter(
      'id',
      `SELECT l.id FROM wireless_wirelesslink l JOIN dcim_interface i ON i.id IN (l.interface_a_id, l.interface_b_id) WHERE i.device_id IN (:values)`,
    ),
  },
});
