/**
 * Firebase Auth's own addresses, which the browser calls directly: sign-in and the account lookup that
 * restores one, and token refreshes. The API allows both in its Content-Security-Policy; the SPA opens its
 * connection to the first early. Without zod, like the other modules the first page loads.
 */
export const FIREBASE_SIGN_IN_ORIGIN = 'https://identitytoolkit.googleapis.com';
export const FIREBASE_TOKEN_ORIGIN = 'https://securetoken.googleapis.com';
