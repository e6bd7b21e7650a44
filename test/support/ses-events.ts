/**
 * SES event-publishing JSON in the documented shapes (eventType, mail{…, tags{notification_id:[id]}},
 * plus the event's detail object), one per event type, for notification `id`.
 */
export const SES_EVENT_TYPES = [
  'Send',
  'Delivery',
  'Bounce',
  'Complaint',
  'Reject',
  'Open',
  'Click',
  'Rendering Failure',
  'DeliveryDelay',
] as const;

export function sesEventFixture(eventType: (typeof SES_EVENT_TYPES)[number], id: number): Record<string, unknown> {
  const mail = {
    timestamp: '2026-11-26T09:00:00.000Z',
    source: 'noc@example.net',
    sourceArn: 'arn:aws:ses:eu-west-1:123456789012:identity/example.net',
    sendingAccountId: '123456789012',
    messageId: `0102018c-${id}-example`,
    destination: ['alice@acme.example', 'bob@acme.example'],
    headersTruncated: false,
    headers: [
      { name: 'From', value: 'noc@example.net' },
      { name: 'To', value: 'alice@acme.example, bob@acme.example' },
      { name: 'Subject', value: 'Maintenance on 3 December' },
      { name: 'X-Notification-ID', value: String(id) },
    ],
    commonHeaders: { from: ['noc@example.net'], to: ['alice@acme.example', 'bob@acme.example'], subject: 'Maintenance on 3 December' },
    tags: { 'ses:configuration-set': ['notices-tracking'], notification_id: [String(id)] },
  };
  const details: Record<string, Record<string, unknown>> = {
    Send: { send: {} },
    Delivery: {
      delivery: {
        timestamp: '2026-11-26T09:00:02.000Z',
        processingTimeMillis: 1200,
        recipients: ['alice@acme.example'],
        smtpResponse: '250 2.0.0 OK',
        reportingMTA: 'a8-70.smtp-out.amazonses.com',
      },
    },
    Bounce: {
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [
          { emailAddress: 'bob@acme.example', action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
        ],
        timestamp: '2026-11-26T09:00:03.000Z',
        feedbackId: '0102018c-bounce',
      },
    },
    Complaint: {
      complaint: {
        complainedRecipients: [{ emailAddress: 'bob@acme.example' }],
        timestamp: '2026-11-26T10:00:00.000Z',
        feedbackId: '0102018c-complaint',
        complaintFeedbackType: 'abuse',
      },
    },
    Reject: { reject: { reason: 'Bad content' } },
    Open: { open: { ipAddress: '192.0.2.1', timestamp: '2026-11-26T09:10:00.000Z', userAgent: 'Mozilla/5.0' } },
    Click: {
      click: {
        ipAddress: '192.0.2.1',
        timestamp: '2026-11-26T09:11:00.000Z',
        userAgent: 'Mozilla/5.0',
        link: 'https://status.example.net/m/1',
        linkTags: {},
      },
    },
    'Rendering Failure': { failure: { errorMessage: 'Attribute "name" is not present', templateName: 'notice' } },
    DeliveryDelay: {
      deliveryDelay: {
        timestamp: '2026-11-26T09:30:00.000Z',
        delayType: 'TransientCommunicationFailure',
        expirationTime: '2026-11-27T09:00:00.000Z',
        delayedRecipients: [{ emailAddress: 'bob@acme.example', status: '4.4.1', diagnosticCode: 'smtp; 421 4.4.1 try later' }],
      },
    },
  };
  return { eventType, mail, ...details[eventType] };
}
