/**
 * How long a sign-in may be used, counted on the server from the moment the password was entered (the
 * token's `auth_time`, which token refreshes keep). Firebase lets a refresh token mint ID tokens for
 * ever; this is what ends a session that nobody signs out of. Administrators' sessions are shorter.
 */
export interface SessionLifetimes {
  userMs: number;
  adminMs: number;
}

export function sessionHasEnded(input: {
  authTimeMs: number;
  nowMs: number;
  admin: boolean;
  lifetimes: SessionLifetimes;
}): boolean {
  const lifetime = input.admin ? input.lifetimes.adminMs : input.lifetimes.userMs;
  return input.nowMs - input.authTimeMs > lifetime;
}

export const SESSION_ENDED_MESSAGE = 'Your session has ended after its maximum length. Please sign in again.';
