import { describe, expect, it } from 'vitest';
import { hashRouteTarget } from './hash-route';

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
});
