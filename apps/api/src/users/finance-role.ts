import type { PasskeyCeremonies } from '../passkeys/passkey-ceremonies.ts';
import type { UserRow } from './repository.ts';
import type { UserAdmin } from './user-admin.ts';

export interface FinanceRoleDeps {
  userAdmin: Pick<UserAdmin, 'setFinance'>;
  passkeys: Pick<PasskeyCeremonies, 'codeForNewAdmin'>;
}

/** A one-time enrollment code as it is handed over: the code, and when it runs out. */
export interface IssuedEnrollment {
  code: string;
  expiresAt: string;
}

/**
 * Giving or taking the finance role, for every path that does it (the admin screen, the CLI, the company
 * directory): the role reads and exports every invoice, so it needs a passkey like an administrator's, and
 * whoever gives it receives the one-time code the person sets up their first passkey with.
 *
 * The directory cannot hand a code to anyone (its answer goes back to the directory's sync, read by no
 * person), so none is issued for it: the person asks an administrator for one (`users enrollment-code`, or
 * "Reset passkeys" on the admin screen), who hands it over in person or by phone.
 */
export function createFinanceRole(deps: FinanceRoleDeps) {
  return {
    async setFinance(input: {
      email: string;
      finance: boolean;
      actor: string;
      byDirectory?: boolean;
    }): Promise<{ row: UserRow; enrollment?: IssuedEnrollment }> {
      const row = await deps.userAdmin.setFinance(input);
      if (!input.finance || input.byDirectory) return { row };
      const enrollment = await deps.passkeys.codeForNewAdmin({ email: input.email, actor: input.actor });
      return enrollment ? { row, enrollment } : { row };
    },
  };
}

export type FinanceRole = ReturnType<typeof createFinanceRole>;
