import type {
  CeremonyOverrides,
  CreationOptions,
  RequestOptions,
  SoftwareAuthenticator,
} from './software-authenticator.ts';

/**
 * One signed-in call to the portal's API (`path` includes `/api`): over HTTP for scripts and e2e set-up,
 * through Fastify's inject for API tests. The bearer token is the caller's business.
 */
export type PortalCall = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>;

async function expectStatus(call: ReturnType<PortalCall>, expected: number, what: string) {
  const { status, body } = await call;
  if (status !== expected) throw new Error(`${what}: HTTP ${status} ${JSON.stringify(body)}`);
  return body;
}

/** Sets up a passkey on the authenticator through the portal's endpoints; the sign-in is then confirmed. */
export async function enrollPasskey(
  call: PortalCall,
  authenticator: SoftwareAuthenticator,
  overrides?: CeremonyOverrides,
) {
  const options = (await expectStatus(
    call('POST', '/api/me/passkeys/options'),
    200,
    'passkey options',
  )) as CreationOptions;
  return expectStatus(
    call('POST', '/api/me/passkeys', authenticator.register(options, overrides)),
    201,
    'passkey set-up',
  );
}

/** Confirms the sign-in with the authenticator's passkey through the portal's endpoints. */
export async function stepUpWithPasskey(
  call: PortalCall,
  authenticator: SoftwareAuthenticator,
  overrides?: CeremonyOverrides,
) {
  const options = (await expectStatus(
    call('POST', '/api/me/step-up/options'),
    200,
    'step-up options',
  )) as RequestOptions;
  return expectStatus(call('POST', '/api/me/step-up', authenticator.authenticate(options, overrides)), 200, 'step-up');
}

/** What an admin does on the way to the admin page: set up a passkey the first time, use it every time after. */
export async function enrollOrStepUp(call: PortalCall, authenticator: SoftwareAuthenticator) {
  const status = (await expectStatus(call('GET', '/api/me/step-up'), 200, 'step-up status')) as { passkeys: number };
  return status.passkeys === 0 ? enrollPasskey(call, authenticator) : stepUpWithPasskey(call, authenticator);
}

/** Calls over HTTP to a running portal as the holder of `idToken`. */
export function httpPortalCall(baseUrl: string, idToken: string): PortalCall {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${idToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    try {
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    } catch {
      return { status: response.status, body: text };
    }
  };
}
