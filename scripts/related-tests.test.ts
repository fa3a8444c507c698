import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { importsOf, relatedTests } from './lib/related-tests.ts';

const root = path.resolve(import.meta.dirname, '..');

test('a test file is related to what it imports, through other modules, and to changes in its folder', () => {
  const files: Record<string, string> = {
    'apps/api/src/users/users.test.ts': "import { useTestApp } from '../../test/helpers/test-app.ts';",
    'apps/api/src/users/service.ts':
      "import { sql } from 'drizzle-orm';\nimport { codes } from '@portal/contract/error-codes';",
    'apps/api/src/lib/words.test.ts': "import { plural } from './words.ts';",
    'apps/api/src/lib/words.ts': "export { x } from '../users/limits.ts';",
    'apps/api/test/helpers/test-app.ts': "import { createApp } from '../../src/app.ts';",
    'apps/api/src/app.ts': "import { users } from './users/service.ts';",
    'apps/api/src/config.test.ts': "const loaded = await import('./config.ts');",
  };
  const read = (at: string) => {
    const text = files[path.relative(root, at)];
    if (text === undefined) throw new Error(`no ${at}`);
    return text;
  };
  const tests = ['apps/api/src/config.test.ts', 'apps/api/src/lib/words.test.ts', 'apps/api/src/users/users.test.ts'];
  assert.deepEqual(importsOf(root, 'apps/api/src/users/service.ts', read), ['packages/contract/src/error-codes.ts']);
  // Through a module of its own: related; through the app that assembles every domain: not.
  assert.deepEqual(relatedTests(root, tests, ['apps/api/src/users/limits.ts'], read), [
    'apps/api/src/lib/words.test.ts',
    'apps/api/src/users/users.test.ts',
  ]);
  assert.deepEqual(relatedTests(root, tests, ['apps/api/src/config.ts'], read), ['apps/api/src/config.test.ts']);
  assert.deepEqual(relatedTests(root, tests, ['apps/api/src/invoices/reader.ts'], read), []);
});

test("the repository's own API tests are found through their real imports", () => {
  const tests = ['apps/api/src/backup/keys.test.ts', 'apps/api/src/invoices/e-invoice/iban.test.ts'];
  // keys.test.ts loads the configuration, which reads TRUST_PROXY's networks.
  assert.deepEqual(relatedTests(root, tests, ['apps/api/src/lib/networks.ts']), ['apps/api/src/backup/keys.test.ts']);
  assert.deepEqual(relatedTests(root, tests, ['apps/api/src/invoices/e-invoice/iban.ts']), [
    'apps/api/src/invoices/e-invoice/iban.test.ts',
  ]);
});
