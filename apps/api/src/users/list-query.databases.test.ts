import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { listUsers } from './list-query.ts';

/** Every page, whichever query strategy serves it, must be the same slice of the one sorted list. */
describe('listUsers pages', () => {
  const t = useTestApp();

  it('match the unpaged list for every search, offset, limit and strategy', async () => {
    const emails = Array.from(
      { length: 60 },
      (_, i) => `${i % 2 ? 'anna' : 'ben'}.${String(i).padStart(3, '0')}@example.com`,
    );
    for (const email of [...emails, 'a_b@example.com', 'axb@example.com']) await t.app.domain.users.insert({ email });
    const db = t.database.db;
    for (const search of [undefined, 'anna', 'ANNA.0', 'a_b', 'nobody']) {
      const all = (await listUsers(db, { search })).items.map((row) => row.email);
      for (const fewMatches of [0, 1_000]) {
        for (const limit of [1, 7, 50, undefined]) {
          for (const offset of [0, 3, 29, 31, 55, 61, 62, 100]) {
            const page = await listUsers(db, { search, limit, offset }, { fewMatches });
            const expected = all.slice(offset, limit === undefined ? undefined : offset + limit);
            const label = JSON.stringify({ search, limit, offset, fewMatches });
            assert.deepEqual(
              page.items.map((row) => row.email),
              expected,
              label,
            );
            assert.equal(page.total, all.length, label);
            assert.ok(
              page.items.every((row) => row.createdAt instanceof Date),
              label,
            );
          }
        }
      }
    }
  });
});
