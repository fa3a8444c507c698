// One emulator for the whole file: starting it takes seconds.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { findFreePort, startAuthEmulator, type AuthEmulator } from './auth-emulator.ts';
import { identityToolkit, toolkitErrorCode as errorCode, type ToolkitResponse } from './identity-toolkit.ts';

const PROJECT_ID = 'demo-auth-emulator-test';
const EMAIL = 'clerk@example.com';
const PASSWORD = 'correct horse battery staple';

let emulator: AuthEmulator;
let port: number;
let workDir: string;
const emulatorOutput: string[] = [];

before(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'auth-emulator-test-'));
  port = await findFreePort();
  const startedAt = performance.now();
  emulator = await startAuthEmulator({
    port,
    projectId: PROJECT_ID,
    workDir,
    log: (line) => emulatorOutput.push(line),
  });
  console.log(`auth emulator started in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
});

after(async () => {
  await emulator?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

test('exposes host and url for FIREBASE_AUTH_EMULATOR_HOST', () => {
  assert.equal(emulator.host, `127.0.0.1:${port}`);
  assert.equal(emulator.url, `http://127.0.0.1:${port}`);
  assert.equal(emulator.projectId, PROJECT_ID);
});

test('validators compile on first use, and still refuse what the API description refuses', async () => {
  assert.deepEqual(
    emulatorOutput.filter((line) => line.includes('validators compile at start')),
    [],
    'the lazy-validation preload did not apply',
  );
  const invalid = await identityToolkit(emulator.url).call('signUp', {
    email: ['not', 'a string'],
    password: PASSWORD,
  });
  assert.equal(invalid.status, 400);
  assert.match(String(errorCode(invalid.body)), /Invalid JSON payload received\. \/email must be string/);
});

test('signs up and signs in with e-mail and password', async () => {
  const signUp = await identityToolkit(emulator.url).call('signUp', {
    email: EMAIL,
    password: PASSWORD,
    returnSecureToken: true,
  });
  assert.equal(signUp.status, 200, JSON.stringify(signUp.body));
  assert.equal(typeof signUp.body.idToken, 'string');

  const signIn = await signInWithPassword(EMAIL, PASSWORD);
  assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
  assert.equal(signIn.body.localId, signUp.body.localId);
});

test("a new account's tokens are never born revoked: signed in no earlier than its tokens are valid from", async () => {
  // The emulator's own sign-up token fails this whenever a second boundary falls inside its sign-up.
  const toolkit = identityToolkit(emulator.url);
  for (let index = 0; index < 25; index++) {
    const { idToken } = await toolkit.signUp(`newcomer-${index}@example.com`, PASSWORD);
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as {
      auth_time: number;
    };
    const lookup = await toolkit.call('lookup', { idToken });
    const [account] = lookup.body.users as { validSince: string }[];
    assert.ok(
      claims.auth_time >= Number(account?.validSince),
      `auth_time ${claims.auth_time}, valid since ${account?.validSince}`,
    );
  }
});

test('answers INVALID_LOGIN_CREDENTIALS for a wrong password and for an unknown e-mail', async () => {
  for (const [email, password] of [
    [EMAIL, 'wrong password'],
    ['nobody@example.com', PASSWORD],
  ] as const) {
    const response = await signInWithPassword(email, password);
    assert.equal(response.status, 400);
    assert.equal(errorCode(response.body), 'INVALID_LOGIN_CREDENTIALS', `${email}: ${JSON.stringify(response.body)}`);
  }
});

test('clearAccounts removes every account', async () => {
  await emulator.clearAccounts();
  const response = await signInWithPassword(EMAIL, PASSWORD);
  assert.equal(errorCode(response.body), 'INVALID_LOGIN_CREDENTIALS');
});

test('refuses a port that is already in use, without spawning firebase-tools', async () => {
  const secondWorkDir = path.join(workDir, 'second');
  await assert.rejects(
    startAuthEmulator({ port, projectId: PROJECT_ID, workDir: secondWorkDir }),
    /port \d+ on 127\.0\.0\.1 is already in use/,
  );
  // firebase-tools starts in the folder its firebase.json is written to: no folder, no firebase-tools. (A
  // time limit said the same only on an idle machine.)
  assert.equal(existsSync(secondWorkDir), false, 'should fail before starting an emulator');
});

test('refuses a project id without the demo- prefix', async () => {
  await assert.rejects(startAuthEmulator({ port, projectId: 'portal-prod', workDir }), /must start with "demo-"/);
});

// Last: everything above needs the running emulator.
test('stop() leaves nothing listening on the port, and is idempotent', async () => {
  await emulator.stop();
  assert.equal(await isListening(port), false);
  await emulator.stop();
});

function signInWithPassword(email: string, password: string): Promise<ToolkitResponse> {
  return identityToolkit(emulator.url).call('signInWithPassword', { email, password, returnSecureToken: true });
}

function isListening(portToCheck: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: portToCheck, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('with persistDir, keeps its accounts across a stop and a start, and signs them in again', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'auth-emulator-persist-'));
  const options = { port: await findFreePort(), projectId: 'demo-auth-emulator-persist', workDir: dir };
  const persistDir = path.join(dir, 'accounts');
  try {
    const first = await startAuthEmulator({ ...options, persistDir });
    try {
      const created = await identityToolkit(first.url).call('signUp', {
        email: EMAIL,
        password: PASSWORD,
        returnSecureToken: true,
      });
      assert.equal(created.status, 200);
    } finally {
      await first.stop();
    }
    const second = await startAuthEmulator({ ...options, persistDir });
    try {
      const again = await identityToolkit(second.url).call('signInWithPassword', {
        email: EMAIL,
        password: PASSWORD,
        returnSecureToken: true,
      });
      assert.equal(again.status, 200, JSON.stringify(again.body));
    } finally {
      await second.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
