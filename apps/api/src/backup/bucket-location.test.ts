import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { startObjectStore, type ObjectStore } from '@portal/dev-stack';
import { hashStream } from './blob-copy.ts';
import { bucketLocation, PART_BYTES, type BackupLocation } from './location.ts';
import { openSealed } from './sealed-file.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('a backup location in a bucket', () => {
  let work: string;
  let store: ObjectStore;
  let location: BackupLocation;
  let identity: string;
  let recipient: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'portal-bucket-location-'));
    store = await startObjectStore({ dataDir: path.join(work, 'bucket'), bucket: 'backups' });
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_EC2_METADATA_DISABLED']) {
      process.env[name] = store.env[name];
    }
    location = bucketLocation({
      bucket: 'backups',
      prefix: 'portal',
      endpoint: store.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      spoolDir: path.join(work, 'spool'),
    });
    await location.prepare();
    identity = await generateX25519Identity();
    recipient = await identityToRecipient(identity);
  });
  after(async () => {
    location.close();
    await store.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('sends a file larger than one request may carry in parts, and reads it back whole', async () => {
    // The local server caps a request's body at 11 MiB, as some S3-compatible servers cap it lower than AWS.
    const table = randomBytes(2 * PART_BYTES + 12345);
    const sealed = await location.writeSealed(
      'backups/large/database/audit_log.jsonl.age',
      (async function* () {
        for (let at = 0; at < table.length; at += 1 << 20) yield table.subarray(at, at + (1 << 20));
      })(),
      [recipient],
    );
    assert.ok(sealed.size > 2 * PART_BYTES, 'three parts');
    const listed = [];
    for await (const file of location.list('backups/large/')) listed.push(file);
    assert.deepEqual(
      listed.map((file) => [file.name, file.size]),
      [['backups/large/database/audit_log.jsonl.age', sealed.size]],
    );
    const stored = await location.openRead('backups/large/database/audit_log.jsonl.age');
    assert.deepEqual(await hashStream(stored!), sealed, 'the object is the spooled file, byte for byte');
    const reread = await location.openRead('backups/large/database/audit_log.jsonl.age');
    assert.equal((await hashStream(await openSealed(reread!, [identity]))).sha256, sha256(table));
    assert.deepEqual(await readdir(path.join(work, 'spool')), [], 'no spool file is left behind');
  });

  it('sends a large manifest in parts and reads it back', async () => {
    const manifest = Buffer.from(JSON.stringify({ list: 'x'.repeat(PART_BYTES + 100) }));
    await location.writeSmall('backups/large/manifest.json', manifest);
    const read = await location.readSmall('backups/large/manifest.json', 2 * PART_BYTES);
    assert.equal(sha256(read!), sha256(manifest));
  });
});
