import {
  type CertificateProfile,
  isDnsName,
  normalizeDnsName,
  normalizeEmailAddress,
  normalizeIpAddress,
  resolveSubjectAltNames,
  SubjectAltNameError,
  type SubjectAltNames,
} from './subject-alt-names';

const none: SubjectAltNames = { dns: [], ip: [], email: [] };

function thrown(action: () => unknown): SubjectAltNameError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(SubjectAltNameError);
    return error as SubjectAltNameError;
  }
  throw new Error('nothing was thrown');
}

describe('resolveSubjectAltNames', () => {
  it.each<[CertificateProfile, string | undefined, Partial<SubjectAltNames>, SubjectAltNames]>([
    ['server', 'www.example.com', {}, { dns: ['www.example.com'], ip: [], email: [] }],
    ['server', 'WWW.Example.COM', {}, { dns: ['www.example.com'], ip: [], email: [] }],
    ['server', '*.example.com', {}, { dns: ['*.example.com'], ip: [], email: [] }],
    ['server', '10.0.0.1', {}, { dns: [], ip: ['10.0.0.1'], email: [] }],
    ['server', '2001:DB8:0:0:0:0:0:1', {}, { dns: [], ip: ['2001:db8::1'], email: [] }],
    ['server', '10.0.0.1', { ip: ['10.0.0.1', '10.0.0.2'] }, { dns: [], ip: ['10.0.0.1', '10.0.0.2'], email: [] }],
    ['server', 'My Web Server', {}, none],
    ['server', undefined, {}, none],
    ['server', 'www.example.com', { dns: ['api.example.com'] }, { dns: ['api.example.com'], ip: [], email: [] }],
    ['server', 'www.example.com', { ip: ['192.168.1.1'] }, { dns: ['www.example.com'], ip: ['192.168.1.1'], email: [] }],
    ['dual_purpose', 'svc.example.com', { email: ['ops@example.com'] }, { dns: ['svc.example.com'], ip: [], email: ['ops@example.com'] }],
    ['dual_purpose', 'alice@example.com', {}, none],
    ['client', 'alice@Example.COM', {}, { dns: [], ip: [], email: ['alice@example.com'] }],
    ['client', 'alice', {}, none],
    ['client', 'www.example.com', {}, none],
    ['client', 'alice@example.com', { email: ['bob@example.com'] }, { dns: [], ip: [], email: ['bob@example.com'] }],
    [
      'server',
      undefined,
      { dns: ['A.example.com', 'a.EXAMPLE.com'], ip: ['::1', '0:0:0:0:0:0:0:1'] },
      { dns: ['a.example.com'], ip: ['::1'], email: [] },
    ],
  ])('%s with CN %j and %j → %j', (profile, commonName, requested, expected) => {
    expect(resolveSubjectAltNames(profile, commonName, requested)).toEqual(expected);
  });

  it.each<[CertificateProfile, Partial<SubjectAltNames>, string]>([
    ['server', { email: ['a@example.com'] }, 'a@example.com'],
    ['client', { dns: ['a.example.com'] }, 'a.example.com'],
    ['client', { ip: ['10.0.0.1'] }, '10.0.0.1'],
  ])('%s rejects %j', (profile, requested, value) => {
    const error = thrown(() => resolveSubjectAltNames(profile, 'cn', requested));
    expect(error.code).toBe('san_type_not_allowed');
    expect(error.value).toBe(value);
    expect(error.message).toContain(value);
  });

  it('rejects an unknown profile', () => {
    expect(thrown(() => resolveSubjectAltNames('code_signing' as CertificateProfile, 'x', {})).code).toBe('invalid_profile');
  });

  it('names the invalid value in the error', () => {
    const error = thrown(() => resolveSubjectAltNames('server', 'x', { dns: ['ok.example.com', 'bad_name.example.com'] }));
    expect(error.code).toBe('invalid_dns_name');
    expect(error.value).toBe('bad_name.example.com');
    expect(error.message).toMatch(/Invalid DNS name "bad_name.example.com"/);
  });
});

describe('DNS names', () => {
  it.each([
    'example.com',
    'localhost',
    '*.example.com',
    'xn--bcher-kva.de',
    'a-b.example',
    '0.example.com',
    `${'a'.repeat(63)}.example.com`,
    [...Array(4)].map(() => 'a'.repeat(62)).join('.'),
  ])('accepts %j', (name) => {
    expect(isDnsName(name)).toBe(true);
  });

  it.each<[string, RegExp]>([
    ['', /empty/],
    ['example.com.', /empty label/],
    ['a..b', /empty label/],
    [`${'a'.repeat(64)}.example.com`, /longer than 63/],
    [[...Array(5)].map(() => 'a'.repeat(60)).join('.'), /longer than 253/],
    ['-a.example.com', /letters, digits and inner hyphens/],
    ['a-.example.com', /letters, digits and inner hyphens/],
    ['under_score.example.com', /letters, digits and inner hyphens/],
    ['bücher.de', /xn-- form/],
    ['has space.example.com', /letters, digits/],
    ['foo.*.example.com', /wildcard/],
    ['*', /wildcard/],
    ['*.', /empty label/],
    ['f*o.example.com', /wildcard/],
    ['10.0.0.1', /IP addresses belong in IP SANs/],
  ])('rejects %j (%s)', (name, reason) => {
    const error = thrown(() => normalizeDnsName(name));
    expect(error.code).toBe('invalid_dns_name');
    expect(error.message).toMatch(reason);
  });
});

describe('IP addresses', () => {
  it.each([
    ['10.0.0.1', '10.0.0.1'],
    ['::1', '::1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:1:1:1:1:0:1', '2001:db8:1:1:1:1:0:1'],
    ['::ffff:192.0.2.1', '::ffff:c000:201'],
    ['::', '::'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeIpAddress(input)).toBe(expected);
  });

  it.each(['010.0.0.1', '1.2.3', '256.1.1.1', 'fe80::1%eth0', '10.0.0.0/8', 'example.com', ''])('rejects %j', (input) => {
    const error = thrown(() => normalizeIpAddress(input));
    expect(error.code).toBe('invalid_ip_address');
    expect(error.value).toBe(input);
  });
});

describe('email addresses', () => {
  it('lower-cases only the domain', () => {
    expect(normalizeEmailAddress('Alice.Smith@Example.COM')).toBe('Alice.Smith@example.com');
  });

  it.each(['alice', 'alice@example', '@example.com', 'a b@example.com', 'a@b@example.com', 'zoë@example.com'])('rejects %j', (input) => {
    const error = thrown(() => normalizeEmailAddress(input));
    expect(error.code).toBe('invalid_email_address');
    expect(error.message).toContain(input);
  });
});
