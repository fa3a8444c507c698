import { describe, expect, it } from 'vitest';
import { postLoginTarget, readFromState } from './login-redirect';

describe('postLoginTarget', () => {
  it('returns to a previous invoice path with its query string', () => {
    expect(postLoginTarget({ pathname: '/invoice', search: '?parcelCode=A1' }, null)).toBe('/invoice?parcelCode=A1');
  });
  it('returns to a previous admin path without its query string', () => {
    expect(postLoginTarget({ pathname: '/admin', search: '?x=1' }, null)).toBe('/admin');
  });
  it('sends any other previous location to the root', () => {
    expect(postLoginTarget({ pathname: '/elsewhere', search: '?a=b' }, null)).toBe('/');
  });
  it('returns to the finance page with its query string, and to nothing else beginning so', () => {
    expect(postLoginTarget({ pathname: '/finance', search: '?seller=nord' }, null)).toBe('/finance?seller=nord');
    expect(postLoginTarget({ pathname: '/finance/x', search: '' }, null)).toBe('/');
  });
  it('without a previous location restores a stored invoice location', () => {
    expect(postLoginTarget(null, { pathname: '/invoice', search: '?parcelCode=B2' })).toBe('/invoice?parcelCode=B2');
  });
  it('without a previous location ignores a stored non-invoice location', () => {
    expect(postLoginTarget(null, { pathname: '/admin', search: '' })).toBe('/');
    expect(postLoginTarget(null, null)).toBe('/');
  });
  it('reads the location carried as router state', () => {
    expect(readFromState({ from: { pathname: '/admin', search: '' } })).toEqual({ pathname: '/admin', search: '' });
    expect(readFromState(null)).toBeNull();
    expect(readFromState({ from: 'x' })).toBeNull();
  });
});
