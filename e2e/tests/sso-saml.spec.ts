import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { demoAccount, findFreePort, identityToolkit, startStack, type Stack } from '@portal/dev-stack';
import {
  createSoftwareAuthenticator,
  enrollPasskey,
  httpPortalSession,
  stepUpWithPasskey,
} from '@portal/dev-stack/passkeys';
import { expect, test } from '../fixtures.ts';
import { SSO_COMPANY, ssoFlows, type SsoPortal } from '../sso.ts';

/**
 * A deployment has one provider (SSO_PROVIDER_ID): the shared stack's is OIDC, so the SAML flows get a
 * stack of their own, started once for this file.
 */
test.describe.configure({ mode: 'serial' });

let stack: Stack | undefined;
let dataDir: string | undefined;
let ssoPortal: SsoPortal | undefined;

test.beforeAll(async () => {
  test.setTimeout(420_000);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-saml-'));
  stack = await startStack({
    port: await findFreePort(),
    emulatorPort: await findFreePort(),
    dataDir,
    // The compiled API (built by then): it starts in seconds where tsx would compile the sources first.
    api: 'compiled',
    // Started beside the shared stack and its browsers: on a busy 2-core machine firebase-tools takes longer.
    readyTimeoutMs: 240_000,
    env: {
      SSO_PROVIDER_ID: 'saml.example-company',
      SSO_BUTTON_LABEL: SSO_COMPANY,
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '10000',
      RATE_LIMIT_ANONYMOUS_CONCURRENCY: '1000',
      LOG_LEVEL: 'warn',
    },
  });
  const url = stack.url;
  // The demo admin's first passkey (the code the seed issued), then a confirmed session for the list's changes.
  const admin = demoAccount('admin@example.com');
  const { idToken } = await identityToolkit(stack.emulator.url).signIn(admin.email, admin.password);
  const session = httpPortalSession(url, idToken);
  const passkey = createSoftwareAuthenticator({ origin: url, signCountFromClock: true });
  await enrollPasskey(session.call, passkey, { enrollmentCode: stack.demoAdminEnrollment?.code });
  const adminCall = async (method: 'POST' | 'DELETE', email: string) => {
    let answer = await session.call(method, `/api/users/${encodeURIComponent(email)}`);
    if (answer.status === 403) {
      await stepUpWithPasskey(session.call, passkey);
      answer = await session.call(method, `/api/users/${encodeURIComponent(email)}`);
    }
    return answer.status;
  };
  ssoPortal = {
    url,
    async addUser(email) {
      expect(await adminCall('POST', email)).toBe(201);
    },
    async removeUser(email) {
      expect(await adminCall('DELETE', email)).toBe(200);
    },
  };
});

test.afterAll(async () => {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

ssoFlows('SAML', () => ssoPortal!);
