import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { copyBlobInto, hashStream } from './blob-copy.ts';
import { folderLocation } from './location.ts';
import { blobFile } from './manifest.ts';
import { digestFile, openSealed, WrongIdentityError, writeSealed } from './sealed-file.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('sealed backup files', () => {
  let work: string;
  let identity: string;
  let recipient: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'portal-sealed-'));
    identity = await generateX25519Identity();
    recipient = await identityToRecipient(identity);
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('streams bytes in and out in many chunks, owner-only, and reports the digest of what lies on disk', async () => {
    const bytes = randomBytes(300_000);
    const chunks = [bytes.subarray(0, 1), bytes.subarray(1, 100_000), bytes.subarray(100_000)];
    const target = path.join(work, 'round', 'trip.age');
    const sealed = await writeSealed(target, Readable.from(chunks), [recipient]);
    assert.deepEqual(sealed, await digestFile(target));
    assert.ok(sealed.size > bytes.length, 'age adds a header and a tag per 64 KiB chunk');
    assert.equal((await readFile(target)).includes(bytes.subarray(0, 64)), false, 'nothing of it in the clear');
    assert.equal((await stat(target)).mode & 0o777, 0o600);
    assert.equal((await stat(path.dirname(target))).mode & 0o777, 0o700);
    assert.deepEqual(await hashStream(await openSealed(target, [identity])), {
      sha256: sha256(bytes),
      size: bytes.length,
    });

    // Another identity is told at once, not halfway through a restore.
    const stranger = await generateX25519Identity();
    await assert.rejects(openSealed(target, [stranger]), WrongIdentityError);

    // Cut short: the stream fails, it does not end early as if the file were whole.
    await truncate(target, sealed.size - 100);
    await assert.rejects(async () => hashStream(await openSealed(target, [identity])));
  });

  it('keeps no blob whose bytes are not what its name says', async () => {
    const dir = path.join(work, 'blobs-backup');
    const bytes = Buffer.from('%PDF-1.7 an invoice');
    const named = sha256(bytes);
    const location = folderLocation(dir);
    const copied = await copyBlobInto(location, blobFile('k', named), named, Readable.from([bytes]), [recipient]);
    assert.equal(copied.size, bytes.length);
    assert.deepEqual(copied.sealed, await digestFile(path.join(dir, blobFile('k', named))));

    const wrongName = sha256(Buffer.from('something else'));
    await assert.rejects(
      copyBlobInto(location, blobFile('k', wrongName), wrongName, Readable.from([bytes]), [recipient]),
      /hash to/,
    );
    const left = await readdir(path.join(dir, 'blobs', 'k', wrongName.slice(0, 2)));
    assert.deepEqual(left, [], 'neither the blob nor a partial file');
  });
});
