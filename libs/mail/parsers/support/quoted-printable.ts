import type { ParsedEmail } from '../../parsed-maintenance';

/**
 * The email's HTML, with a quoted-printable encoding undone when a relay lost the part's
 * Content-Transfer-Encoding header: the text still has soft line breaks ("=" at a line end) and
 * "=3D" for every "=" of the markup. Plain HTML has neither, so it is returned as it is.
 */
export function htmlBody(email: ParsedEmail): string {
  const html = email.html;
  if (!/=3D/i.test(html) || !/=\r?\n/.test(html)) return html;
  const bytes = html.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
