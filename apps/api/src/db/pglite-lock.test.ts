import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DatabaseInUseError, lockDataDir } from './pglite-lock.ts';

describe('lockDataDir', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'portal-lock-'));
  after(() => rm(root, { recursive: true, force: true }));

  it('takes the lock, writes its pid, and releases it', async () => {
    const dataDir = path.join(root, 'a');
    const release = await lockDataDir(dataDir);
    assert.equal(await readFile(`${dataDir}.lock`, 'utf8'), String(process.pid));
    await release();
    await assert.rejects(readFile(`${dataDir}.lock`, 'utf8'), { code: 'ENOENT' });
  });

  it('refuses a folder another running process holds, saying what to do', async () => {
    const dataDir = path.join(root, 'b');
    await writeFile(`${dataDir}.lock`, String(process.ppid));
    await assert.rejects(lockDataDir(dataDir), (error: unknown) => {
      assert.ok(error instanceof DatabaseInUseError);
      assert.match(error.message, new RegExp(`in use by process ${process.ppid}.*Stop it first`));
      return true;
    });
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const dataDir = path.join(root, 'c');
    await writeFile(`${dataDir}.lock`, '4194303');
    const release = await lockDataDir(dataDir);
    assert.equal(await readFile(`${dataDir}.lock`, 'utf8'), String(process.pid));
    await release();
  });
});
