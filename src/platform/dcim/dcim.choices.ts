/** NetBox's DCIM choice sets (the values clients send and filter by). */

export const STATUS_CHOICES = [
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
] as const;

export const DEVICE_STATUS_CHOICES = [
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['inventory', 'Inventory'],
  ['decommissioning', 'Decommissioning'],
] as const;

export const MODULE_STATUS_CHOICES = [
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['decommissioning', 'Decommissioning'],
] as const;

/** Front and rear port connector types: copper, coaxial and every fibre connector NetBox lists. */
export const PORT_TYPE_CHOICES = [
  ['8p8c', '8P8C'],
  ['8p6c', '8P6C'],
  ['8p4c', '8P4C'],
  ['8p2c', '8P2C'],
  ['6p6c', '6P6C'],
  ['6p4c', '6P4C'],
  ['6p2c', '6P2C'],
  ['4p4c', '4P4C'],
  ['4p2c', '4P2C'],
  ['gg45', 'GG45'],
  ['tera-4p', 'TERA 4P'],
  ['tera-2p', 'TERA 2P'],
  ['tera-1p', 'TERA 1P'],
  ['110-punch', '110 Punch'],
  ['bnc', 'BNC'],
  ['f', 'F Connector'],
  ['n', 'N Connector'],
  ['mrj21', 'MRJ21'],
  ['fc', 'FC'],
  ['fc-pc', 'FC/PC'],
  ['fc-upc', 'FC/UPC'],
  ['fc-apc', 'FC/APC'],
  ['lc', 'LC'],
  ['lc-pc', 'LC/PC'],
  ['lc-upc', 'LC/UPC'],
  ['lc-apc', 'LC/APC'],
  ['lsh', 'LSH'],
  ['lsh-pc', 'LSH/PC'],
  ['lsh-upc', 'LSH/UPC'],
  ['lsh-apc', 'LSH/APC'],
  ['lx5', 'LX.5'],
  ['lx5-pc', 'LX.5/PC'],
  ['lx5-upc', 'LX.5/UPC'],
  ['lx5-apc', 'LX.5/APC'],
  ['mpo', 'MPO'],
  ['mtrj', 'MTRJ'],
  ['sc', 'SC'],
  ['sc-pc', 'SC/PC'],
  ['sc-upc', 'SC/UPC'],
  ['sc-apc', 'SC/APC'],
  ['st', 'ST'],
  ['cs', 'CS'],
  ['sn', 'SN'],
  ['sma-905', 'SMA 905'],
  ['sma-906', 'SMA 906'],
  ['urm-p2', 'URM-P2'],
  ['urm-p4', 'URM-P4'],
  ['urm-p8', 'URM-P8'],
  ['splice', 'Splice'],
  ['usb-a', 'USB Type A'],
  ['usb-c', 'USB Type C'],
  ['other', 'Other'],
] as const;

/** NetBox's wireless interface types (WIRELESS_IFACE_TYPES): the ones a wireless link may join. */
export const WIRELESS_INTERFACE_TYPE_CHOICES = [
  ['ieee802.11a', 'IEEE 802.11a'],
  ['ieee802.11g', 'IEEE 802.11b/g'],
  ['ieee802.11n', 'IEEE 802.11n'],
  ['ieee802.11ac', 'IEEE 802.11ac'],
  ['ieee802.11ad', 'IEEE 802.11ad'],
  ['ieee802.11ax', 'IEEE 802.11ax'],
  ['ieee802.11ay', 'IEEE 802.11ay'],
  ['ieee802.11be', 'IEEE 802.11be'],
  ['ieee802.15.1', 'IEEE 802.15.1 (Bluetooth)'],
  ['ieee802.15.4', 'IEEE 802.15.4 (LR-WPAN)'],
  ['other-wireless', 'Other (Wireless)'],
  ['gsm', 'GSM'],
  ['cdma', 'CDMA'],
  ['lte', 'LTE'],
  ['4g', '4G'],
  ['5g', '5G'],
] as const;

export const INTERFACE_TYPE_CHOICES = [
  ['virtual', 'Virtual'],
  ['bridge', 'Bridge'],
  ['lag', 'Link Aggregation Group (LAG)'],
  ['100base-tx', '100BASE-TX (10/100ME)'],
  ['1000base-t', '1000BASE-T (1GE)'],
  ['2.5gbase-t', '2.5GBASE-T (2.5GE)'],
  ['5gbase-t', '5GBASE-T (5GE)'],
  ['10gbase-t', '10GBASE-T (10GE)'],
  ['1000base-x-sfp', 'SFP (1GE)'],
  ['10gbase-x-sfpp', 'SFP+ (10GE)'],
  ['25gbase-x-sfp28', 'SFP28 (25GE)'],
  ['40gbase-x-qsfpp', 'QSFP+ (40GE)'],
  ['100gbase-x-qsfp28', 'QSFP28 (100GE)'],
  ['400gbase-x-qsfpdd', 'QSFP-DD (400GE)'],
  ['400gbase-x-osfp', 'OSFP (400GE)'],
  ...WIRELESS_INTERFACE_TYPE_CHOICES,
  ['other', 'Other'],
] as const;

/** Cable types: copper, direct-attach, coaxial, and single- and multi-mode fibre with their OS/OM grades. */
export const CABLE_TYPE_CHOICES = [
  ['cat3', 'CAT3'],
  ['cat5', 'CAT5'],
  ['cat5e', 'CAT5e'],
  ['cat6', 'CAT6'],
  ['cat6a', 'CAT6a'],
  ['cat7', 'CAT7'],
  ['cat7a', 'CAT7a'],
  ['cat8', 'CAT8'],
  ['dac-active', 'Direct Attach Copper (Active)'],
  ['dac-passive', 'Direct Attach Copper (Passive)'],
  ['mrj21-trunk', 'MRJ21 Trunk'],
  ['coaxial', 'Coaxial'],
  ['mmf', 'Multimode Fiber'],
  ['mmf-om1', 'Multimode Fiber (OM1)'],
  ['mmf-om2', 'Multimode Fiber (OM2)'],
  ['mmf-om3', 'Multimode Fiber (OM3)'],
  ['mmf-om4', 'Multimode Fiber (OM4)'],
  ['mmf-om5', 'Multimode Fiber (OM5)'],
  ['smf', 'Single-mode Fiber'],
  ['smf-os1', 'Single-mode Fiber (OS1)'],
  ['smf-os2', 'Single-mode Fiber (OS2)'],
  ['aoc', 'Active Optical Cabling (AOC)'],
  ['power', 'Power'],
  ['usb', 'USB'],
] as const;

export const CABLE_STATUS_CHOICES = [
  ['connected', 'Connected'],
  ['planned', 'Planned'],
  ['decommissioning', 'Decommissioning'],
] as const;

export const LENGTH_UNIT_CHOICES = [
  ['km', 'Kilometers'],
  ['m', 'Meters'],
  ['cm', 'Centimeters'],
  ['mi', 'Miles'],
  ['ft', 'Feet'],
  ['in', 'Inches'],
] as const;

/** Port positions (strands of a rear port): NetBox allows 1–1024. */
export const MAX_PORT_POSITIONS = 1024;
