import type {
  CeremonyOverrides,
  CreationOptions,
  RequestOptions,
  SoftwareAuthenticator,
} from './software-authenticator.ts';

/**
 * One signed-in call to the portal's API (`path` includes `/api`): over HTTP for scripts and e2e set-up,
 * through Fastify's inject for API tests. The bearer token is the caller's business, and so is the step-up
 * secret: like a browser's cookie, a call keeps the one its last ceremony answered with and sends it back.
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

/** The cookie a finished ceremony sets, and the header a script may send its value in instead. */
export const STEP_UP_COOKIE = 'portal_step_up';
export const STEP_UP_HEADER = 'x-admin-step-up';

/** The step-up secret among a response's Set-Cookie lines, when a ceremony set one. */
export function stepUpSecretFrom(setCookies: readonly string[]): string | undefined {
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const at = pair?.indexOf('=') ?? -1;
    if (pair && at > 0 && pair.slice(0, at).trim() === STEP_UP_COOKIE) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * Sets up a passkey on the authenticator through the portal's endpoints; the sign-in is then confirmed for
 * this call. A first passkey needs the one-time `enrollmentCode` the admin was given.
 */
export async function enrollPasskey(
  call: PortalCall,
  authenticator: SoftwareAuthenticator,
  input: { enrollmentCode?: string | undefined; overrides?: CeremonyOverrides } = {},
) {
  const code = input.enrollmentCode === undefined ? {} : { enrollmentCode: input.enrollmentCode };
  const options = (await expectStatus(
    call('POST', '/api/me/passkeys/options', code),
    200,
    'passkey options',
  )) as CreationOptions;
  return expectStatus(
    call('POST', '/api/me/passkeys', { ...authenticator.register(options, input.overrides), ...code }),
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

/**
 * What an admin does on the way to the admin page: set up a passkey the first time (with the enrollment
 * code), use it every time after.
 */
export async function enrollOrStepUp(call: PortalCall, authenticator: SoftwareAuthenticator, enrollmentCode?: string) {
  const status = (await expectStatus(call('GET', '/api/me/step-up'), 200, 'step-up status')) as { passkeys: number };
  return status.passkeys === 0
    ? enrollPasskey(call, authenticator, { enrollmentCode })
    : stepUpWithPasskey(call, authenticator);
}

/**
 * Calls over HTTP to a running portal as the holder of `idToken`, keeping the step-up secret a ceremony
 * answers with and sending it back in the `X-Admin-Step-Up` header, as a script without a cookie jar would.
 * `headers()` are those of the next call, for a request `call` cannot send (an upload).
 */
export function httpPortalSession(baseUrl: string, idToken: string) {
  let stepUpSecret: string | undefined;
  const headers = (): Record<string, string> => ({
    authorization: `Bearer ${idToken}`,
    ...(stepUpSecret === undefined ? {} : { [STEP_UP_HEADER]: stepUpSecret }),
  });
  const call: PortalCall = async (method, path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...headers(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    stepUpSecret = stepUpSecretFrom(response.headers.getSetCookie()) ?? stepUpSecret;
    const text = await response.text();
    try {
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    } catch {
      return { status: response.status, body: text };
    }
  };
  return { call, headers };
}

/** `httpPortalSession`'s calls alone. */
export const httpPortalCall = (baseUrl: string, idToken: string): PortalCall =>
  httpPortalSession(baseUrl, idToken).call;
