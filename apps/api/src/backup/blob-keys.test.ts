import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { copyBlobInto, hashStream } from './blob-copy.ts';
import { BLOB_KEY_STANZA, blobKeyFile, blobKeyIdentity, createBlobKey } from './blob-keys.ts';
import { folderLocation, type BackupLocation } from './location.ts';
import { BackupTamperedError, blobFile } from './manifest.ts';
import { openSealed } from './sealed-file.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const KEYSET = '0123456789abcdef';
const RUN = '2026-11-27T02-00-00-000Z';
const OTHER_RUN = '2026-11-28T02-00-00-000Z';

describe('the run keys of backed-up invoice files', () => {
  let work: string;
  let identity: string;
  let recipient: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'portal-blob-keys-'));
    identity = await generateX25519Identity();
    recipient = await identityToRecipient(identity);
  });
  after(() => rm(work, { recursive: true, force: true }));

  /** A location that counts how often each file is opened. */
  const countingLocation = (name: string) => {
    const location = folderLocation(path.join(work, name));
    const opened = new Map<string, number>();
    const counting: BackupLocation = {
      ...location,
      openRead: (file) => {
        opened.set(file, (opened.get(file) ?? 0) + 1);
        return location.openRead(file);
      },
    };
    return { location: counting, opened };
  };
  const copy = async (location: BackupLocation, bytes: Buffer, wrapping: Parameters<typeof copyBlobInto>[4]) => {
    const file = blobFile(KEYSET, sha256(bytes));
    await copyBlobInto(location, file, sha256(bytes), Readable.from([bytes]), wrapping);
    return file;
  };

  it('wraps every file of a run with one key, sealed once to the recipients and read once back', async () => {
    const { location, opened } = countingLocation('one-run');
    await location.prepare();
    const runKey = await createBlobKey(location, KEYSET, RUN, [recipient]);
    const blobs = Array.from({ length: 5 }, () => randomBytes(70_000));
    const files = await Promise.all(blobs.map((bytes) => copy(location, bytes, [runKey])));

    const sealedKey = await readFile(path.join(work, 'one-run', blobKeyFile(KEYSET, RUN)));
    assert.equal(sealedKey.includes(Buffer.from('X25519')), true, 'the key file is sealed to the recipient');
    const header = (await readFile(path.join(work, 'one-run', files[0]!))).subarray(0, 200).toString('latin1');
    assert.match(header, new RegExp(`-> ${BLOB_KEY_STANZA} ${RUN}\\n`), 'a blob names its run, not the recipient');
    assert.doesNotMatch(header, /X25519/);

    const identities = [identity, blobKeyIdentity(location, KEYSET, [identity])];
    for (const [index, file] of files.entries()) {
      const stream = await location.openRead(file);
      assert.deepEqual(await hashStream(await openSealed(stream!, identities)), {
        sha256: sha256(blobs[index]!),
        size: blobs[index]!.length,
      });
    }
    assert.equal(opened.get(blobKeyFile(KEYSET, RUN)), 1, 'the key file is opened once for all five');
  });

  it('still opens files sealed straight to the recipients, as backups made before run keys are', async () => {
    const { location } = countingLocation('older');
    await location.prepare();
    const bytes = randomBytes(1000);
    const file = await copy(location, bytes, [recipient]);
    const stream = await location.openRead(file);
    const identities = [identity, blobKeyIdentity(location, KEYSET, [identity])];
    assert.equal((await hashStream(await openSealed(stream!, identities))).sha256, sha256(bytes));
  });

  it('refuses a file whose run key is missing, or was swapped for another run key, and opens it once put back', async () => {
    const { location } = countingLocation('tampered');
    await location.prepare();
    const runKey = await createBlobKey(location, KEYSET, RUN, [recipient]);
    await createBlobKey(location, KEYSET, OTHER_RUN, [recipient]);
    const bytes = randomBytes(2000);
    const file = await copy(location, bytes, [runKey]);
    const keyPath = path.join(work, 'tampered', blobKeyFile(KEYSET, RUN));
    const saved = path.join(work, 'saved-key.age');
    await copyFile(keyPath, saved);
    const open = async () => {
      const identities = [identity, blobKeyIdentity(location, KEYSET, [identity])];
      return hashStream(await openSealed((await location.openRead(file))!, identities));
    };

    await rm(keyPath);
    await assert.rejects(open, (error: Error) => {
      assert.ok(error instanceof BackupTamperedError);
      assert.match(error.message, new RegExp(`${blobKeyFile(KEYSET, RUN)} is missing from the backup`));
      return true;
    });
    await copyFile(path.join(work, 'tampered', blobKeyFile(KEYSET, OTHER_RUN)), keyPath);
    await assert.rejects(open, /the file key does not open with/);
    await copyFile(saved, keyPath);
    assert.equal((await open()).sha256, sha256(bytes));
  });

  it('cannot be opened by an identity the key file was not sealed to', async () => {
    const { location } = countingLocation('stranger');
    await location.prepare();
    const runKey = await createBlobKey(location, KEYSET, RUN, [recipient]);
    const file = await copy(location, randomBytes(500), [runKey]);
    const stranger = await generateX25519Identity();
    const identities = [stranger, blobKeyIdentity(location, KEYSET, [stranger])];
    await assert.rejects(async () => hashStream(await openSealed((await location.openRead(file))!, identities)));
  });
});
