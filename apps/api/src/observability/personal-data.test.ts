import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MASK, maskPersonalData, maskPersonalDataDeep } from '@portal/contract/personal-data';

describe('maskPersonalData', () => {
  it('masks e-mail addresses, plain and URL-encoded', () => {
    assert.equal(maskPersonalData('/api/users/Jane.Doe@example.com/activate'), `/api/users/${MASK}/activate`);
    assert.equal(maskPersonalData('/api/users/jane%40example.co.uk'), `/api/users/${MASK}`);
  });

  it('masks bearer tokens and JWTs', () => {
    assert.equal(maskPersonalData('Bearer abc.def-123'), `Bearer ${MASK}`);
    assert.equal(maskPersonalData('token eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.sig'), `token ${MASK}`);
  });

  it('masks parcel codes and one-time codes in URLs, keeping the rest', () => {
    assert.equal(maskPersonalData('/api/invoice?parcelCode=ABC123&x=1'), `/api/invoice?parcelCode=${MASK}&x=1`);
    assert.equal(maskPersonalData('/api/invoices/ABC123'), `/api/invoices/${MASK}`);
    assert.equal(maskPersonalData('/finish?oobCode=secret'), `/finish?oobCode=${MASK}`);
    assert.equal(maskPersonalData('/api/healthz'), '/api/healthz');
  });

  it('masks every string of nested plain objects and arrays', () => {
    const masked = maskPersonalDataDeep({ a: ['x@example.com', 1], b: { c: 'Bearer t' }, n: null });
    assert.deepEqual(masked, { a: [MASK, 1], b: { c: `Bearer ${MASK}` }, n: null });
  });
});
