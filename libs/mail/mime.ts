import type * as Mailparser from 'mailparser';
import { MailParseError, type ParsedEmail } from './parsed-maintenance';

/**
 * mailparser, loaded on the first message: with its encodings it takes a tenth of a second to load,
 * at every server start otherwise. `require`, not `import()`: Jest's CommonJS runtime has no dynamic import.
 */
function mailparser(): typeof Mailparser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('mailparser') as typeof Mailparser;
}

/** Decodes a raw RFC 5322 message into the fields the parsers read; an unreadable message is a MailParseError. */
export async function parseRawEmail(raw: Buffer | string): Promise<ParsedEmail> {
  const { simpleParser } = mailparser();
  let mail;
  try {
    mail = await simpleParser(raw, { skipImageLinks: true });
  } catch (error) {
    throw new MailParseError('unreadable_email', `the message is not valid MIME: ${(error as Error).message}`);
  }
  const from = Array.isArray(mail.from) ? (mail.from[0] as Mailparser.AddressObject) : mail.from;
  const address = from?.value.find((entry: { address?: string }) => entry.address)?.address ?? '';
  const calendars = mail.attachments
    .filter((part) => part.contentType.toLowerCase() === 'text/calendar' || part.filename?.toLowerCase().endsWith('.ics'))
    .map((part) => part.content.toString('utf8'));
  const attachments = mail.attachments
    .filter((part) => !part.related) // images the HTML embeds (cid:) are part of the body, not attachments
    .map((part) => ({ filename: part.filename ?? '', contentType: part.contentType.toLowerCase(), content: part.content }));
  return {
    messageId: mail.messageId ?? null,
    subject: mail.subject ?? '',
    from: address.toLowerCase(),
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
    calendars,
    attachments,
  };
}
