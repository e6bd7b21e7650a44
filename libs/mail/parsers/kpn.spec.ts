import { Workbook } from 'exceljs';
import { parseMaintenanceEmail } from '..';

/** A KPN email whose spreadsheet stores its dates and times as date cells, not text. */
async function kpnEmail(rows: unknown[][]): Promise<string> {
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet('Gepland werk');
  sheet.addRow([
    'Aankondiging',
    'Astrid/IDA',
    'Startdatum | Start date',
    'Starttijd | Start time',
    'Einddatum | End date',
    'Eindtijd | End time',
    'Onderbrekingsduur | Downtime',
    'V/G/A-nummer | V/G/A number',
  ]);
  for (const row of rows) sheet.addRow(row);
  const xlsx = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
  return [
    'From: KPN gepland werk <gwc-noreply@kpn.com>',
    'To: noc@polder-networks.test',
    'Subject: Wijziging geplande werkzaamheden KPN',
    'Date: Mon, 01 Mar 2027 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="kpn"',
    '',
    '--kpn',
    'Content-Type: text/plain; charset="utf-8"',
    '',
    'Zie bijlage.',
    '--kpn',
    'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename="Trans_CT00000500001.xlsx"',
    '',
    xlsx.replace(/.{76}/g, '$&\r\n'),
    '--kpn--',
    '',
  ].join('\r\n');
}

describe('kpn', () => {
  it('reads date cells as well as dd-mm-yyyy text, one record per work id, each with its circuits', async () => {
    const email = await kpnEmail([
      [
        'Wijziging',
        'CT00000500001',
        new Date(Date.UTC(2027, 2, 23)),
        new Date(Date.UTC(1899, 11, 30, 1, 30)),
        new Date(Date.UTC(2027, 2, 23)),
        new Date(Date.UTC(1899, 11, 30, 4, 0)),
        150,
        'VGA0900001',
      ],
      [
        'Wijziging',
        'CT00000500001',
        new Date(Date.UTC(2027, 2, 23)),
        new Date(Date.UTC(1899, 11, 30, 1, 30)),
        new Date(Date.UTC(2027, 2, 23)),
        new Date(Date.UTC(1899, 11, 30, 4, 0)),
        150,
        'VGA0900002',
      ],
      ['Afsluiting', 'CT00000500002', '02-03-2027', '22:00', '03-03-2027', '02:00', 0, 'VGA0900003'],
    ]);
    const { maintenances, uncertainties } = await parseMaintenanceEmail(email);
    expect(
      maintenances.map(({ maintenanceId, status, start, end, circuits }) => ({ maintenanceId, status, start, end, circuits })),
    ).toEqual([
      {
        maintenanceId: 'CT00000500001',
        status: 'CONFIRMED',
        start: Date.UTC(2027, 2, 23, 1, 30) / 1000,
        end: Date.UTC(2027, 2, 23, 4, 0) / 1000,
        circuits: [
          { circuitId: 'VGA0900001', impact: 'OUTAGE' },
          { circuitId: 'VGA0900002', impact: 'OUTAGE' },
        ],
      },
      {
        maintenanceId: 'CT00000500002',
        status: 'COMPLETED',
        start: Date.UTC(2027, 2, 2, 22, 0) / 1000,
        end: Date.UTC(2027, 2, 3, 2, 0) / 1000,
        circuits: [{ circuitId: 'VGA0900003', impact: 'NO-IMPACT' }],
      },
    ]);
    expect(uncertainties).toContain('kpn: the spreadsheet gives its times without a zone; they are read as UTC');
  });
});
