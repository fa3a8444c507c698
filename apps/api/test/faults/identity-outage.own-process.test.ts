import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { findFreePort, startAuthEmulator, type AuthEmulator } from '@portal/dev-stack';
import { stepUpWithPasskey } from '@portal/dev-stack/passkeys';
import { IDENTITY_UNAVAILABLE_MESSAGE } from '../../src/plugins/errors.ts';
import { signIn, signUp } from '../helpers/tokens.ts';
import { secondsUntil, startTcpProxy, timed } from '../helpers/tcp-proxy.ts';
import { useTestApp } from '../helpers/test-app.ts';

// Why a process of its own (.own-process): it points the process's identity provider address at a proxy it stops and starts.

/**
 * This file stops and restarts an Auth emulator of its own (the launcher npm start uses), keeping its
 * accounts across the restart as a real provider would; the API reaches it through a proxy that can
 * also make it hang. A project of its own: firebase-tools finds a running emulator by project id, and
 * would otherwise export the shared one's accounts at the restart.
 */
const PROJECT_ID = 'demo-idp-outage';
const emulatorPort = await findFreePort();
const workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-idp-outage-'));
const startEmulator = () =>
  startAuthEmulator({
    port: emulatorPort,
    projectId: PROJECT_ID,
    workDir,
    persistDir: path.join(workDir, 'accounts'),
  });
let emulator: AuthEmulator = await startEmulator();
const proxy = await startTcpProxy({ host: '127.0.0.1', port: emulatorPort });
process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${proxy.port}`;

const ANSWER_WITHIN_S = 5;

describe('an identity-provider outage under a running server', () => {
  // Every request re-verifies its token, so only the outage grace can carry a known token through.
  const t = useTestApp({
    env: { FIREBASE_PROJECT_ID: PROJECT_ID, TOKEN_RECHECK_SECONDS: '0', IDENTITY_TIMEOUT_MS: '2000' },
  });
  beforeEach(() => emulator.clearAccounts());
  after(async () => {
    await proxy.close();
    await emulator.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  async function people() {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const known = await t.createAccount('known@example.com');
    const newcomer = await t.createAccount('newcomer@example.com');
    await t.createAccount('leaver@example.com');
    const tokens = { admin: admin.idToken, known: known.idToken, newcomer: newcomer.idToken };
    const as = (who: keyof typeof tokens, url: string, method: 'GET' | 'POST' | 'DELETE' = 'GET', payload?: object) =>
      t.app.inject({ method, url, headers: t.bearer(tokens[who]), ...(payload ? { payload } : {}) });
    const adminList = () => as('admin', '/api/users');
    const knownInvoice = () => as('known', '/api/invoice?parcelCode=NONE1');
    const newcomerInvoice = () => as('newcomer', '/api/invoice?parcelCode=NONE1');
    // Seen by the portal before the outage: their tokens are verified and remembered.
    assert.equal((await adminList()).statusCode, 200);
    assert.equal((await knownInvoice()).statusCode, 404);
    const addUser = () => as('admin', '/api/users/added@example.com', 'POST', {});
    const removeLeaver = () => as('admin', '/api/users/leaver@example.com', 'DELETE');
    /**
     * The emulator, unlike Firebase, marks every imported account as signed out at its restart: after one,
     * people sign in again.
     */
    const signInAgain = async () => {
      for (const who of ['admin', 'known', 'newcomer'] as const)
        tokens[who] = (await signIn(`${who}@example.com`)).idToken;
      // A new sign-in of an admin confirms with the passkey again before an admin call.
      await stepUpWithPasskey(t.callAs(tokens.admin), admin.passkey);
    };
    return { adminList, knownInvoice, newcomerInvoice, addUser, removeLeaver, signInAgain };
  }

  async function assertOutageAnswers(label: string, calls: Awaited<ReturnType<typeof people>>) {
    const answers = [];
    // Known people keep working: never a 401 that would send them to the login screen.
    answers.push(await timed(calls.adminList));
    assert.equal(answers.at(-1)?.answer.statusCode, 200, answers.at(-1)?.answer.body);
    answers.push(await timed(calls.knownInvoice));
    assert.equal(answers.at(-1)?.answer.statusCode, 404, answers.at(-1)?.answer.body);
    for (const call of [calls.newcomerInvoice, calls.addUser]) {
      const { answer, seconds } = await timed(call);
      answers.push({ answer, seconds });
      assert.equal(answer.statusCode, 503, `${answer.statusCode} ${answer.body}`);
      assert.deepEqual(answer.json(), {
        message: IDENTITY_UNAVAILABLE_MESSAGE,
        code: 'unavailable',
        requestId: answer.headers['x-request-id'],
      });
    }
    // A removal holds whatever the provider does: the row alone decides access. Its account waits in the queue.
    const removal = await timed(calls.removeLeaver);
    answers.push(removal);
    assert.equal(removal.answer.statusCode, 200, removal.answer.body);
    assert.deepEqual(removal.answer.json(), { email: 'leaver@example.com', accountCleanup: 'pending' });
    const longest = Math.max(...answers.map((entry) => entry.seconds));
    assert.ok(longest < ANSWER_WITHIN_S, `${label}: longest answer ${longest.toFixed(2)} s`);
    return { longest, removalSeconds: removal.seconds };
  }

  /**
   * The failed add left no row. It may have left an account: the provider's client (firebase-admin) goes on
   * retrying a create after the portal gave up, and a provider back within its retries, or one that hangs
   * and then answers, carries it out. (Through the proxy a stopped emulator is a reset connection, which the
   * client retries.) That account is on no list, so it lets nobody in, and the next add adopts it.
   */
  async function assertConsistentAfterwards(calls: Awaited<ReturnType<typeof people>>) {
    assert.equal(await t.app.domain.users.findByEmail('added@example.com'), undefined);
    // The removal held; its account was queued for deletion until the provider answers. It answers again
    // by now, so the background round may already have finished the job: one queued at most.
    assert.equal(await t.app.domain.users.findByEmail('leaver@example.com'), undefined);
    assert.ok((await t.app.domain.accountCleanups.pending(10)).total <= 1);
    // The add succeeds now, and the queued clean-up is finished (as the background round would).
    assert.equal((await calls.addUser()).statusCode, 201);
    assert.ok(await t.identity.findUserByEmail('added@example.com'));
    // Now, or by the background round should it hold the job at this moment.
    await secondsUntil(
      async () => {
        await t.app.domain.accountCleaner.runAll();
        return (await t.app.domain.accountCleanups.pending(10)).total;
      },
      (pending) => pending === 0,
    );
    assert.equal(await t.identity.findUserByEmail('leaver@example.com'), undefined);
  }

  it('keeps known sessions working and answers 503 to the rest while the emulator is stopped', async (test) => {
    const calls = await people();
    await emulator.stop();
    let timings;
    try {
      timings = await assertOutageAnswers('stopped', calls);
    } finally {
      emulator = await startEmulator();
    }
    await calls.signInAgain();
    const recovery = await secondsUntil(calls.newcomerInvoice, (answer) => answer.statusCode === 404);
    await assertConsistentAfterwards(calls);
    test.diagnostic(
      `identity provider stopped: known sessions 200, others 503 "${IDENTITY_UNAVAILABLE_MESSAGE}", a removal 200 (account clean-up pending) in ${timings.removalSeconds.toFixed(2)} s, longest answer ${timings.longest.toFixed(2)} s, normal service ${recovery.toFixed(2)} s after the emulator was up`,
    );
  });

  it('gives up on a provider that accepts connections but never answers', async (test) => {
    const calls = await people();
    proxy.cut();
    proxy.stall();
    let timings;
    try {
      timings = await assertOutageAnswers('hanging', calls);
    } finally {
      await proxy.restore();
    }
    const recovery = await secondsUntil(calls.newcomerInvoice, (answer) => answer.statusCode === 404);
    await assertConsistentAfterwards(calls);
    test.diagnostic(
      `identity provider hanging: known sessions 200, others 503, a removal 200 (account clean-up pending) in ${timings.removalSeconds.toFixed(2)} s, longest answer ${timings.longest.toFixed(2)} s, normal service ${recovery.toFixed(2)} s after it answered again`,
    );
  });

  it('refuses a token the provider rejects as before, once it is back', async () => {
    const stranger = await signUp('stranger@example.com');
    const answer = await t.app.inject({ url: '/api/users', headers: t.bearer(stranger.idToken) });
    assert.equal(answer.statusCode, 401);
  });
});
