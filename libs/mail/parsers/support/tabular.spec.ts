import { MailParseError } from '../../parsed-maintenance';
import { csvRows, rowRecords, SPREADSHEET_MAX_BYTES, xlsxRows } from './tabular';

describe('spreadsheet attachments', () => {
  it('reads a UTF-16 tab-separated CSV (a spreadsheet export) and its rows as records by heading', () => {
    const text = 'OCN\tCircuit ID\tService\r\nOCN: 204417\tC-2044170\tIP ACCESS\r\n\r\nOCN: 204417\tC-2044171\tETHERNET\r\n';
    const rows = csvRows(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(rows).toEqual([
      ['OCN', 'Circuit ID', 'Service'],
      ['OCN: 204417', 'C-2044170', 'IP ACCESS'],
      ['OCN: 204417', 'C-2044171', 'ETHERNET'],
    ]);
    expect(rowRecords(rows, ['circuit id'])?.map((record) => record.get('circuit id'))).toEqual(['C-2044170', 'C-2044171']);
    expect(rowRecords(rows, ['order number'])).toBeNull();
  });

  it('reads a comma-separated UTF-8 CSV with quoted fields', () => {
    expect(csvRows('\uFEFFCircuit,Impact\n"AB-1, primary",Outage\n')).toEqual([
      ['Circuit', 'Impact'],
      ['AB-1, primary', 'Outage'],
    ]);
  });

  it('does not read an attachment over the size limit', async () => {
    const large = Buffer.alloc(SPREADSHEET_MAX_BYTES + 1, 0x41);
    expect(() => csvRows(large)).toThrow(MailParseError);
    await expect(xlsxRows(large)).rejects.toThrow(/over the 5242880-byte limit/);
  });
});
