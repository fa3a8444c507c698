import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';
import { createUsersRepository } from './repository.ts';

describe('the users repository', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await openDatabase(await testPgliteTarget());
  });
  after(() => database.close());

  it('announces the changes of a transaction once it commits, and none of one rolled back', async () => {
    const heard: string[] = [];
    const users = createUsersRepository(database.db, { onChanged: (email) => heard.push(email) });
    await users.transaction(async (inTransaction) => {
      await inTransaction.insert({ email: 'a@example.com' });
      await inTransaction.update('a@example.com', { admin: true });
      assert.deepEqual(heard, [], 'nothing is announced before the commit');
    });
    assert.deepEqual(heard, ['a@example.com'], 'announced once, after the commit');
    await assert.rejects(
      users.transaction(async (inTransaction) => {
        await inTransaction.remove('a@example.com');
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.deepEqual(heard, ['a@example.com'], 'a rolled-back removal is not announced');
    assert.equal((await users.findByEmail('a@example.com'))?.admin, true);
  });
});
