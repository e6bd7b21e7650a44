import { columns, formatCell, formatRecord, formatTable } from './table-format';

describe('formatTable', () => {
  it('aligns columns under upper-cased headers and trims trailing blanks', () => {
    const rows = [
      { id: 1, name: 'Root CA', description: null },
      { id: 12, name: 'Issuing', description: 'second level' },
    ];
    expect(formatTable(rows, columns('id', 'name', 'description'))).toBe(
      ['ID  NAME     DESCRIPTION', '1   Root CA', '12  Issuing  second level', ''].join('\n'),
    );
  });

  it('says so when the list is empty', () => {
    expect(formatTable([], columns('id'))).toBe('(none)\n');
  });
});

describe('formatCell', () => {
  it('renders lists, objects, booleans and blanks on one line', () => {
    expect(formatCell(['a.example', 'b.example'])).toBe('a.example,b.example');
    expect(formatCell({ code: 'policy_violation' })).toBe('{"code":"policy_violation"}');
    expect(formatCell(false)).toBe('false');
    expect(formatCell(undefined)).toBe('');
    expect(formatCell('two\n  lines')).toBe('two lines');
  });
});

describe('formatRecord', () => {
  it('aligns field names and puts PEM blocks on lines of their own', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    expect(formatRecord({ id: 3, common_name: 'www.example.com', certificate: pem, san_dns_names: [] })).toBe(
      ['id:            3', 'common_name:   www.example.com', 'certificate:', pem + 'san_dns_names:', ''].join('\n'),
    );
  });
});
