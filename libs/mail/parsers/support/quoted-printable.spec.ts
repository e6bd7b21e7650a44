import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMaintenanceEmail } from '../..';
import type { ParsedEmail } from '../../parsed-maintenance';
import { htmlBody } from './quoted-printable';

const email = (html: string): ParsedEmail => ({
  messageId: null,
  subject: '',
  from: '',
  date: null,
  text: '',
  html,
  calendars: [],
  attachments: [],
});

describe('htmlBody: HTML whose quoted-printable encoding was left undeclared', () => {
  it('undoes soft line breaks and =XX escapes, as UTF-8', () => {
    expect(htmlBody(email('<p class=3D"x">Megaport=E2=80=99s servi=\r\nces</p>'))).toBe('<p class="x">Megaport\u2019s services</p>');
  });

  it('leaves HTML without both marks as it is', () => {
    expect(htmlBody(email('<a href="?a=3D">x</a>'))).toBe('<a href="?a=3D">x</a>');
    expect(htmlBody(email('<p>total =\n 3</p>'))).toBe('<p>total =\n 3</p>');
  });

  it('a carrier notice relayed without its Content-Transfer-Encoding reads as the declared one', async () => {
    const raw = readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'mail', 'megaport', 'planned.eml'), 'latin1');
    const undeclared = raw.replace(/^Content-Transfer-Encoding: quoted-printable\r?\n/m, 'Content-Transfer-Encoding: 7bit\r\n');
    expect(undeclared).not.toBe(raw);
    const [declared, relayed] = await Promise.all([parseMaintenanceEmail(raw), parseMaintenanceEmail(undeclared)]);
    expect(relayed.maintenances).toEqual(declared.maintenances);
    expect(relayed.maintenances[0].maintenanceId).toBe('551203-7');
  });
});
