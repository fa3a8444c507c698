import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { blockedOnTheWay, copyForOtherUsers, requireNginxCanRead, type Account } from './nginx-access.ts';

// Debian's nobody: owns none of the files below, so only their "other" bits count for it.
const NOBODY: Account = { name: 'nobody', uid: 65534, gids: [65534] };
let root: string;

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'nginx-access-test-'));
  await chmod(root, 0o755);
});
after(() => rm(root, { recursive: true, force: true }));

test('a store inside a folder only its owner may enter is blocked at that folder', async () => {
  const home = path.join(root, 'home');
  const store = path.join(home, 'checkout/.data/invoices');
  await mkdir(store, { recursive: true });
  await chmod(home, 0o700);
  const blocked = blockedOnTheWay(NOBODY, store);
  assert.equal(blocked?.path, home);
  assert.equal(blocked?.missing, 'enter');
  assert.match(blocked?.mode ?? '', /^mode 0700, owner \d+:\d+$/);
  // Passing through is enough: nginx opens files by name and never lists a folder.
  await chmod(home, 0o711);
  assert.equal(blockedOnTheWay(NOBODY, store), undefined);
});

test('a file others may not read is blocked at the file', async () => {
  const file = path.join(root, 'index.html');
  await writeFile(file, '<!doctype html>', { mode: 0o600 });
  await chmod(file, 0o600);
  assert.deepEqual(blockedOnTheWay(NOBODY, file)?.missing, 'read');
  await chmod(file, 0o644);
  assert.equal(blockedOnTheWay(NOBODY, file), undefined);
});

test('the refusal names the user, the folder and both ways out', async () => {
  const store = path.join(root, 'private/invoices');
  await mkdir(store, { recursive: true });
  await chmod(path.join(root, 'private'), 0o700);
  assert.throws(
    () => requireNginxCanRead(NOBODY, [{ what: 'The invoice store', path: store, setting: 'INVOICE_DIR=/srv/x' }]),
    (error: Error) =>
      error.message.includes('"nobody"') &&
      error.message.includes(`may not enter ${path.join(root, 'private')}`) &&
      error.message.includes(`chmod o+x ${path.join(root, 'private')}`) &&
      error.message.includes('INVOICE_DIR=/srv/x') &&
      error.message.includes('user other than root'),
  );
  // Workers that run as this process's own user (nginx not started by root) need no check.
  assert.doesNotThrow(() => requireNginxCanRead(undefined, [{ what: 'x', path: store, setting: '' }]));
});

test('what runs as another user runs from a copy others may reach, not from a checkout only its owner may enter', async () => {
  const WWW_DATA: Account = { name: 'www-data', uid: 33, gids: [33] };
  const checkout = path.join(root, 'private-checkout');
  await mkdir(path.join(checkout, 'deploy'), { recursive: true });
  await chmod(checkout, 0o700);
  const script = path.join(checkout, 'deploy/entrypoint.sh');
  await writeFile(script, '#!/bin/sh\necho started\n', { mode: 0o755 });
  const run = path.join(root, 'run-bin');
  await mkdir(run, { mode: 0o755 });
  const copy = await copyForOtherUsers(script, run);

  assert.equal(blockedOnTheWay(WWW_DATA, script)?.path, checkout);
  assert.equal(blockedOnTheWay(WWW_DATA, copy), undefined);
  // Started as root (CI's case), the user's processes really are refused the original and run the copy.
  if (process.getuid?.() === 0) {
    const asWwwData = { uid: 33, gid: 33, encoding: 'utf8' } as const;
    assert.equal(spawnSync(script, [], asWwwData).error?.message.includes('EACCES'), true);
    const started = spawnSync(copy, [], asWwwData);
    assert.equal(started.status, 0, started.stderr);
    assert.equal(started.stdout, 'started\n');
  }
});
