import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fakePdf, invoiceVersionsOf, sha256Of } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { runWith } from './invoices.ts';

describe('CLI: invoices import and import-dir', () => {
  const t = useTestApp();
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-import-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function cli(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runWith(t.domain, args, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { code, out, err };
  }

  it('imports a folder with a line per file and a summary, fails only the bad files, and is idempotent', async () => {
    const folder = path.join(dir, 'batch');
    await mkdir(folder);
    await writeFile(path.join(folder, 'AB0001.pdf'), fakePdf('AB0001'));
    await writeFile(path.join(folder, 'AB0002.PDF'), fakePdf('AB0002'));
    await writeFile(path.join(folder, 'not a code.pdf'), fakePdf('bad'));
    await writeFile(path.join(folder, 'AB0003.pdf'), '<html>not a pdf</html>');
    await writeFile(path.join(folder, 'notes.txt'), 'ignored');

    const first = await cli('import-dir', folder);
    assert.equal(first.code, 1);
    assert.equal(first.out.filter((line) => /^\[\d\/4\]/.test(line)).length, 4);
    assert.ok(first.out.includes('imported 2, replaced 0, unchanged 0, failed 2'), first.out.join('\n'));
    assert.ok(first.out.some((line) => line.includes('not a code.pdf') && /parcel code/.test(line)));
    assert.ok(first.out.some((line) => line.includes('AB0003.pdf') && /PDF/.test(line)));
    assert.equal((await t.app.domain.invoices.findByParcelCode('AB0001'))?.sha256, sha256Of(fakePdf('AB0001')));
    assert.match((await t.app.domain.invoices.findByParcelCode('AB0002'))?.uploadedBy ?? '', /^cli:/);

    const second = await cli('import-dir', folder);
    assert.ok(second.out.includes('imported 0, replaced 0, unchanged 2, failed 2'), second.out.join('\n'));
    assert.equal((await invoiceVersionsOf(t.database, 'AB0001')).length, 1);
  });

  it('exits 0 when every file of a folder is in', async () => {
    const folder = path.join(dir, 'clean');
    await mkdir(folder);
    await writeFile(path.join(folder, 'CLEAN1.pdf'), fakePdf('clean'));
    assert.equal((await cli('import-dir', folder)).code, 0);
    assert.equal((await cli('import-dir', folder)).code, 0);
  });

  it('imports one file under the given parcel code, and replaces it with new bytes', async () => {
    const file = path.join(dir, 'whatever-name.pdf');
    await writeFile(file, fakePdf('one'));
    const first = await cli('import', file, '--parcel-code', 'ONE-1');
    assert.equal(first.code, 0);
    assert.ok(first.out.includes('imported 1, replaced 0, unchanged 0, failed 0'));
    await writeFile(file, fakePdf('one, corrected'));
    const second = await cli('import', file, '--parcel-code', 'ONE-1');
    assert.ok(second.out.includes('imported 0, replaced 1, unchanged 0, failed 0'));
  });

  it('reports a missing file as a failure with its reason', async () => {
    const result = await cli('import', path.join(dir, 'missing.pdf'), '--parcel-code', 'GONE1');
    assert.equal(result.code, 1);
    assert.ok(result.out.some((line) => /ENOENT|no such file/i.test(line)));
  });

  for (const args of [
    [],
    ['import', 'x.pdf'],
    ['import-dir'],
    ['import-dir', 'a', '--parcel-code', 'X'],
    ['export'],
    ['import', '--bogus'],
  ]) {
    it(`answers a usage error (64) to: ${args.join(' ') || '(nothing)'}`, async () => {
      const result = await cli(...args);
      assert.equal(result.code, 64);
      assert.match(result.err.join('\n'), /Usage/);
    });
  }
});
