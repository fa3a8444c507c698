/**
 * Backups someone changed are refused, and nothing of them is restored. The attacker can write the backup
 * folder and read its manifest (recipients, hashes), as someone with write access to a backup share can:
 * they replace users and admin_passkeys with rows that make them a confirmed administrator, encrypted to
 * the manifest's own recipient, and recompute every hash; they swap in the manifest or a file of another
 * backup; they drop the signature. A manifest whose `file` leaves the folder is refused even when it carries
 * a good signature. Each refusal leaves the database and the store as empty as they were.
 */
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Encrypter } from 'age-encryption';
import { runBackup } from '../src/backup/backup.ts';
import { checkBackup } from '../src/backup/backup-check.ts';
import { nonEmptyTables } from '../src/backup/database-copy.ts';
import { backupReadKeys } from '../src/backup/keys.ts';
import {
  BackupFormatError,
  BackupTamperedError,
  blobFile,
  keysetOf,
  MANIFEST_FILE,
  SIGNATURE_FILE,
  type BackupManifest,
} from '../src/backup/manifest.ts';
import { runRestore } from '../src/backup/restore.ts';
import { runCommand } from '../src/cli/storage.ts';
import type { Infrastructure } from '../src/infrastructure.ts';
import { testBackupKeys } from './helpers/backup-keys.ts';
import { fakePdf } from './helpers/fixtures.ts';
import { invoiceStoreKind, type TestInvoiceStore } from './helpers/invoice-stores.ts';
import { openRestoreTarget } from './helpers/restore-target.ts';
import { useTestApp } from './helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const SIGNING_CONTEXT = 'parcel-invoice-portal-backup manifest v3\n';
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

describe(`a backup someone changed (${invoiceStoreKind()} store)`, () => {
  const t = useTestApp({ env: { INGEST_TOKEN } });
  let work: string;
  let keys: Awaited<ReturnType<typeof testBackupKeys>>;
  /** The backup as the portal made it; each case changes a copy. */
  let original: string;
  /** A second backup of the same portal, made after one more upload. */
  let later: string;
  let store: TestInvoiceStore;
  let target: Infrastructure;
  let copies = 0;

  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'portal-tamper-'));
    keys = await testBackupKeys();
    ({ store, infrastructure: target } = await openRestoreTarget(path.join(work, 'restored')));
  });
  after(async () => {
    await target?.close();
    await store?.close();
    await rm(work, { recursive: true, force: true });
  });

  const upload = (code: string, label: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${code}`,
      payload: fakePdf(label),
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
    });

  async function makeBackups() {
    await t.createAccount('admin@example.com', { admin: true });
    await t.createAccount('user@example.com');
    assert.equal((await upload('TAMPER-1', 'tamper one')).statusCode, 201);
    original = path.join(work, 'original');
    await runBackup({ database: t.database, blobStore: t.blobStore }, original, keys.write);
    assert.equal((await upload('TAMPER-2', 'tamper two')).statusCode, 201);
    later = path.join(work, 'later');
    await runBackup({ database: t.database, blobStore: t.blobStore }, later, keys.write);
  }

  async function copyOf(backup: string) {
    copies += 1;
    const copy = path.join(work, `case-${copies}`);
    await cp(backup, copy, { recursive: true });
    return copy;
  }

  /** The folder of the one backup a location holds (backups/<id>/): where its manifest and tables lie. */
  const folderOf = async (dir: string) => {
    const [id] = await readdir(path.join(dir, 'backups'));
    return path.join(dir, 'backups', id!);
  };
  const readManifestJson = async (dir: string) =>
    JSON.parse(await readFile(path.join(await folderOf(dir), MANIFEST_FILE), 'utf8')) as BackupManifest;
  const writeManifestJson = async (dir: string, manifest: BackupManifest) =>
    writeFile(path.join(await folderOf(dir), MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

  /** What an attacker who can write the folder, but holds no key of the portal, can do to a table. */
  async function forgeTable(dir: string, manifest: BackupManifest, table: string, extraLines: string[]) {
    const entry = manifest.tables.find((candidate) => candidate.name === table)!;
    // They cannot read the rows (no identity), so they write the rows they want.
    const plain = extraLines.map((line) => `${line}\n`).join('');
    const encrypter = new Encrypter();
    for (const recipient of manifest.encryption.recipients) encrypter.addRecipient(recipient);
    const sealed = await encrypter.encrypt(plain);
    await writeFile(path.join(await folderOf(dir), entry.file), sealed);
    entry.rows = extraLines.length;
    entry.sha256 = sha256(plain);
    entry.sealed = { sha256: sha256(sealed), size: sealed.length };
  }

  async function assertNothingRestored() {
    assert.deepEqual(await nonEmptyTables(target.database.db), [], 'the database is still empty');
    assert.deepEqual(await store.contents(), [], 'the store is still empty');
  }

  async function assertRefused(dir: string, message: RegExp, kind: typeof BackupTamperedError = BackupTamperedError) {
    await assert.rejects(runRestore(target, dir, keys.read), (error: Error) => {
      assert.ok(error instanceof kind, `${error.name}: ${error.message}`);
      assert.match(error.message, message);
      return true;
    });
    await assertNothingRestored();
  }

  const intruderUser = JSON.stringify({
    email: 'intruder@example.com',
    admin: true,
    activated: true,
    registered: true,
    firebase_uid: 'intruder-uid',
    created_at: '2026-01-01T00:00:00+00:00',
    created_by: 'admin@example.com',
  });
  const intruderPasskey = JSON.stringify({
    credential_id: 'aW50cnVkZXI',
    email: 'intruder@example.com',
    public_key: 'cHVibGlj',
    counter: 0,
    transports: [],
    device_type: 'singleDevice',
    backed_up: false,
    created_at: '2026-01-01T00:00:00+00:00',
    last_used_at: null,
  });

  it('refuses an attacker who wrote themselves in as an administrator and recomputed every hash', async () => {
    await makeBackups();
    const dir = await copyOf(original);
    const manifest = await readManifestJson(dir);
    await forgeTable(dir, manifest, 'users', [intruderUser]);
    await forgeTable(dir, manifest, 'admin_passkeys', [intruderPasskey]);
    await writeManifestJson(dir, manifest);
    await assertRefused(dir, /manifest\.json does not match its signature under BACKUP_VERIFY_KEY/);

    // Through the command an operator runs: exit 1, and a message that says nothing happened.
    const lines: string[] = [];
    const output = { out: (line: string) => void lines.push(line), err: (line: string) => void lines.push(line) };
    const exit = await runCommand('restore', [dir], { env: keys.env, output, sources: target });
    assert.equal(exit, 1);
    assert.match(lines.join('\n'), /^Refused: .*does not match its signature.* Nothing was restored\.$/m);
    assert.equal(await runCommand('verify', [dir], { env: keys.env, output }), 1);
    await assertNothingRestored();

    // Signing it themselves, with a key of their own, is no better.
    const theirs = generateKeyPairSync('ed25519').privateKey;
    const bytes = await readFile(path.join(await folderOf(dir), MANIFEST_FILE));
    const signature = sign(null, Buffer.concat([Buffer.from(SIGNING_CONTEXT), bytes]), theirs);
    await writeFile(path.join(await folderOf(dir), SIGNATURE_FILE), `${signature.toString('base64')}\n`);
    await assertRefused(dir, /does not match its signature/);
  });

  it('refuses a file, or the manifest, of another backup swapped in, and a backup without its signature', async () => {
    // A file of the later backup in the original: each is a good, signed file, but not of this backup.
    const fileSwapped = await copyOf(original);
    await cp(
      path.join(await folderOf(later), 'database', 'invoices.jsonl.age'),
      path.join(await folderOf(fileSwapped), 'database', 'invoices.jsonl.age'),
    );
    await assertRefused(fileSwapped, /database\/invoices\.jsonl\.age is not the file the signed manifest names/);
    const report = await checkBackup(fileSwapped, keys.read);
    assert.deepEqual(report.problems, ['changed: database/invoices.jsonl.age is not the file signed']);

    // The later backup's manifest and signature over the original's files: it names its own backup.
    const manifestSwapped = await copyOf(original);
    for (const file of [MANIFEST_FILE, SIGNATURE_FILE]) {
      await cp(path.join(await folderOf(later), file), path.join(await folderOf(manifestSwapped), file));
    }
    await assertRefused(
      manifestSwapped,
      /is the signed manifest of backup .*, not of .*: it was moved into this backup's folder/,
    );

    // The original's manifest with the later one's signature.
    const signatureSwapped = await copyOf(original);
    await cp(
      path.join(await folderOf(later), SIGNATURE_FILE),
      path.join(await folderOf(signatureSwapped), SIGNATURE_FILE),
    );
    await assertRefused(signatureSwapped, /does not match its signature/);

    const unsigned = await copyOf(original);
    await rm(path.join(await folderOf(unsigned), SIGNATURE_FILE));
    await assertRefused(unsigned, /has no manifest\.json\.sig: an unsigned backup .* is never restored/);

    const blobChanged = await copyOf(original);
    const manifest = await readManifestJson(blobChanged);
    const blob = manifest.blobs.list[0]!;
    const blobPath = path.join(blobChanged, blobFile(keysetOf(manifest.encryption.recipients), blob.sha256));
    const bytes = await readFile(blobPath);
    bytes[bytes.length - 1]! ^= 1;
    await writeFile(blobPath, bytes);
    await assertRefused(blobChanged, /blobs\/.*\.age is not the file the signed manifest names/);
  });

  it('refuses a manifest whose file leaves the backup folder, even when it carries a good signature', async () => {
    for (const file of ['../outside/users.jsonl.age', '/etc/passwd', 'database/admin_passkeys.jsonl.age']) {
      const dir = await copyOf(original);
      const manifest = await readManifestJson(dir);
      manifest.tables.find((table) => table.name === 'users')!.file = file;
      await writeManifestJson(dir, manifest);
      // Signed with the portal's own key: as if whoever holds it made a manifest like this.
      const bytes = await readFile(path.join(await folderOf(dir), MANIFEST_FILE));
      const signature = sign(null, Buffer.concat([Buffer.from(SIGNING_CONTEXT), bytes]), keys.write.signingKey);
      await writeFile(path.join(await folderOf(dir), SIGNATURE_FILE), `${signature.toString('base64')}\n`);
      await assertRefused(
        dir,
        new RegExp(
          `tables\\.\\d+\\.file names the file "${file.replace(/[.*/]/g, '\\$&')}"; the only file a table users may have is database/users\\.jsonl\\.age`,
        ),
        BackupFormatError,
      );
      const lines: string[] = [];
      const output = { out: (line: string) => void lines.push(line), err: (line: string) => void lines.push(line) };
      assert.equal(await runCommand('restore', [dir], { env: keys.env, output, sources: target }), 1);
      assert.match(lines.join('\n'), /^Refused: .*manifest\.json is not a backup manifest this release reads:$/m);
      assert.match(lines.join('\n'), /Nothing was restored\.$/);
    }
    await assertNothingRestored();
  });

  it('refuses, before writing anything, an identity the backup was not encrypted to', async () => {
    const other = await testBackupKeys();
    const wrongIdentity = backupReadKeys({ ...keys.env, BACKUP_IDENTITY: other.generated.identity });
    await assert.rejects(runRestore(target, original, wrongIdentity), /BACKUP_IDENTITY does not open this backup/);
    await assertNothingRestored();
    // And a verify key of other keys refuses every backup of these.
    await assert.rejects(
      runRestore(target, original, { ...keys.read, verifyKey: other.read.verifyKey }),
      /does not match its signature/,
    );
    await assertNothingRestored();
  });

  it('restores the untouched backup into the same database and store', async () => {
    const restored = await runRestore(target, original, keys.read);
    assert.equal(restored.report.rows.users, 2);
    assert.equal(restored.manifest.blobs.count, 1);
    assert.deepEqual((await store.contents()).length > 0, true);
  });
});
