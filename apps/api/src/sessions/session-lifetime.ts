/**
 * How long a sign-in may be used, counted on the server from the moment the password was entered (the
 * token's `auth_time`, which token refreshes keep). Firebase lets a refresh token mint ID tokens for
 * ever; this is what ends a session that nobody signs out of. Administrators' and finance users' sessions
 * are shorter, and also end after a while without a call (decision 85).
 */
export interface SessionLifetimes {
  userMs: number;
  adminMs: number;
  financeMs: number;
  /** How long an administrator's or finance user's sign-in may go without a call before it ends. */
  privilegedIdleMs: number;
}

/** The roles whose sessions are shorter; a person with both gets the shorter of the two. */
export interface SessionRoles {
  admin: boolean;
  finance?: boolean;
}

export function sessionLifetimeOf(roles: SessionRoles, lifetimes: SessionLifetimes): number {
  const limits = [lifetimes.userMs];
  if (roles.admin) limits.push(lifetimes.adminMs);
  if (roles.finance) limits.push(lifetimes.financeMs);
  return Math.min(...limits);
}

export function sessionHasEnded(
  input: SessionRoles & { authTimeMs: number; nowMs: number; lifetimes: SessionLifetimes },
): boolean {
  return input.nowMs - input.authTimeMs > sessionLifetimeOf(input, input.lifetimes);
}

/** Whether a privileged sign-in has gone without a call for longer than it may (its last call given). */
export function sessionWentIdle(input: { lastSeenAtMs: number; nowMs: number; idleMs: number }): boolean {
  return input.nowMs - input.lastSeenAtMs > input.idleMs;
}

export const SESSION_ENDED_MESSAGE = 'Your session has ended after its maximum length. Please sign in again.';

/** "30 minutes", "45 seconds": the quiet time after which a session ends, as a person reads it. */
const quietTimeOf = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  if (seconds % 60 !== 0) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
};

export const sessionIdleMessage = (idleMs: number) =>
  `Your session has ended after ${quietTimeOf(idleMs)} without activity. Please sign in again.`;
