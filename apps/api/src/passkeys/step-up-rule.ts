/**
 * Whether a sign-in's passkey confirmation still holds: one rule, with every input given, so it is the
 * same for the authorization hook, the status the admin page reads, and the tests.
 */
export type StepUpVerdict =
  | { holds: true; expiresAtMs: number }
  /** `none`: this sign-in never confirmed; `expired`: it did, longer ago than the configured recency. */
  | { holds: false; why: 'none' | 'expired' };

export function judgeStepUp(input: {
  /** When this very sign-in (uid and auth_time) last confirmed its passkey; undefined when never. */
  steppedUpAtMs: number | undefined;
  nowMs: number;
  maxAgeMs: number;
}): StepUpVerdict {
  const { steppedUpAtMs, nowMs, maxAgeMs } = input;
  if (steppedUpAtMs === undefined) return { holds: false, why: 'none' };
  const expiresAtMs = steppedUpAtMs + maxAgeMs;
  return nowMs < expiresAtMs ? { holds: true, expiresAtMs } : { holds: false, why: 'expired' };
}

/**
 * Whether the password was entered recently enough to set up a first passkey: setting up a second factor
 * is itself a change that needs a fresh sign-in, so a stolen long-lived session cannot enroll its own key.
 */
export function signedInRecently(input: { authTimeMs: number; nowMs: number; maxAgeMs: number }): boolean {
  return input.nowMs - input.authTimeMs <= input.maxAgeMs;
}
