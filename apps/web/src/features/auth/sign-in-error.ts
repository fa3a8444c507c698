const CREDENTIAL_ERRORS = new Set([
  'auth/invalid-credential',
  'auth/invalid-login-credentials',
  'auth/wrong-password',
  'auth/user-not-found',
  'auth/invalid-email',
]);

/**
 * The spec: a failed sign-in shows the provider's error text (or "Login failed"), and for wrong
 * credentials "Either email or password is incorrect", which a person can act on.
 */
export function signInErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CREDENTIAL_ERRORS.has(code)) return 'Either email or password is incorrect';
  if (code === 'auth/too-many-requests')
    return 'Too many failed attempts. Please wait a few minutes or reset your password.';
  if (code === 'auth/network-request-failed')
    return 'The sign-in service could not be reached. Please check your connection.';
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : 'Login failed';
}
