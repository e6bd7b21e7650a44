import { createHmac } from 'node:crypto';
import {
  buildEventPayload,
  buildWebhookRequest,
  validateAdditionalHeaders,
  WebhookConfigurationError,
  WebhookDefinition,
} from './webhook-request';

const webhook: WebhookDefinition = {
  payload_url: 'https://hooks.example.com/netbox?token=abc',
  http_method: 'POST',
  http_content_type: 'application/json',
  additional_headers: '',
  body_template: '',
  secret: '',
  ssl_verification: true,
  ca_file_path: null,
};

const payload = buildEventPayload({
  event: 'created',
  timestamp: new Date('2024-05-01T12:00:00.123Z'),
  objectType: 'dcim.site',
  username: 'admin',
  requestId: 'fdbca812-3142-4783-b364-2e2bd5c16c6a',
  data: { id: 19, name: 'Site 1', status: { value: 'active', label: 'Active' } },
  prechange: null,
  postchange: { name: 'Site 1', status: 'active' },
});

const configurationProblems = (definition: WebhookDefinition, renderedBody?: string): string[] => {
  try {
    buildWebhookRequest(definition, payload, renderedBody);
  } catch (error) {
    if (error instanceof WebhookConfigurationError) return error.problems;
    throw error;
  }
  throw new Error('expected a WebhookConfigurationError');
};

describe('buildEventPayload', () => {
  it("builds NetBox's default body, with model for receivers written before object_type", () => {
    expect(payload).toEqual({
      event: 'created',
      timestamp: '2024-05-01 12:00:00.123000+00:00',
      object_type: 'dcim.site',
      model: 'site',
      username: 'admin',
      request_id: 'fdbca812-3142-4783-b364-2e2bd5c16c6a',
      data: { id: 19, name: 'Site 1', status: { value: 'active', label: 'Active' } },
      snapshots: { prechange: null, postchange: { name: 'Site 1', status: 'active' } },
    });
    expect(Object.keys(payload)).toEqual(['event', 'timestamp', 'object_type', 'model', 'username', 'request_id', 'data', 'snapshots']);
  });

  it('formats timestamps like Python, which leaves out a zero fraction', () => {
    const at = (timestamp: Date | string) =>
      buildEventPayload({
        event: 'deleted',
        timestamp,
        objectType: 'ipam.prefix',
        username: 'u',
        requestId: null,
        data: {},
        prechange: {},
        postchange: null,
      }).timestamp;
    expect(at(new Date('2024-05-01T12:00:00.000Z'))).toBe('2024-05-01 12:00:00+00:00');
    expect(at(new Date('2024-05-01T23:59:59.007Z'))).toBe('2024-05-01 23:59:59.007000+00:00');
    expect(at('2024-05-01T12:00:00Z')).toBe('2024-05-01T12:00:00Z');
  });

  it.each(['site', 'dcim.site.extra', '.site', 'dcim.'])('refuses the object type %p', (objectType) => {
    expect(() =>
      buildEventPayload({
        event: 'updated',
        timestamp: '',
        objectType,
        username: 'u',
        requestId: null,
        data: {},
        prechange: null,
        postchange: null,
      }),
    ).toThrow(RangeError);
  });
});

describe('buildWebhookRequest', () => {
  it('sends the payload as JSON with the content type when there is no body template', () => {
    const request = buildWebhookRequest(webhook, payload);
    expect(request).toEqual({
      method: 'POST',
      url: 'https://hooks.example.com/netbox?token=abc',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from(JSON.stringify(payload), 'utf8'),
      verifyTls: true,
      caFilePath: null,
    });
  });

  it('sends a rendered body as it is', () => {
    const definition = { ...webhook, body_template: '{"text": "{{ data.name }} créé"}' };
    const request = buildWebhookRequest(definition, payload, '{"text": "Site 1 créé"}');
    expect(request.body.toString('utf8')).toBe('{"text": "Site 1 créé"}');
  });

  it('signs the exact body bytes with HMAC-SHA512 of the secret', () => {
    const secret = 'päss:word';
    const request = buildWebhookRequest({ ...webhook, secret }, payload, '{"name": "Zürich"}');
    const expected = createHmac('sha512', Buffer.from(secret, 'utf8')).update(Buffer.from('{"name": "Zürich"}', 'utf8')).digest('hex');
    expect(request.headers['X-Hook-Signature']).toBe(expected);
    expect(request.headers['X-Hook-Signature']).toMatch(/^[0-9a-f]{128}$/);
  });

  it('does not sign without a secret', () => {
    expect(buildWebhookRequest(webhook, payload).headers).not.toHaveProperty('X-Hook-Signature');
  });

  it('adds the additional headers, split at the first colon and trimmed', () => {
    const additional_headers = 'Authorization:  Bearer a:b \r\n\r\nX-Source: netbox\n   \nX-Empty:';
    expect(buildWebhookRequest({ ...webhook, additional_headers }, payload).headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: 'Bearer a:b',
      'X-Source': 'netbox',
      'X-Empty': '',
    });
  });

  it('lets an additional Content-Type replace http_content_type, but nothing replace the signature', () => {
    const additional_headers = 'content-type: text/plain\nx-hook-signature: forged';
    const { headers, body } = buildWebhookRequest({ ...webhook, secret: 's', additional_headers }, payload);
    expect(headers).toEqual({
      'content-type': 'text/plain',
      'X-Hook-Signature': createHmac('sha512', 's').update(body).digest('hex'),
    });
  });

  it.each([
    [true, null, true, null],
    [false, null, false, null],
    [false, '', false, null],
    [true, '/etc/ssl/internal-ca.pem', true, '/etc/ssl/internal-ca.pem'],
    // NetBox's worker lets the CA file win over ssl_verification: false.
    [false, '/etc/ssl/internal-ca.pem', true, '/etc/ssl/internal-ca.pem'],
  ])(
    'maps ssl_verification %p and ca_file_path %p to verification %p with CA file %p',
    (ssl_verification, ca_file_path, verifyTls, caFilePath) => {
      const request = buildWebhookRequest({ ...webhook, ssl_verification, ca_file_path }, payload);
      expect({ verifyTls: request.verifyTls, caFilePath: request.caFilePath }).toEqual({ verifyTls, caFilePath });
    },
  );

  it('refuses a definition that cannot produce a valid request, without echoing URLs or header values', () => {
    const problems = configurationProblems({
      ...webhook,
      payload_url: 'ftp://files.example.com/token-123',
      http_method: 'TRACE' as WebhookDefinition['http_method'],
      http_content_type: ' ',
      additional_headers: 'Authorization Bearer token-123',
      body_template: '{{ data }}',
    });
    expect(problems).toEqual([
      'http_method: "TRACE" is not one of GET, POST, PUT, PATCH, DELETE',
      'payload_url: not an http:// or https:// URL',
      'http_content_type: must not be empty',
      'additional_headers: line 1: expected "Name: value"',
      'body_template: is set, but no rendered body was given',
    ]);
    expect(problems.join(' ')).not.toContain('token-123');
  });

  it('refuses an unparsable URL and a content type with a line break', () => {
    expect(configurationProblems({ ...webhook, payload_url: 'not a url', http_content_type: 'application/json\r\nX-Injected: 1' })).toEqual(
      ['payload_url: not an http:// or https:// URL', 'http_content_type: contains characters not allowed in an HTTP header'],
    );
  });
});

describe('validateAdditionalHeaders', () => {
  it('accepts empty text, blank lines and well-formed lines', () => {
    expect(validateAdditionalHeaders('')).toEqual([]);
    expect(validateAdditionalHeaders('X-A: 1\n\nX-B: https://example.com:8443/x\r\n')).toEqual([]);
  });

  it('reports each malformed line by number', () => {
    const text = ['X-Good: 1', 'no colon here', ': value', 'Bad Name: x', 'X-Ctl: a\u0000b', 'X-Wide: \u20ac'].join('\n');
    expect(validateAdditionalHeaders(text)).toEqual([
      'line 2: expected "Name: value"',
      'line 3: the header name is empty',
      'line 4: "Bad Name" is not a valid header name',
      'line 5 (X-Ctl): the value contains characters not allowed in an HTTP header',
      'line 6 (X-Wide): the value contains characters not allowed in an HTTP header',
    ]);
  });

  it("splits lines where Python's str.splitlines does", () => {
    expect(validateAdditionalHeaders('X-A: 1\u2028X-B: 2\u000bX-C: 3')).toEqual([]);
    expect(buildWebhookRequest({ ...webhook, additional_headers: 'X-A: 1\u2028X-B: 2' }, payload).headers).toMatchObject({
      'X-A': '1',
      'X-B': '2',
    });
  });
});
