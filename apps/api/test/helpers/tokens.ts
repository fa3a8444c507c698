import { identityToolkit } from '@portal/dev-stack';

/** The emulator `npm run test:api` started, through the one Identity Toolkit client. */
export const emulator = () => {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host) throw new Error('FIREBASE_AUTH_EMULATOR_HOST is not set: run the API tests through `npm run test:api`');
  return identityToolkit(`http://${host}`);
};

export const signUp = (email: string, password = 'test-password-1') => emulator().signUp(email, password);
export const signIn = (email: string, password = 'test-password-1') => emulator().signIn(email, password);

/** Re-signs nothing: the emulator's tokens are unsigned, so a test can alter claims to build bad tokens. */
export function withClaims(idToken: string, changes: Record<string, unknown>) {
  const [header, payload] = idToken.split('.');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
  return `${header}.${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.`;
}

export const tokenForOtherProject = (idToken: string, otherProjectId = 'demo-someone-else') =>
  withClaims(idToken, { aud: otherProjectId, iss: `https://securetoken.google.com/${otherProjectId}` });

export const expiredToken = (idToken: string) => {
  const past = Math.floor(Date.now() / 1000) - 7200;
  return withClaims(idToken, { iat: past - 3600, auth_time: past - 3600, exp: past });
};
