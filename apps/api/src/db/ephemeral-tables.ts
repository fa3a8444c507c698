import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import {
  adminApprovals,
  adminConfirmations,
  adminEnrollmentCodes,
  adminStepUps,
  invoiceRetention,
  rateLimitWindows,
  webauthnChallenges,
} from './schema.ts';

/**
 * Tables of short-lived state that a backup leaves out and a restore starts empty: rate-limit windows (a
 * fresh budget after a restore costs nothing), passkey confirmations of sign-ins and WebAuthn challenges
 * (minutes old at most; a restored one would only let a sign-in skip a passkey check it can simply redo),
 * the browser-bound confirmations that replaced them, and passkey enrollment codes (a day at most; a restored
 * code could set up a passkey after the admin who issued it had moved on: whoever needs one is issued anew),
 * and the approvals a promotion or reset waits for (a day at most; one restored could be approved long after
 * whoever asked had changed their mind; the audit log keeps every request and decision).
 * And the invoice retention in force, which each process sets from its own configuration at start.
 * Every other table is kept, a new one included, unless it is added here.
 */
export const EPHEMERAL_TABLES: PgTable[] = [
  rateLimitWindows,
  adminStepUps,
  adminConfirmations,
  adminEnrollmentCodes,
  adminApprovals,
  webauthnChallenges,
  invoiceRetention,
];

export const EPHEMERAL_TABLE_NAMES: ReadonlySet<string> = new Set(
  EPHEMERAL_TABLES.map((table) => getTableConfig(table).name),
);
