import { describe, expect, it } from 'vitest';
import { readParcelCode } from './parcel-code';

const at = (search: string, hash = '') => ({ search, hash });

describe('readParcelCode', () => {
  it('reads the query string first', () => {
    expect(
      readParcelCode(at('?parcelCode=Q1', '#/invoice?parcelCode=H1'), {
        pathname: '/invoice',
        search: '?parcelCode=S1',
      }),
    ).toBe('Q1');
  });

  it.each([
    ['#/invoice?parcelCode=H1', 'H1'],
    ['#parcelCode=H1', 'H1'],
    ['#/invoice?foo=1&parcelCode=H%2D1', 'H-1'],
  ])('then the part after the hash (%s)', (hash, expected) => {
    expect(readParcelCode(at('', hash), { pathname: '/invoice', search: '?parcelCode=S1' })).toBe(expected);
  });

  it('then the saved pre-login location', () => {
    expect(readParcelCode(at('?other=1', '#top'), { pathname: '/invoice', search: '?parcelCode=S1' })).toBe('S1');
  });

  it('treats an empty or blank value as absent and trims the rest', () => {
    expect(readParcelCode(at('?parcelCode=', '#parcelCode=%20'), null)).toBeNull();
    expect(readParcelCode(at('?parcelCode=+Q1+'), null)).toBe('Q1');
  });

  it('is null when no source has one', () => {
    expect(readParcelCode(at(''), null)).toBeNull();
    expect(readParcelCode(at(''), { pathname: '/admin', search: '' })).toBeNull();
  });
});
