import { countRows, PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const I = '/api/ipam';
const RIRS = `${I}/rirs/`;
const ASNS = `${I}/asns/`;
const VRFS = `${I}/vrfs/`;
const VLANS = `${I}/vlans/`;
const PREFIXES = `${I}/prefixes/`;
const IPS = `${I}/ip-addresses/`;
const INTERFACES = '/api/dcim/interfaces/';
const DEVICES = '/api/dcim/devices/';
const TENANTS = '/api/tenancy/tenants/';

/**
 * IPAM as NetBox 4 has it: RIRs, 32-bit ASNs, VRFs, VLANs, prefixes (network validation and
 * normalisation) and IP addresses (assigned to interfaces); CRUD, the network filters (within,
 * parent, contains, family), nested reads, validation errors and PROTECT on delete.
 */
describe('platform IPAM: RIRs, ASNs, VRFs, VLANs, prefixes, IP addresses', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  let base: string;
  const fx: Record<string, any> = {};

  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);
  const listed = (path: string, attribute: string) => api.listed(path, attribute);
  const url = (path: string, id: number) => `${base}${path}${id}/`;

  beforeAll(async () => {
    ({ seeded, api, base } = await startPlatformApp());
    fx.arin = await api.created(RIRS, { name: 'ARIN', slug: 'arin' });
    fx.rfc = await api.created(RIRS, { name: 'RFC 1918', slug: 'rfc-1918', is_private: true });
    fx.acme = await api.created(TENANTS, { name: 'Acme', slug: 'acme' });
    const site = await api.created('/api/dcim/sites/', { name: 'DC1', slug: 'dc1' });
    const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'MX204', slug: 'mx204' });
    const role = await api.created('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
    fx.router = await api.created(DEVICES, { name: 'rtr1', device_type: deviceType.id, role: role.id, site: site.id });
    fx.lo0 = await api.created(INTERFACES, { device: fx.router.id, name: 'lo0', type: 'virtual' });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('RIRs and ASNs', () => {
    it('RIRs: is_private, unique name and slug', async () => {
      expect(fx.rfc).toMatchObject({ display: 'RFC 1918', is_private: true });
      expect(fx.arin.is_private).toBe(false);
      const duplicate = await api.post(RIRS, { name: 'ARIN', slug: 'arin' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ name: ['RIR with this name already exists.'], slug: ['RIR with this slug already exists.'] });
      expect(await listed(`${RIRS}?is_private=true`, 'name')).toEqual(['RFC 1918']);
    });

    it('ASNs are 32-bit: 1..4294967295 stored and read back exactly; 0 and 4294967296 are 400s', async () => {
      const top = await api.created(ASNS, { asn: 4294967295, rir: fx.arin.id, description: 'largest' });
      expect(top).toMatchObject({
        asn: 4294967295,
        display: 'AS4294967295',
        rir: { id: fx.arin.id, url: url(RIRS, fx.arin.id), name: 'ARIN', slug: 'arin' },
      });
      expect((await seeded.db.query('SELECT asn::text AS asn FROM ipam_asn WHERE id = $1', [top.id])).rows).toEqual([
        { asn: '4294967295' },
      ]);
      const private32 = await api.created(ASNS, { asn: '4200000000', rir: fx.rfc.id, tenant: fx.acme.id });
      expect(private32).toMatchObject({ asn: 4200000000, tenant: { id: fx.acme.id, slug: 'acme' } });
      fx.as65000 = await api.created(ASNS, { asn: 65000, rir: fx.rfc.id });
      fx.as1 = await api.created(ASNS, { asn: 1, rir: fx.arin.id });

      const before = await count('ipam_asn');
      for (const [asn, message] of [
        [4294967296, 'Ensure this value is less than or equal to 4294967295.'],
        [0, 'Ensure this value is greater than or equal to 1.'],
        [-5, 'Ensure this value is greater than or equal to 1.'],
        ['AS65001', 'A valid integer is required.'],
      ] as const) {
        const response = await api.post(ASNS, { asn, rir: fx.arin.id });
        expect({ asn, status: response.status, body: response.body }).toEqual({ asn, status: 400, body: { asn: [message] } });
      }
      const noRir = await api.post(ASNS, { asn: 65100 });
      expect(noRir.status).toBe(400);
      expect(noRir.body).toEqual({ rir: ['This field is required.'] });
      expect(await count('ipam_asn')).toBe(before);
    });

    it('filters ASNs by asn (exact and ranges beyond 2^31), rir and tenant', async () => {
      expect(await listed(`${ASNS}?asn=4294967295`, 'asn')).toEqual([4294967295]);
      expect(await listed(`${ASNS}?asn__gte=4200000000`, 'asn')).toEqual([4200000000, 4294967295]);
      expect(await listed(`${ASNS}?asn__lt=65001`, 'asn')).toEqual([1, 65000]);
      expect(await listed(`${ASNS}?rir=rfc-1918`, 'asn')).toEqual([65000, 4200000000]);
      expect(await listed(`${ASNS}?tenant=acme`, 'asn')).toEqual([4200000000]);
      const bad = await api.get(`${ASNS}?asn=big`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ asn: ['Enter a whole number.'] });
    });

    it('an ASN is unique ("ASN with this ASN already exists.", as NetBox’s verbose name)', async () => {
      const response = await api.post(ASNS, { asn: 65000, rir: fx.arin.id });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['asn']);
      expect(response.body).toEqual({ asn: ['ASN with this ASN already exists.'] });
    });

    it('PROTECT: a RIR with ASNs cannot be deleted (409 naming the ASN)', async () => {
      const response = await api.delete(`${RIRS}${fx.rfc.id}/`);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*ASN AS65000/) });
      expect(await count('ipam_rir', 'WHERE id = $1', [fx.rfc.id])).toBe(1);
    });
  });

  describe('VRFs and VLANs', () => {
    it('VRFs: rd optional but unique; enforce_unique defaults to true', async () => {
      fx.blue = await api.created(VRFS, { name: 'blue', rd: '65000:1', tenant: fx.acme.id });
      expect(fx.blue).toMatchObject({ display: 'blue', rd: '65000:1', enforce_unique: true, tenant: { id: fx.acme.id } });
      // Several VRFs without a route distinguisher are fine.
      const red = await api.created(VRFS, { name: 'red' });
      const green = await api.created(VRFS, { name: 'green', rd: null, enforce_unique: false });
      expect([red.rd, green.rd, green.enforce_unique]).toEqual([null, null, false]);
      const tooLong = await api.post(VRFS, { name: 'long', rd: '4294967295:42949672950' });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body).toEqual({ rd: ['Ensure this field has no more than 21 characters.'] });
      expect(await listed(`${VRFS}?rd=65000:1`, 'name')).toEqual(['blue']);
      expect(await listed(`${VRFS}?rd__empty=true`, 'name')).toEqual(['green', 'red']);

      const duplicate = await api.post(VRFS, { name: 'blue-2', rd: '65000:1' });
      expect(duplicate.status).toBe(400);
      expect(await count('ipam_vrf', `WHERE rd = '65000:1'`)).toBe(1);
      expect(duplicate.body).toEqual({ rd: ['VRF with this route distinguisher already exists.'] });
    });

    it('VLANs: vid 1..4094; display "name (vid)"; status choices', async () => {
      const low = await api.created(VLANS, { vid: 1, name: 'default' });
      const high = await api.created(VLANS, { vid: 4094, name: 'top', status: 'reserved', tenant: fx.acme.id });
      expect(low).toMatchObject({ vid: 1, display: 'default (1)', status: { value: 'active', label: 'Active' } });
      expect(high).toMatchObject({ vid: 4094, status: { value: 'reserved', label: 'Reserved' }, tenant: { id: fx.acme.id } });
      fx.vlan100 = await api.created(VLANS, { vid: 100, name: 'servers' });
      const before = await count('ipam_vlan');
      for (const [vid, message] of [
        [0, 'Ensure this value is greater than or equal to 1.'],
        [4095, 'Ensure this value is less than or equal to 4094.'],
      ] as const) {
        const response = await api.post(VLANS, { vid, name: `v${vid}` });
        expect({ vid, status: response.status, body: response.body }).toEqual({ vid, status: 400, body: { vid: [message] } });
      }
      const status = await api.post(VLANS, { vid: 200, name: 'x', status: 'container' });
      expect(status.status).toBe(400);
      expect(status.body).toEqual({ status: ['"container" is not a valid choice.'] });
      expect(await count('ipam_vlan')).toBe(before);
      expect(await listed(`${VLANS}?vid__gte=100`, 'vid')).toEqual([100, 4094]);
    });
  });

  describe('prefixes', () => {
    beforeAll(async () => {
      for (const prefix of ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '192.168.0.0/16', '2001:db8::/32', '2001:db8:1::/48']) {
        fx[prefix] = await api.created(PREFIXES, { prefix });
      }
    });

    it('stores a network prefix in its canonical form, with VRF, VLAN and tenant nested', async () => {
      const response = await api.post(PREFIXES, {
        prefix: '172.16.0.0/12',
        vrf: fx.blue.id,
        vlan: fx.vlan100.id,
        tenant: fx.acme.id,
        status: 'container',
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        prefix: '172.16.0.0/12',
        display: '172.16.0.0/12',
        status: { value: 'container', label: 'Container' },
        vrf: { id: fx.blue.id, url: url(VRFS, fx.blue.id), display: 'blue', name: 'blue', rd: '65000:1' },
        vlan: { id: fx.vlan100.id, display: 'servers (100)', vid: 100, name: 'servers' },
        tenant: { id: fx.acme.id, name: 'Acme' },
      });
      expect((await seeded.db.query('SELECT prefix::text AS prefix FROM ipam_prefix WHERE id = $1', [response.body.id])).rows).toEqual([
        { prefix: '172.16.0.0/12' },
      ]);
      expect(fx['10.0.0.0/8']).toMatchObject({ prefix: '10.0.0.0/8', vrf: null, status: { value: 'active', label: 'Active' } });
    });

    it('normalises IPv6 prefixes to lower case and compressed form (the longest zero run becomes ::)', async () => {
      const response = await api.post(PREFIXES, { prefix: '2001:DB8:0:0:ABCD:0:0:0/80' });
      expect(response.status).toBe(201);
      expect(response.body.prefix).toBe('2001:db8:0:0:abcd::/80');
      const upper = await api.post(PREFIXES, { prefix: '2001:DB8::/32', description: 'second copy' });
      expect(upper.status).toBe(201);
      expect(upper.body.prefix).toBe('2001:db8::/32');
      expect((await seeded.db.query('SELECT prefix::text AS prefix FROM ipam_prefix WHERE id = $1', [upper.body.id])).rows).toEqual([
        { prefix: '2001:db8::/32' },
      ]);
    });

    it('refuses host bits, a missing mask, garbage and an out-of-range length, with clear messages; nothing written', async () => {
      const before = await count('ipam_prefix');
      const hostBits = await api.post(PREFIXES, { prefix: '10.0.0.1/24' });
      expect(hostBits.status).toBe(400);
      expect(hostBits.body).toEqual({ prefix: [expect.stringMatching(/host bits/)] });
      expect(hostBits.body.prefix[0]).toContain('10.0.0.0/24');
      const noMask = await api.post(PREFIXES, { prefix: '10.0.0.0' });
      expect(noMask.status).toBe(400);
      expect(noMask.body).toEqual({ prefix: ['CIDR mask (e.g. /24) is required.'] });
      const garbage = await api.post(PREFIXES, { prefix: 'banana' });
      expect(garbage.status).toBe(400);
      expect(garbage.body).toEqual({ prefix: ['Enter a valid IPv4 or IPv6 prefix (e.g. 10.0.0.0/24 or 2001:db8::/32).'] });
      const length = await api.post(PREFIXES, { prefix: '10.0.0.0/33' });
      expect(length.status).toBe(400);
      expect(length.body).toEqual({ prefix: ['Prefix length must be between 0 and 32 for an IPv4 address.'] });
      const missing = await api.post(PREFIXES, { status: 'active' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ prefix: ['This field is required.'] });
      expect(await count('ipam_prefix')).toBe(before);
    });

    // NetBox's Prefix.clean(): "Cannot create prefix with /0 mask."
    it('refuses a /0 prefix', async () => {
      const response = await api.post(PREFIXES, { prefix: '0.0.0.0/0' });
      // Remove a wrongly accepted prefix at once: it would contain every IPv4 prefix of the other tests.
      if (response.status === 201) await api.delete(`${PREFIXES}${response.body.id}/`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ prefix: [expect.stringMatching(/\/0 mask/)] });
    });

    it('parent= and within_include= select the prefix itself and those inside; contains= those around an address or prefix', async () => {
      const v4 = ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24'];
      expect(await listed(`${PREFIXES}?parent=10.0.0.0/8`, 'prefix')).toEqual(v4);
      expect(await listed(`${PREFIXES}?within_include=10.0.0.0/8`, 'prefix')).toEqual(v4);
      expect(await listed(`${PREFIXES}?parent=10.1.0.0/16&parent=192.168.0.0/16`, 'prefix')).toEqual([
        '10.1.0.0/16',
        '10.1.2.0/24',
        '192.168.0.0/16',
      ]);
      expect(await listed(`${PREFIXES}?contains=10.1.2.3`, 'prefix')).toEqual(v4);
      expect(await listed(`${PREFIXES}?contains=10.1.0.0/16`, 'prefix')).toEqual(['10.0.0.0/8', '10.1.0.0/16']);
      expect(await listed(`${PREFIXES}?contains=2001:db8:1::5`, 'prefix')).toEqual(['2001:db8::/32', '2001:db8::/32', '2001:db8:1::/48']);
      expect(await listed(`${PREFIXES}?prefix=10.1.0.0/16`, 'prefix')).toEqual(['10.1.0.0/16']);
    });

    // NetBox: within = net_contained (strictly inside), within_include = net_contained_or_equal.
    it('within= selects only the prefixes strictly inside (not the prefix itself)', async () => {
      expect(await listed(`${PREFIXES}?within=10.0.0.0/8`, 'prefix')).toEqual(['10.1.0.0/16', '10.1.2.0/24']);
    });

    it('family=4|6; any bad network or family value is a 400 naming the parameter', async () => {
      expect(await listed(`${PREFIXES}?family=6&parent=2001:db8::/32`, 'prefix')).toEqual([
        '2001:db8::/32',
        '2001:db8::/32',
        '2001:db8:0:0:abcd::/80',
        '2001:db8:1::/48',
      ]);
      expect(await listed(`${PREFIXES}?family=4&parent=10.0.0.0/8`, 'prefix')).toHaveLength(3);
      for (const [query, param] of [
        ['family=5', 'family'],
        ['within=banana', 'within'],
        ['within=10.0.0.1/8', 'within'],
        ['parent=10.0.0.0/40', 'parent'],
        ['contains=10.1.2.300', 'contains'],
        ['within_include=', null],
      ] as const) {
        const response = await api.get(`${PREFIXES}?${query}`);
        if (param === null) {
          expect({ query, status: response.status }).toEqual({ query, status: 200 });
          continue;
        }
        expect({ query, status: response.status, body: response.body }).toEqual({
          query,
          status: 400,
          body: { [param]: [expect.any(String)] },
        });
      }
    });

    it('PROTECT: a VRF, VLAN or tenant used by a prefix cannot be deleted (409)', async () => {
      for (const path of [`${VRFS}${fx.blue.id}/`, `${VLANS}${fx.vlan100.id}/`]) {
        const response = await api.delete(path);
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 409,
          body: { detail: expect.stringMatching(/^Unable to delete object\. .*prefix 172\.16\.0\.0\/12/) },
        });
      }
    });
  });

  describe('IP addresses', () => {
    beforeAll(async () => {
      fx.ip1 = await api.created(IPS, { address: '10.0.0.1/24', dns_name: 'gw.example.com', description: 'gateway' });
      fx.ip2 = await api.created(IPS, { address: '10.0.0.2' });
      fx.ip3 = await api.created(IPS, { address: '10.0.0.7/16', status: 'dhcp' });
      fx.ip4 = await api.created(IPS, { address: '10.0.1.1/24', role: 'vip' });
      fx.ip6 = await api.created(IPS, { address: '2001:DB8::1/64' });
    });

    it('keeps the address with its mask as given; a bare address gets /32 (IPv4) or /128 (IPv6)', async () => {
      expect(fx.ip1).toMatchObject({
        address: '10.0.0.1/24',
        display: '10.0.0.1/24',
        dns_name: 'gw.example.com',
        status: { value: 'active', label: 'Active' },
        role: null,
      });
      expect(fx.ip2.address).toBe('10.0.0.2/32');
      expect(fx.ip6.address).toBe('2001:db8::1/64');
      const bare6 = await api.created(IPS, { address: '2001:db8::99' });
      expect(bare6.address).toBe('2001:db8::99/128');
      expect(fx.ip3.status).toEqual({ value: 'dhcp', label: 'DHCP' });
      expect(fx.ip4.role).toEqual({ value: 'vip', label: 'VIP' });
      const stored = await seeded.db.query('SELECT address::text AS address FROM ipam_ipaddress WHERE id = ANY($1) ORDER BY id', [
        [fx.ip1.id, fx.ip2.id, fx.ip6.id],
      ]);
      expect(stored.rows).toEqual([{ address: '10.0.0.1/24' }, { address: '10.0.0.2/32' }, { address: '2001:db8::1/64' }]);
      const read = await api.get(`${IPS}${fx.ip1.id}/`);
      expect(read.body.address).toBe('10.0.0.1/24');
    });

    it('refuses an invalid address with a clear message, and bad choices and DNS names; nothing written', async () => {
      const before = await count('ipam_ipaddress');
      for (const address of ['999.1.1.1/24', '10.0.0.1/33', 'not-an-ip', '10.0.0']) {
        const response = await api.post(IPS, { address });
        expect({ address, status: response.status, keys: Object.keys(response.body) }).toEqual({ address, status: 400, keys: ['address'] });
      }
      const invalid = await api.post(IPS, { address: '999.1.1.1/24' });
      expect(invalid.body).toEqual({ address: ['Enter a valid IPv4 or IPv6 address with optional mask.'] });
      const choices = await api.post(IPS, { address: '10.9.9.9/24', status: 'container', role: 'master', dns_name: 'bad name!' });
      expect(choices.status).toBe(400);
      expect(choices.body).toEqual({
        status: ['"container" is not a valid choice.'],
        role: ['"master" is not a valid choice.'],
        dns_name: ['Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names'],
      });
      expect(await count('ipam_ipaddress')).toBe(before);
    });

    // NetBox's IPAddress.clean(): "Cannot create IP address with /0 mask."
    it('refuses an address with a /0 mask', async () => {
      const response = await api.post(IPS, { address: '10.0.0.1/0' });
      if (response.status === 201) await api.delete(`${IPS}${response.body.id}/`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ address: [expect.stringMatching(/\/0 mask/)] });
    });

    it('assigns an address to an interface; reads assigned_object nested with its device', async () => {
      const response = await api.patch(`${IPS}${fx.ip1.id}/`, { assigned_object_type: 'dcim.interface', assigned_object_id: fx.lo0.id });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        assigned_object_type: 'dcim.interface',
        assigned_object_id: fx.lo0.id,
        assigned_object: {
          id: fx.lo0.id,
          url: url(INTERFACES, fx.lo0.id),
          display: 'lo0',
          name: 'lo0',
          device: { id: fx.router.id, url: url(DEVICES, fx.router.id), display: 'rtr1', name: 'rtr1' },
        },
      });
      const stored = await seeded.db.query(
        `SELECT t.app_label || '.' || t.model AS type, a.assigned_object_id FROM ipam_ipaddress a JOIN core_objecttype t ON t.id = a.assigned_object_type_id WHERE a.id = $1`,
        [fx.ip1.id],
      );
      expect(stored.rows).toEqual([{ type: 'dcim.interface', assigned_object_id: fx.lo0.id }]);
      expect(await listed(`${IPS}?assigned_object_type=dcim.interface&assigned_object_id=${fx.lo0.id}`, 'address')).toEqual([
        '10.0.0.1/24',
      ]);
      // The change log relates the address to its interface.
      const change = await seeded.db.query(
        `SELECT rt.app_label || '.' || rt.model AS related, c.related_object_id FROM core_objectchange c
           JOIN core_objecttype rt ON rt.id = c.related_object_type_id WHERE c.request_id = $1`,
        [response.headers.get('x-request-id')],
      );
      expect(change.rows).toEqual([{ related: 'dcim.interface', related_object_id: fx.lo0.id }]);
    });

    it('an assignment to an interface that does not exist, or without its id, is a 400', async () => {
      const missing = await api.post(IPS, { address: '10.5.5.5/32', assigned_object_type: 'dcim.interface', assigned_object_id: 999999 });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ assigned_object_id: ['No interface with ID 999999 exists.'] });
      const half = await api.post(IPS, { address: '10.5.5.5/32', assigned_object_type: 'dcim.interface' });
      expect(half.status).toBe(400);
      expect(half.body).toEqual({ assigned_object_id: ['assigned_object_type and assigned_object_id must be given together.'] });
      expect(await count('ipam_ipaddress', `WHERE address = '10.5.5.5/32'`)).toBe(0);
      const unassigned = await api.patch(`${IPS}${fx.ip4.id}/`, { assigned_object_type: null, assigned_object_id: null });
      expect(unassigned.status).toBe(200);
      expect(unassigned.body).toMatchObject({ assigned_object_type: null, assigned_object_id: null, assigned_object: null });
    });

    // NetBox limits assigned_object_type to IPADDRESS_ASSIGNMENT_MODELS (interfaces, VM interfaces, FHRP groups).
    it('refuses an assignment to an object that cannot hold addresses (a device)', async () => {
      const response = await api.post(IPS, {
        address: '10.6.6.6/32',
        assigned_object_type: 'dcim.device',
        assigned_object_id: fx.router.id,
      });
      if (response.status === 201) await api.delete(`${IPS}${response.body.id}/`);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['assigned_object_type']);
      expect(await count('ipam_ipaddress', `WHERE address = '10.6.6.6/32'`)).toBe(0);
    });

    it('filters by parent (network), address (exact with mask), family and q', async () => {
      expect(await listed(`${IPS}?parent=10.0.0.0/24`, 'address')).toEqual(expect.arrayContaining(['10.0.0.1/24', '10.0.0.2/32']));
      // PostgreSQL's inet order, as NetBox's ('address', 'pk').
      expect(await listed(`${IPS}?parent=10.0.0.0/8&family=4`, 'address')).toEqual([
        '10.0.0.7/16',
        '10.0.0.1/24',
        '10.0.0.2/32',
        '10.0.1.1/24',
      ]);
      expect(await listed(`${IPS}?address=10.0.0.1/24`, 'address')).toEqual(['10.0.0.1/24']);
      expect(await listed(`${IPS}?address=10.0.0.1/24&address=10.0.1.1/24`, 'address')).toEqual(['10.0.0.1/24', '10.0.1.1/24']);
      expect(await listed(`${IPS}?family=6`, 'address')).toEqual(['2001:db8::1/64', '2001:db8::99/128']);
      expect(await listed(`${IPS}?q=gw.example`, 'address')).toEqual(['10.0.0.1/24']);
      expect(await listed(`${IPS}?q=10.0.1.`, 'address')).toEqual(['10.0.1.1/24']);
      expect(await listed(`${IPS}?status=dhcp`, 'address')).toEqual(['10.0.0.7/16']);
      for (const query of ['parent=10.0.0.1/24', 'parent=nope', 'family=10']) {
        const response = await api.get(`${IPS}?${query}`);
        expect({ query, status: response.status, keys: Object.keys(response.body) }).toEqual({
          query,
          status: 400,
          keys: [query.split('=')[0]],
        });
      }
    });

    // NetBox: parent= is net_host_contained (the host part of the address within the prefix, whatever its mask);
    // address= without a mask matches the host (NetIn: HOST(address) IN (…)).
    it('parent= matches by host address whatever the mask; address= without a mask matches the host', async () => {
      expect(await listed(`${IPS}?parent=10.0.0.0/24`, 'address')).toEqual(['10.0.0.7/16', '10.0.0.1/24', '10.0.0.2/32']);
      expect(await listed(`${IPS}?address=10.0.0.1`, 'address')).toEqual(['10.0.0.1/24']);
    });

    it('PROTECT: a VRF used by an address cannot be deleted (409); once the address is gone it can', async () => {
      const red = (await api.get(`${VRFS}?name=red`)).body.results[0];
      const ip = await api.created(IPS, { address: '192.0.2.1/24', vrf: red.id, tenant: fx.acme.id });
      expect(ip.vrf).toMatchObject({ id: red.id, name: 'red' });
      const response = await api.delete(`${VRFS}${red.id}/`);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*IP address 192\.0\.2\.1\/24/) });
      expect((await api.delete(`${IPS}${ip.id}/`)).status).toBe(204);
      expect((await api.delete(`${VRFS}${red.id}/`)).status).toBe(204);
    });
  });
});
