import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFirebaseIdentity } from './firebase-identity.ts';

describe('createFirebaseIdentity', () => {
  it('clears a blank FIREBASE_AUTH_EMULATOR_HOST, which firebase-admin would take as "skip signature checks"', async () => {
    const before = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    process.env.FIREBASE_AUTH_EMULATOR_HOST = ' ';
    try {
      const identity = createFirebaseIdentity({ projectId: 'real-project', timeoutMs: 3000 });
      assert.equal(process.env.FIREBASE_AUTH_EMULATOR_HOST, undefined);
      await identity.close();
    } finally {
      if (before === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
      else process.env.FIREBASE_AUTH_EMULATOR_HOST = before;
    }
  });
});
