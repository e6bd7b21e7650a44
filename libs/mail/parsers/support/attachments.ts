import type { MailAttachment, ParsedEmail } from '../../parsed-maintenance';

const extension = (attachment: MailAttachment) => attachment.filename.toLowerCase().split('.').pop() ?? '';

/** The email's CSV attachments (text/csv or a .csv file). */
export const csvAttachments = (email: ParsedEmail): MailAttachment[] =>
  email.attachments.filter((attachment) => attachment.contentType === 'text/csv' || extension(attachment) === 'csv');

/** The email's XLSX attachments (the spreadsheetml type or an .xlsx file). */
export const xlsxAttachments = (email: ParsedEmail): MailAttachment[] =>
  email.attachments.filter(
    (attachment) =>
      attachment.contentType === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' || extension(attachment) === 'xlsx',
  );
