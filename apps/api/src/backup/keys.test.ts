import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../config.ts';
import {
  backupReadKeys,
  backupWriteKeys,
  generateBackupKeys,
  KeyFolderInUseError,
  writeBackupKeys,
  type GeneratedBackupKeys,
} from './keys.ts';

function problemsOf(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.problems;
  }
  assert.fail('the keys were accepted');
}

describe('backup keys', () => {
  let work: string;
  let keys: GeneratedBackupKeys;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'portal-backup-keys-'));
    keys = await generateBackupKeys();
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('reads each half from its variables or from files, and the halves fit together', async () => {
    const folder = path.join(work, 'keys');
    const paths = await writeBackupKeys(folder);
    const write = backupWriteKeys({
      BACKUP_RECIPIENT_FILE: paths.recipient,
      BACKUP_SIGNING_KEY_FILE: paths.signingKey,
    });
    const read = backupReadKeys({ BACKUP_IDENTITY_FILE: paths.identity, BACKUP_VERIFY_KEY_FILE: paths.verifyKey });
    assert.equal(write.recipients.length, 1);
    assert.match(write.recipients[0]!, /^age1pq1/, 'a post-quantum hybrid recipient');
    // The identity file names its recipient in a comment, as age-keygen writes it; comments are not keys.
    assert.equal(read.identities.length, 1);
    assert.ok((await readFile(paths.identity, 'utf8')).includes(`# public key: ${write.recipients[0]}`));
    assert.deepEqual(
      write.signingKey.export({ format: 'jwk' }).x,
      read.verifyKey.export({ format: 'jwk' }).x,
      'the verify key is the signing key’s public half',
    );

    // Owner-only, and never over keys already made.
    assert.equal((await stat(folder)).mode & 0o777, 0o700);
    for (const file of await readdir(folder)) {
      assert.equal((await stat(path.join(folder, file))).mode & 0o777, 0o600, file);
    }
    const identityBefore = await readFile(paths.identity, 'utf8');
    await assert.rejects(writeBackupKeys(folder), KeyFolderInUseError);
    assert.equal(await readFile(paths.identity, 'utf8'), identityBefore);

    // Values in the variables themselves work the same; several recipients, one a line.
    const other = await generateBackupKeys();
    const both = backupWriteKeys({
      BACKUP_RECIPIENT: `${keys.recipient}\n# the second site\n${other.recipient}\n`,
      BACKUP_SIGNING_KEY: keys.signingKeyPem,
    });
    assert.deepEqual(both.recipients, [keys.recipient, other.recipient]);
  });

  it('lists every problem at once, naming the variable and never its value', async () => {
    const missing = problemsOf(() => backupWriteKeys({}));
    assert.deepEqual(missing, [
      'BACKUP_RECIPIENT (or BACKUP_RECIPIENT_FILE) is required for this command',
      'BACKUP_SIGNING_KEY (or BACKUP_SIGNING_KEY_FILE) is required for this command',
    ]);

    // The secret halves where the public ones belong, the usual mix-up.
    const swapped = problemsOf(() =>
      backupWriteKeys({ BACKUP_RECIPIENT: keys.identity, BACKUP_SIGNING_KEY: keys.verifyKeyPem }),
    );
    assert.deepEqual(swapped, [
      'BACKUP_RECIPIENT line 1 is not an age recipient (age1…): it is a secret identity, which belongs on the restoring machine only',
      'BACKUP_SIGNING_KEY is not an Ed25519 private key in PEM form (-----BEGIN PRIVATE KEY-----)',
    ]);
    const secretOnRestore = problemsOf(() =>
      backupReadKeys({ BACKUP_IDENTITY: keys.recipient, BACKUP_VERIFY_KEY: keys.signingKeyPem }),
    );
    assert.deepEqual(secretOnRestore, [
      'BACKUP_IDENTITY line 1 is not an age identity (AGE-SECRET-KEY-…)',
      'BACKUP_VERIFY_KEY is a private key: give the public key (backup-verify-key.pem) here',
    ]);
    for (const problem of [...swapped, ...secretOnRestore]) {
      assert.ok(!problem.includes(keys.identity.slice(15, 40)) && !problem.includes('MC4CAQAw'), problem);
    }

    const identityFile = path.join(work, 'identity.txt');
    await writeFile(identityFile, keys.identity);
    const conflicting = problemsOf(() =>
      backupReadKeys({
        BACKUP_IDENTITY: keys.identity,
        BACKUP_IDENTITY_FILE: identityFile,
        BACKUP_VERIFY_KEY_FILE: path.join(work, 'absent.pem'),
      }),
    );
    assert.deepEqual(conflicting, [
      'BACKUP_IDENTITY and BACKUP_IDENTITY_FILE are both set: give one of them',
      `BACKUP_VERIFY_KEY_FILE ${path.join(work, 'absent.pem')} cannot be read (ENOENT)`,
    ]);

    const notKeys = problemsOf(() =>
      backupReadKeys({
        BACKUP_IDENTITY: 'AGE-SECRET-KEY-1NOTAKEY',
        BACKUP_VERIFY_KEY: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n',
      }),
    );
    assert.deepEqual(notKeys, [
      'BACKUP_IDENTITY line 1 is not an age identity (AGE-SECRET-KEY-…)',
      'BACKUP_VERIFY_KEY is not an Ed25519 public key in PEM form (-----BEGIN PUBLIC KEY-----)',
    ]);
  });
});
