import { MailParseError, type ParsedEmail } from './parsed-maintenance';

/** Decodes a raw RFC 5322 message into the fields the parsers read; an unreadable message is a MailParseError. */
export async function parseRawEmail(raw: Buffer | string): Promise<ParsedEmail> {
  // Loaded on the first message: mailparser and its encodings take a tenth of a second to load, at
  // every server start otherwise.
  const { simpleParser } = await import('mailparser');
  let mail;
  try {
    mail = await simpleParser(raw, { skipImageLinks: true });
  } catch (error) {
    throw new MailParseError('unreadable_email', `the message is not valid MIME: ${(error as Error).message}`);
  }
  const from = Array.isArray(mail.from) ? mail.from[0] : mail.from;
  const address = from?.value.find((entry: { address?: string }) => entry.address)?.address ?? '';
  const calendars = mail.attachments
    .filter((part) => part.contentType.toLowerCase() === 'text/calendar' || part.filename?.toLowerCase().endsWith('.ics'))
    .map((part) => part.content.toString('utf8'));
  return {
    messageId: mail.messageId ?? null,
    subject: mail.subject ?? '',
    from: address.toLowerCase(),
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
    calendars,
  };
}
