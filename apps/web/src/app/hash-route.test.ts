import { describe, expect, it } from 'vitest';
import { adoptHashRoute, hashRouteTarget } from './hash-route';

describe('hashRouteTarget', () => {
  it('maps /#/invoice?parcelCode=X onto /invoice?parcelCode=X', () => {
    expect(hashRouteTarget({ pathname: '/', hash: '#/invoice?parcelCode=X' })).toBe('/invoice?parcelCode=X');
    expect(hashRouteTarget({ pathname: '/', hash: '#/invoice' })).toBe('/invoice');
  });

  it('leaves ordinary URLs and fragments alone', () => {
    expect(hashRouteTarget({ pathname: '/', hash: '' })).toBeNull();
    expect(hashRouteTarget({ pathname: '/', hash: '#top' })).toBeNull();
    expect(hashRouteTarget({ pathname: '/invoice', hash: '#/admin' })).toBeNull();
  });

  it('ignores a hash that names another origin, so the app still renders', () => {
    expect(hashRouteTarget({ pathname: '/', hash: '#//evil.example' })).toBeNull();
    expect(hashRouteTarget({ pathname: '/', hash: '#/\\evil.example/x' })).toBeNull();
    window.history.replaceState(null, '', '/#//evil.example');
    expect(() => adoptHashRoute()).not.toThrow();
    expect(window.location.pathname).toBe('/');
  });
});
