import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A provider email of test/fixtures/mail/, as text. */
export const mailFixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'mail', name), 'utf8');

/** A fixture with other headers: a new Message-ID, Date or Subject. */
export function variant(raw: string, changes: { messageId?: string; date?: string; subject?: string }): string {
  let out = raw;
  if (changes.messageId) out = out.replace(/^Message-ID: .*$/m, `Message-ID: ${changes.messageId}`);
  if (changes.date) out = out.replace(/^Date: .*$/m, `Date: ${changes.date}`);
  if (changes.subject) out = out.replace(/^Subject: .*$/m, `Subject: ${changes.subject}`);
  return out;
}
