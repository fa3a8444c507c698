import { describe, expect, it } from 'vitest';
import { csvCell, usersCsv } from './export-users';

describe('the users CSV export', () => {
  it('neutralizes cells a spreadsheet would run as formulas', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const cell = csvCell(`${start}HYPERLINK("http://evil.example")`);
      expect(cell.replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('-2+3@x.example')).toBe("'-2+3@x.example");
    expect(csvCell('=cmd|"/c calc"!A1')).toBe(`"'=cmd|""/c calc""!A1"`);
  });

  it('leaves ordinary cells as they are, quoting only where CSV needs it', () => {
    expect(csvCell('jane@example.com')).toBe('jane@example.com');
    expect(csvCell('2025-01-02T03:04:05.000Z')).toBe('2025-01-02T03:04:05.000Z');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });

  it('writes one neutralized row per user', () => {
    const csv = usersCsv([
      {
        email: '=2+5@evil.example',
        activated: false,
        admin: false,
        finance: false,
        registered: true,
        createdAt: '2025-01-02T03:04:05.000Z',
        createdBy: '+admin@example.com',
      },
    ]);
    expect(csv).toBe(
      "email,status,admin,added,added_by\r\n'=2+5@evil.example,invited,no,2025-01-02T03:04:05.000Z,'+admin@example.com\r\n",
    );
  });
});
