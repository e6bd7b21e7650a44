import type { EntityManager } from 'typeorm';

/** IEEE 802.1Q tagging of a device or VM interface (NetBox's InterfaceModeChoices). */
export const INTERFACE_MODE_CHOICES = [
  ['access', 'Access'],
  ['tagged', 'Tagged'],
  ['tagged-all', 'Tagged (All)'],
  ['q-in-q', 'Q-in-Q (802.1ad)'],
] as const;

/** Where an interface's VLANs are checked against: its parent's table and the interface's tagged-VLAN join table. */
export interface InterfaceVlanSubject {
  /** `device` or `virtual machine`, as the messages name the parent. */
  parentNoun: string;
  parentTable: string;
  /** The interface's column naming its parent (`device_id`). */
  parentColumn: string;
  /** `dcim_interface_tagged_vlans` */
  taggedTable: string;
  /** The join table's column naming the interface (`interface_id`). */
  taggedColumn: string;
  /**
   * Device interfaces: NetBox's serializer refuses VLANs the mode does not carry (no mode: no untagged
   * or tagged VLANs; access and tagged-all: no tagged VLANs) and words the Q-in-Q refusal its own way.
   */
  modeChecks: boolean;
}

type Problems = Record<string, string[]>;

const idOf = (value: unknown): number => Number(typeof value === 'object' && value !== null ? (value as { id: unknown }).id : value);

/**
 * NetBox's 802.1Q rules for an interface as it would be after the write (`values`, with the body's
 * `tagged_vlans` or else the stored ones): a service VLAN only in Q-in-Q mode, VLANs the mode carries,
 * and untagged and tagged VLANs global or on the parent's site.
 */
export async function interfaceVlanProblems(
  manager: EntityManager,
  subject: InterfaceVlanSubject,
  values: Record<string, unknown>,
  body: Record<string, unknown>,
): Promise<Problems> {
  const mode = (values.mode as string | null | undefined) || null;
  let tagged: number[];
  if (Array.isArray(body.tagged_vlans)) tagged = body.tagged_vlans.map(idOf);
  else if (values.id === undefined) tagged = [];
  else {
    const rows = (await manager.query(`SELECT vlan_id FROM ${subject.taggedTable} WHERE ${subject.taggedColumn} = $1`, [
      values.id,
    ])) as Array<{
      vlan_id: number;
    }>;
    tagged = rows.map((row) => row.vlan_id);
  }

  const problems: Problems = {};
  if (values.qinq_svlan_id != null && mode !== 'q-in-q') {
    problems.qinq_svlan = [
      subject.modeChecks ? 'Interface mode does not support q-in-q service vlan' : 'Only Q-in-Q interfaces may specify a service VLAN.',
    ];
  }
  if (subject.modeChecks) {
    if (!mode && values.untagged_vlan_id != null) problems.untagged_vlan = ['Interface mode does not support untagged vlan'];
    if ((!mode || mode === 'access' || mode === 'tagged-all') && tagged.length > 0) {
      problems.tagged_vlans = ['Interface mode does not support tagged vlans'];
    }
  }
  if (Object.keys(problems).length > 0) return problems;

  const untagged = values.untagged_vlan_id == null ? [] : [Number(values.untagged_vlan_id)];
  if (untagged.length + tagged.length === 0 || values[subject.parentColumn] == null) return problems;
  const [parent] = (await manager.query(`SELECT site_id FROM ${subject.parentTable} WHERE id = $1`, [
    values[subject.parentColumn],
  ])) as Array<{
    site_id: number | null;
  }>;
  const elsewhere = (await manager.query(
    `SELECT id, name, vid FROM ipam_vlan WHERE id = ANY($1) AND site_id IS NOT NULL AND site_id IS DISTINCT FROM $2`,
    [[...untagged, ...tagged], parent?.site_id ?? null],
  )) as Array<{ id: number; name: string; vid: number }>;
  const onSite = `must belong to the same site as the interface's parent ${subject.parentNoun}, or it must be global.`;
  for (const vlan of elsewhere) {
    if (untagged.includes(vlan.id)) problems.untagged_vlan = [`The untagged VLAN (${vlan.name} (${vlan.vid})) ${onSite}`];
    if (tagged.includes(vlan.id)) problems.tagged_vlans = [`VLAN ${vlan.name} (${vlan.vid}) ${onSite}`];
  }
  return problems;
}
