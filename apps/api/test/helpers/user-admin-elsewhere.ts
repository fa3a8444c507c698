import { createAccountCleaner } from '../../src/users/account-cleaner.ts';
import { createUserAdmin } from '../../src/users/user-admin.ts';
import type { TestContext } from './test-app.ts';

/**
 * User administration as another process has it (the CLI): the test app's database, identity provider and
 * audit trail, but none of this server's token cache or sessions, so nothing it does is forgotten here at once.
 */
export function userAdminElsewhere(t: TestContext) {
  return createUserAdmin({
    users: t.app.domain.users,
    audit: t.app.domain.auditTrail,
    identity: t.identity,
    cleaner: createAccountCleaner({
      cleanups: t.app.domain.accountCleanups,
      users: t.app.domain.users,
      identity: t.identity,
      audit: t.app.domain.auditTrail,
      log: t.app.log,
    }),
    log: t.app.log,
  });
}
