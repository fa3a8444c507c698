/** Talks to the Auth emulator's REST API the way the web SDK would, to get real ID tokens in tests. */
const emulatorHost = () => {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host) throw new Error('FIREBASE_AUTH_EMULATOR_HOST is not set: run the API tests through `npm run test:api`');
  return host;
};

async function identityToolkit<T>(method: string, body: unknown): Promise<T> {
  const response = await fetch(
    `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  const json = (await response.json()) as T & { error?: { message: string } };
  if (!response.ok) throw new Error(`accounts:${method} failed: ${json.error?.message ?? response.status}`);
  return json;
}

export async function signUp(email: string, password = 'test-password-1') {
  const result = await identityToolkit<{ idToken: string; localId: string }>('signUp', {
    email,
    password,
    returnSecureToken: true,
  });
  return { uid: result.localId, idToken: result.idToken };
}

export async function signIn(email: string, password = 'test-password-1') {
  const result = await identityToolkit<{ idToken: string; localId: string }>('signInWithPassword', {
    email,
    password,
    returnSecureToken: true,
  });
  return { uid: result.localId, idToken: result.idToken };
}

export async function clearEmulatorAccounts(projectId: string) {
  await fetch(`http://${emulatorHost()}/emulator/v1/projects/${projectId}/accounts`, { method: 'DELETE' });
}

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
