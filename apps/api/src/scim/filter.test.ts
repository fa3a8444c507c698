import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFilter, parsePath } from './filter.ts';
import { applyGroupPatch, applyUserPatch, parsePatchBody } from './patch.ts';
import { ScimError } from './scim-error.ts';
import { PATCH_OP } from './scim-schemas.ts';

const scimTypeOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof ScimError) return error.scimType;
    throw error;
  }
  return 'no error';
};

describe('SCIM filters (RFC 7644 §3.4.2.2)', () => {
  it('reads comparisons, presence, and/or/not with precedence, grouping and value paths', () => {
    assert.deepEqual(parseFilter('userName eq "a@example.com"'), {
      kind: 'compare',
      attr: 'userName',
      op: 'eq',
      value: 'a@example.com',
    });
    assert.deepEqual(parseFilter('title pr'), { kind: 'present', attr: 'title' });
    // "and" binds tighter than "or".
    const mixed = parseFilter('a eq 1 or b eq true and c eq null');
    assert.equal(mixed.kind, 'or');
    assert.equal(mixed.kind === 'or' && mixed.right.kind, 'and');
    const grouped = parseFilter('(a eq 1 or b eq 2) and not (c sw "x")');
    assert.equal(grouped.kind, 'and');
    assert.deepEqual(parseFilter('emails[type eq "work"].value EQ "a@example.com"'), {
      kind: 'valuePath',
      attr: 'emails',
      filter: { kind: 'compare', attr: 'type', op: 'eq', value: 'work' },
      then: { kind: 'compare', attr: 'value', op: 'eq', value: 'a@example.com' },
    });
    assert.deepEqual(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "x\\"y"'), {
      kind: 'compare',
      attr: 'urn:ietf:params:scim:schemas:core:2.0:User:userName',
      op: 'eq',
      value: 'x"y',
    });
  });

  it('refuses what is not a filter with invalidFilter', () => {
    for (const bad of [
      '',
      'userName',
      'userName eq',
      'userName like "a"',
      'userName eq "open',
      '(a eq 1',
      'a eq b',
      'a eq 1 b',
    ]) {
      assert.equal(
        scimTypeOf(() => parseFilter(bad)),
        'invalidFilter',
        bad,
      );
    }
    assert.equal(
      scimTypeOf(() => parseFilter(`${'('.repeat(30)}a eq 1${')'.repeat(30)}`)),
      'invalidFilter',
    );
  });

  it('reads PATCH paths, with or without a schema and a value filter', () => {
    assert.deepEqual(parsePath('active'), { attr: 'active' });
    assert.deepEqual(parsePath('name.familyName'), { attr: 'name', sub: 'familyname' });
    assert.deepEqual(parsePath('urn:ietf:params:scim:schemas:core:2.0:User:externalId'), { attr: 'externalid' });
    const members = parsePath('members[value eq "2819c223"]');
    assert.equal(members.attr, 'members');
    assert.equal(members.filter?.kind, 'compare');
    assert.equal(
      scimTypeOf(() => parsePath('members[value eq')),
      'invalidPath',
    );
    assert.equal(
      scimTypeOf(() => parsePath('a b')),
      'invalidPath',
    );
  });
});

describe('SCIM PATCH', () => {
  const user = { userName: 'a@example.com', externalId: null, active: true };
  const ops = (...Operations: object[]) => parsePatchBody({ schemas: [PATCH_OP], Operations });

  it('applies the forms Entra ID and Okta send', () => {
    assert.equal(applyUserPatch(user, ops({ op: 'Replace', path: 'active', value: 'False' })).active, false);
    assert.equal(applyUserPatch(user, ops({ op: 'replace', value: { active: false } })).active, false);
    assert.equal(applyUserPatch(user, ops({ op: 'Add', path: 'externalId', value: 'x1' })).externalId, 'x1');
    const ignored = applyUserPatch(
      user,
      ops(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'other@example.com' },
        { op: 'Replace', path: 'name.givenName', value: 'A' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'IT' },
        { op: 'replace', value: { displayName: 'A B', 'name.familyName': 'B', userName: 'A@example.com' } },
      ),
    );
    assert.deepEqual(ignored, user);
    assert.equal(
      applyUserPatch({ ...user, externalId: 'x' }, ops({ op: 'remove', path: 'externalId' })).externalId,
      null,
    );
  });

  it('refuses a rename, an unknown attribute, a bad value and a malformed body', () => {
    assert.equal(
      scimTypeOf(() => applyUserPatch(user, ops({ op: 'replace', path: 'userName', value: 'b@example.com' }))),
      'mutability',
    );
    assert.equal(
      scimTypeOf(() => applyUserPatch(user, ops({ op: 'remove', path: 'active' }))),
      'mutability',
    );
    assert.equal(
      scimTypeOf(() => applyUserPatch(user, ops({ op: 'replace', path: 'shoeSize', value: 9 }))),
      'invalidPath',
    );
    assert.equal(
      scimTypeOf(() => applyUserPatch(user, ops({ op: 'replace', path: 'active', value: 'maybe' }))),
      'invalidValue',
    );
    assert.equal(
      scimTypeOf(() => parsePatchBody({ Operations: [] })),
      'invalidSyntax',
    );
    assert.equal(
      scimTypeOf(() => parsePatchBody({ schemas: ['x'], Operations: [{ op: 'add', value: 1 }] })),
      'invalidSyntax',
    );
    assert.equal(
      scimTypeOf(() => ops({ op: 'remove' })),
      'noTarget',
    );
    assert.equal(
      scimTypeOf(() => ops({ op: 'add', path: 'active' })),
      'invalidSyntax',
    );
  });

  it('changes a group’s members: add, remove by filter or by value, replace, and keeps its name', () => {
    const start = new Set(['u1', 'u2']);
    assert.deepEqual(
      [...applyGroupPatch(start, ops({ op: 'Add', path: 'members', value: [{ value: 'u3' }] }), 'admin')],
      ['u1', 'u2', 'u3'],
    );
    assert.deepEqual(
      [...applyGroupPatch(start, ops({ op: 'remove', path: 'members[value eq "u1"]' }), 'admin')],
      ['u2'],
    );
    assert.deepEqual(
      [...applyGroupPatch(start, ops({ op: 'Remove', path: 'members', value: [{ value: 'u2' }] }), 'admin')],
      ['u1'],
    );
    assert.deepEqual(
      [...applyGroupPatch(start, ops({ op: 'replace', path: 'members', value: [{ value: 'u9' }] }), 'admin')],
      ['u9'],
    );
    assert.deepEqual([...applyGroupPatch(start, ops({ op: 'remove', path: 'members' }), 'admin')], []);
    assert.deepEqual(
      [...applyGroupPatch(start, ops({ op: 'replace', value: { id: 'admin', displayName: 'Admin' } }), 'admin')],
      ['u1', 'u2'],
    );
    assert.equal(
      scimTypeOf(() => applyGroupPatch(start, ops({ op: 'replace', path: 'displayName', value: 'boss' }), 'admin')),
      'mutability',
    );
  });
});
