import type { IdentityProvider } from '../identity/identity-provider.ts';
import type { UsersRepository } from '../repositories/users-repository.ts';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';

/** Idempotent: a second run finds every account and row in place and changes nothing. */
export async function seedDemoUsers(identity: IdentityProvider, users: UsersRepository) {
  if (!identity.createUserWithPassword) throw new Error('this identity provider cannot create demo accounts');
  for (const account of DEMO_ACCOUNTS) {
    const { uid } = account.password
      ? await identity.createUserWithPassword(account.email, account.password)
      : await identity.createUser(account.email);
    if (!account.allowlisted) continue;
    const existing = await users.findByEmail(account.email);
    if (existing) {
      if (existing.firebaseUid !== uid) await users.update(account.email, { firebaseUid: uid });
      continue;
    }
    await users.insert({
      email: account.email,
      admin: account.admin,
      activated: account.activated,
      registered: true,
      firebaseUid: uid,
      createdBy: 'demo seed',
    });
  }
}
