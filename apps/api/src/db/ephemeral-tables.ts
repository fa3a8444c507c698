import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { adminStepUps, rateLimitWindows, webauthnChallenges } from './schema.ts';

/**
 * Tables of short-lived state that a backup leaves out and a restore starts empty: rate-limit windows (a
 * fresh budget after a restore costs nothing), passkey confirmations of sign-ins and WebAuthn challenges
 * (minutes old at most; a restored one would only let a sign-in skip a passkey check it can simply redo).
 * Every other table is kept, a new one included, unless it is added here.
 */
export const EPHEMERAL_TABLES: PgTable[] = [rateLimitWindows, adminStepUps, webauthnChallenges];

export const EPHEMERAL_TABLE_NAMES: ReadonlySet<string> = new Set(
  EPHEMERAL_TABLES.map((table) => getTableConfig(table).name),
);
