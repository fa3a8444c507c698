import { createHash, randomInt } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { adminEnrollmentCodes } from '../db/schema.ts';

/** How long an enrollment code may wait to be used: a working day and a night, then ask for a new one. */
export const ENROLLMENT_CODE_TTL_MS = 24 * 60 * 60_000;

/** Crockford's base32: no I, L, O or U, so a code read aloud or typed from paper is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** 16 symbols of 5 bits: 80 random bits, shown as XXXX-XXXX-XXXX-XXXX. */
export function newEnrollmentCode(): string {
  const groups: string[] = [];
  for (let group = 0; group < GROUPS; group++) {
    let text = '';
    for (let index = 0; index < GROUP_LENGTH; index++) text += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(text);
  }
  return groups.join('-');
}

/** The code as typed (any case, spaces or dashes, O for 0, I or L for 1), in one spelling to hash. */
export const normalizeEnrollmentCode = (typed: string) =>
  typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');

/** Only the hash is kept: the table does not let anyone who reads it set up a passkey. */
const hashOfCode = (typed: string) =>
  createHash('sha256')
    .update(`portal-enrollment:${normalizeEnrollmentCode(typed)}`)
    .digest('hex');

/** One-time codes that let an administrator set up their first passkey; at most one live code per address. */
export function createEnrollmentCodes(db: Database) {
  const matching = (email: string, typed: string) =>
    and(
      eq(adminEnrollmentCodes.email, email),
      eq(adminEnrollmentCodes.codeHash, hashOfCode(typed)),
      gt(adminEnrollmentCodes.expiresAt, sql`now()`),
    );

  return {
    /** Issues a new code for the address (any earlier one stops working); returns it and when it runs out. */
    async issue(email: string, issuedBy: string): Promise<{ code: string; expiresAt: Date }> {
      const code = newEnrollmentCode();
      const values = {
        email,
        codeHash: hashOfCode(code),
        issuedBy,
        expiresAt: sql`now() + make_interval(secs => ${ENROLLMENT_CODE_TTL_MS / 1000})`,
      };
      const [row] = await db
        .insert(adminEnrollmentCodes)
        .values(values)
        .onConflictDoUpdate({
          target: adminEnrollmentCodes.email,
          set: { codeHash: values.codeHash, issuedBy, issuedAt: sql`now()`, expiresAt: values.expiresAt },
        })
        .returning({ expiresAt: adminEnrollmentCodes.expiresAt });
      if (!row) throw new Error('issuing an enrollment code returned no row');
      return { code, expiresAt: row.expiresAt };
    },

    /** Whether this is the address's live code, without using it up (before a ceremony starts). */
    async holds(email: string, typed: string): Promise<boolean> {
      const [row] = await db
        .select({ email: adminEnrollmentCodes.email })
        .from(adminEnrollmentCodes)
        .where(matching(email, typed));
      return row !== undefined;
    },

    /** Uses the code up when it is the address's live one: true once, for one of any racing requests. */
    async consume(email: string, typed: string): Promise<boolean> {
      const taken = await db
        .delete(adminEnrollmentCodes)
        .where(matching(email, typed))
        .returning({ email: adminEnrollmentCodes.email });
      return taken.length > 0;
    },
  };
}

export type EnrollmentCodes = ReturnType<typeof createEnrollmentCodes>;
