import { compileGlob, evaluatePolicy, globProblem, IssuancePolicy, IssuanceRequest, parseCidr } from './issuance-policy';

const OPEN: IssuancePolicy = {
  cnPatterns: ['**'],
  sanDnsPatterns: ['**'],
  sanIpCidrs: ['0.0.0.0/0', '::/0'],
  sanEmailDomains: ['example.com'],
  allowedCaIds: [1],
  allowedCertificateTypes: ['server', 'client', 'dual_purpose'],
  maxValidityDays: 90,
  boundDeviceIds: [],
  boundDeviceTags: [],
  boundDeviceRoles: [],
};

const REQUEST: IssuanceRequest = {
  certificateType: 'server',
  caId: 1,
  commonName: 'www.example.com',
  dns: [],
  ip: [],
  email: [],
  validDays: 30,
};

describe('compileGlob', () => {
  it.each([
    ['*.example.com', 'www.example.com', true],
    ['*.example.com', 'WWW.Example.COM', true],
    ['*.example.com', 'a.b.example.com', false],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'www.example.org', false],
    ['**.example.com', 'a.b.example.com', true],
    ['**.example.com', 'example.com', false],
    ['web-?.example.com', 'web-1.example.com', true],
    ['web-?.example.com', 'web-10.example.com', false],
    ['api.example.com', 'api.example.com', true],
    ['api.example.com', 'apixexample.com', false],
    ['svc-*', 'svc-payments', true],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(compileGlob(pattern).test(name)).toBe(expected);
  });

  it('refuses unusable patterns', () => {
    expect(globProblem('')).toBeDefined();
    expect(globProblem('a b')).toBeDefined();
    expect(globProblem('[ab].example.com')).toBeDefined();
    expect(globProblem('***.example.com')).toBeDefined();
    expect(globProblem('**.example.com')).toBeUndefined();
  });
});

describe('parseCidr', () => {
  it('accepts networks and refuses host bits, bad prefixes and non-addresses', () => {
    expect(parseCidr('10.0.0.0/30')).toEqual({ address: '10.0.0.0', prefix: 30, family: 'ipv4' });
    expect(parseCidr('2001:db8::/32')).toEqual({ address: '2001:db8::', prefix: 32, family: 'ipv6' });
    expect(parseCidr('10.0.0.3/30')).toBe('has host bits set for /30');
    expect(parseCidr('2001:db8::1/64')).toBe('has host bits set for /64');
    expect(typeof parseCidr('10.0.0.0/33')).toBe('string');
    expect(typeof parseCidr('10.0.0.0')).toBe('string');
    expect(typeof parseCidr('example.com/24')).toBe('string');
    expect(parseCidr('192.0.2.7/32')).toEqual({ address: '192.0.2.7', prefix: 32, family: 'ipv4' });
  });
});

describe('evaluatePolicy', () => {
  it('allows what the policy allows', () => {
    expect(evaluatePolicy(OPEN, REQUEST)).toBeNull();
  });

  it.each<[string, Partial<IssuancePolicy>, Partial<IssuanceRequest>, Partial<IssuanceRequest>, { field: string; value: string | number }]>(
    [
      [
        'certificate type',
        { allowedCertificateTypes: ['server'] },
        {},
        { certificateType: 'client' },
        { field: 'allowed_certificate_types', value: 'client' },
      ],
      ['CA', { allowedCaIds: [1] }, {}, { caId: 2 }, { field: 'allowed_ca_ids', value: 2 }],
      [
        'common name',
        { cnPatterns: ['*.example.com'] },
        {},
        { commonName: 'www.example.org' },
        { field: 'cn_patterns', value: 'www.example.org' },
      ],
      [
        'DNS SAN',
        { sanDnsPatterns: ['*.example.com'] },
        { dns: ['api.example.com'] },
        { dns: ['api.example.org'] },
        { field: 'san_dns_patterns', value: 'api.example.org' },
      ],
      ['IP SAN', { sanIpCidrs: ['10.0.0.0/30'] }, { ip: ['10.0.0.3'] }, { ip: ['10.0.0.4'] }, { field: 'san_ip_cidrs', value: '10.0.0.4' }],
      [
        'IPv6 SAN',
        { sanIpCidrs: ['2001:db8::/126'] },
        { ip: ['2001:db8::3'] },
        { ip: ['2001:db8::4'] },
        { field: 'san_ip_cidrs', value: '2001:db8::4' },
      ],
      [
        'email SAN',
        { sanEmailDomains: ['Example.com'] },
        { email: ['ops@EXAMPLE.com'] },
        { email: ['ops@example.org'] },
        { field: 'san_email_domains', value: 'ops@example.org' },
      ],
      ['validity', { maxValidityDays: 30 }, { validDays: 30 }, { validDays: 31 }, { field: 'max_validity_days', value: 31 }],
    ],
  )('%s: allows one value and rejects its neighbour', (_name, policy, allowed, rejected, violation) => {
    const tight = { ...OPEN, ...policy };
    expect(evaluatePolicy(tight, { ...REQUEST, ...allowed })).toBeNull();
    expect(evaluatePolicy(tight, { ...REQUEST, ...rejected })).toEqual(violation);
  });

  it('denies a whole kind when its list is empty', () => {
    expect(evaluatePolicy({ ...OPEN, sanIpCidrs: [] }, { ...REQUEST, ip: ['10.0.0.1'] })).toEqual({
      field: 'san_ip_cidrs',
      value: '10.0.0.1',
    });
    expect(evaluatePolicy({ ...OPEN, allowedCaIds: [] }, REQUEST)).toEqual({ field: 'allowed_ca_ids', value: 1 });
  });

  it('leaves the names of a policy bound to the inventory to the inventory, and still checks type, CA and validity', () => {
    const bound: IssuancePolicy = {
      ...OPEN,
      cnPatterns: [],
      sanDnsPatterns: [],
      sanIpCidrs: [],
      sanEmailDomains: [],
      allowedCertificateTypes: ['server'],
      boundDeviceTags: ['pki'],
    };
    expect(evaluatePolicy(bound, { ...REQUEST, ip: ['10.0.0.1'] })).toBeNull();
    expect(evaluatePolicy(bound, { ...REQUEST, certificateType: 'client' })).toEqual({
      field: 'allowed_certificate_types',
      value: 'client',
    });
    expect(evaluatePolicy(bound, { ...REQUEST, validDays: 91 })).toEqual({ field: 'max_validity_days', value: 91 });
  });

  it('reports the first failing constraint in the documented order', () => {
    const everythingWrong: IssuanceRequest = {
      certificateType: 'client',
      caId: 9,
      commonName: 'bad',
      dns: ['bad.org'],
      ip: ['1.1.1.1'],
      email: ['a@bad.org'],
      validDays: 999,
    };
    const policy: IssuancePolicy = {
      ...OPEN,
      allowedCertificateTypes: ['server'],
      allowedCaIds: [1],
      cnPatterns: ['ok'],
      sanDnsPatterns: ['ok'],
      sanIpCidrs: ['10.0.0.0/8'],
      maxValidityDays: 1,
    };
    const order = [
      'allowed_certificate_types',
      'allowed_ca_ids',
      'cn_patterns',
      'san_dns_patterns',
      'san_ip_cidrs',
      'san_email_domains',
      'max_validity_days',
    ];
    let request = everythingWrong;
    const fixes: Array<Partial<IssuanceRequest>> = [
      { certificateType: 'server' },
      { caId: 1 },
      { commonName: 'ok' },
      { dns: ['ok'] },
      { ip: ['10.1.2.3'] },
      { email: ['a@example.com'] },
      { validDays: 1 },
    ];
    order.forEach((field, index) => {
      expect(evaluatePolicy(policy, request)?.field).toBe(field);
      request = { ...request, ...fixes[index] };
    });
    expect(evaluatePolicy(policy, request)).toBeNull();
  });

  it('lets the common name through as a DNS SAN on the strength of cn_patterns', () => {
    const policy = { ...OPEN, cnPatterns: ['www.example.com'], sanDnsPatterns: [] };
    expect(evaluatePolicy(policy, { ...REQUEST, dns: ['www.example.com'] })).toBeNull();
  });
});
