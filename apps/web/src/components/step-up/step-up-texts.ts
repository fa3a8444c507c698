/**
 * The words of the passkey cards and prompt. Each page that needs a passkey says why and what it opens in
 * its own words; the rest is the same everywhere.
 */
export interface StepUpTexts {
  /** Why this page asks for a passkey, on the set-up card. */
  setUpWhy: string;
  /** Where the one-time enrollment code comes from, under its field. */
  codeHint: string;
  /** What using the passkey opens, and for how long (`length` as "10 minutes"). */
  confirmHow: (length: string) => string;
  /** Who helps when the passkey is lost. */
  lostPasskey: string;
}

/** "10 minutes", "30 seconds": how long a passkey confirmation holds, as the page says it. */
export function confirmationLength(seconds: number): string {
  if (seconds % 60 !== 0 || seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export const PASSKEY_SETUP_TITLE = 'Set up a passkey';
export const passkeySetupHow = (seconds: number) =>
  `You set it up once. After that, the portal asks for it when you open this page, and again when you act after ${confirmationLength(seconds)}.`;
export const ENROLLMENT_CODE_LABEL = 'Enrollment code';
export const MISSING_CODE_MESSAGE = 'Please enter your enrollment code.';
export const PASSWORD_AGAIN_HINT = 'You signed in a while ago: enter your password again to set up your passkey.';
export const STEP_UP_TITLE = "Confirm it's you";
export const STEP_UP_PROMPT_DEFAULT = 'Please confirm it is you with your passkey to continue.';
