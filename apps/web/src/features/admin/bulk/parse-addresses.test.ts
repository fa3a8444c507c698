import { describe, expect, it } from 'vitest';
import { parseAddresses } from './parse-addresses';
import outlookContacts from '../testing/outlook-contacts.csv?raw';

describe('parseAddresses', () => {
  it('splits on new lines, commas, semicolons and tabs, dropping blanks', () => {
    expect(parseAddresses('a@x.com\nb@x.com, c@x.com;d@x.com\te@x.com\r\n\n ,;')).toEqual([
      'a@x.com',
      'b@x.com',
      'c@x.com',
      'd@x.com',
      'e@x.com',
    ]);
  });

  it('keeps what is not an address, so it can be reported as invalid', () => {
    expect(parseAddresses('a@x.com, not an address')).toEqual(['a@x.com', 'not an address']);
  });

  it('drops duplicates regardless of case and spaces, keeping the first', () => {
    expect(parseAddresses('A@x.com\n a@X.com \nb@x.com')).toEqual(['A@x.com', 'b@x.com']);
  });

  it('takes the address out of "Name <address>" and strips CSV quotes', () => {
    expect(parseAddresses('"Jane Doe <jane@x.com>"; John <john@x.com>\n"k@x.com"')).toEqual([
      'jane@x.com',
      'john@x.com',
      'k@x.com',
    ]);
  });

  it('reads only the e-mail column of a CSV with a header line', () => {
    expect(parseAddresses('name,Email,team\nJane,jane@x.com,Ops\nJohn,john@x.com,\n')).toEqual([
      'jane@x.com',
      'john@x.com',
    ]);
  });

  it('keeps the address of an Outlook contacts export whose quoted fields hold commas', () => {
    expect(parseAddresses(outlookContacts)).toEqual([
      'jane.doe@example.com',
      'john.smith@example.com',
      'ann.lee@example.com',
    ]);
  });

  it('keeps the address beside a quoted name with a comma when there is no header line', () => {
    expect(parseAddresses('"Doe, Jane",jane@x.com\n"Roe, Rick",rick@x.com')).toEqual([
      'Doe',
      'Jane',
      'jane@x.com',
      'Roe',
      'Rick',
      'rick@x.com',
    ]);
  });

  it('tolerates a stray separator after an address, at the end of a line or of the list', () => {
    expect(parseAddresses('a@x.com;\nb@x.com')).toEqual(['a@x.com', 'b@x.com']);
    expect(parseAddresses('a@x.com,\nb@x.com;')).toEqual(['a@x.com', 'b@x.com']);
    expect(parseAddresses('a@x.com;')).toEqual(['a@x.com']);
  });
});
