/** NetBox 4.5's choices of the vpn app (vpn/choices.py), as `[value, label]` or `[value, label, color]`. */

export const TUNNEL_STATUS_CHOICES = [
  ['planned', 'Planned', 'cyan'],
  ['active', 'Active', 'green'],
  ['disabled', 'Disabled', 'red'],
] as const;

export const TUNNEL_ENCAPSULATION_CHOICES = [
  ['ipsec-transport', 'IPsec - Transport'],
  ['ipsec-tunnel', 'IPsec - Tunnel'],
  ['ip-ip', 'IP-in-IP'],
  ['gre', 'GRE'],
  ['wireguard', 'WireGuard'],
  ['openvpn', 'OpenVPN'],
  ['l2tp', 'L2TP'],
  ['pptp', 'PPTP'],
] as const;

export const TUNNEL_TERMINATION_ROLE_CHOICES = [
  ['peer', 'Peer', 'green'],
  ['hub', 'Hub', 'blue'],
  ['spoke', 'Spoke', 'orange'],
] as const;

export const IKE_VERSION_CHOICES = [
  ['1', 'IKEv1'],
  ['2', 'IKEv2'],
] as const;

export const IKE_MODE_CHOICES = [
  ['aggressive', 'Aggressive'],
  ['main', 'Main'],
] as const;

export const AUTHENTICATION_METHOD_CHOICES = [
  ['preshared-keys', 'Pre-shared keys'],
  ['certificates', 'Certificates'],
  ['rsa-signatures', 'RSA signatures'],
  ['dsa-signatures', 'DSA signatures'],
] as const;

export const IPSEC_MODE_CHOICES = [
  ['esp', 'ESP'],
  ['ah', 'AH'],
] as const;

export const ENCRYPTION_ALGORITHM_CHOICES = [
  ['aes-128-cbc', '128-bit AES (CBC)'],
  ['aes-128-gcm', '128-bit AES (GCM)'],
  ['aes-192-cbc', '192-bit AES (CBC)'],
  ['aes-192-gcm', '192-bit AES (GCM)'],
  ['aes-256-cbc', '256-bit AES (CBC)'],
  ['aes-256-gcm', '256-bit AES (GCM)'],
  ['3des-cbc', '3DES'],
  ['des-cbc', 'DES'],
] as const;

export const AUTHENTICATION_ALGORITHM_CHOICES = [
  ['hmac-sha1', 'SHA-1 HMAC'],
  ['hmac-sha256', 'SHA-256 HMAC'],
  ['hmac-sha384', 'SHA-384 HMAC'],
  ['hmac-sha512', 'SHA-512 HMAC'],
  ['hmac-md5', 'MD5 HMAC'],
] as const;

/** IANA's IKEv2 Diffie-Hellman group numbers that NetBox offers. */
export const DH_GROUP_CHOICES = [1, 2, 5, ...Array.from({ length: 21 }, (_, index) => index + 14)].map(
  (group) => [String(group), `Group ${group}`] as const,
);

export const L2VPN_TYPE_CHOICES = [
  ['vpws', 'VPWS'],
  ['vpls', 'VPLS'],
  ['vxlan', 'VXLAN'],
  ['vxlan-evpn', 'VXLAN-EVPN'],
  ['mpls-evpn', 'MPLS EVPN'],
  ['pbb-evpn', 'PBB EVPN'],
  ['evpn-vpws', 'EVPN VPWS'],
  ['epl', 'EPL'],
  ['evpl', 'EVPL'],
  ['ep-lan', 'Ethernet Private LAN'],
  ['evp-lan', 'Ethernet Virtual Private LAN'],
  ['ep-tree', 'Ethernet Private Tree'],
  ['evp-tree', 'Ethernet Virtual Private Tree'],
  ['spb', 'SPB'],
] as const;

/** The point-to-point L2VPN types: at most two terminations. */
export const L2VPN_P2P_TYPES: readonly string[] = ['vpws', 'epl', 'ep-lan', 'ep-tree'];

export const L2VPN_STATUS_CHOICES = [
  ['active', 'Active', 'green'],
  ['planned', 'Planned', 'cyan'],
  ['decommissioning', 'Decommissioning', 'red'],
] as const;
