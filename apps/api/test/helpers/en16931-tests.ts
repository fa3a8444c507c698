import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseXml, type XmlElement } from '../../src/invoices/e-invoice/xml-tree.ts';

/**
 * The official EN 16931 validation unit tests (CEN/TC 434, EUPL-1.2) are other people's work: read from the
 * shared folder beside the repository at test time, never copied into it.
 */
export const EN16931_TESTS_DIR = path.resolve(import.meta.dirname, '../../../../../shared/en16931-tests/test');

const VEFA_NS = 'http://difi.no/xsd/vefa/validator/1.0';

/** What a unit test expects of one rule: that it does not fire (`success`), or fires with this flag. */
export type Expectation = 'success' | 'error' | 'warning';

export interface UnitTest {
  set: string;
  index: number;
  description: string;
  rule: string;
  expected: Expectation;
  document: XmlElement;
}

const LIMITS = { maxChars: 50 * 1024 * 1024, maxDepth: 64, maxElements: 2_000_000 };

export function en16931TestsDir(): string {
  if (!existsSync(EN16931_TESTS_DIR))
    throw new Error(
      `The EN 16931 unit tests are read from ${EN16931_TESTS_DIR}, which is missing: put the shared folder beside the repository.`,
    );
  return EN16931_TESTS_DIR;
}

/** Every `test` of every unit test set (the UBL invoice and credit note sets, the CII sets). */
export async function readUnitTests(): Promise<UnitTest[]> {
  const dir = en16931TestsDir();
  const tests: UnitTest[] = [];
  for (const folder of ['Invoice-unit-UBL', 'CreditNote-unit-UBL', 'cii']) {
    for (const file of (await readdir(path.join(dir, folder))).filter((name) => name.endsWith('.xml')).sort()) {
      const set = `${folder}/${file}`;
      const root = parseXml(await readFile(path.join(dir, folder, file), 'utf8'), LIMITS);
      root.children
        .filter((child) => child.ns === VEFA_NS && child.local === 'test')
        .forEach((test, index) => {
          const assertion = test.children.find((child) => child.ns === VEFA_NS && child.local === 'assert');
          const document = test.children.find((child) => child.ns !== VEFA_NS);
          const outcome = assertion?.children.find((child) => ['success', 'error', 'warning'].includes(child.local));
          if (!assertion || !document || !outcome)
            throw new Error(`${set}: test ${index + 1} has no expectation or no document`);
          tests.push({
            set,
            index: index + 1,
            description: assertion.children.find((child) => child.local === 'description')?.text.trim() ?? '',
            rule: outcome.text.trim(),
            expected: outcome.local as Expectation,
            document,
          });
        });
    }
  }
  return tests;
}

/** The complete test files (Peppol BIS examples, minimum and maximum content): valid against every rule. */
export async function readCompleteTestFiles(): Promise<{ name: string; bytes: Buffer }[]> {
  const dir = path.join(en16931TestsDir(), 'testfiles');
  const names = (await readdir(dir)).filter((name) => name.endsWith('.xml')).sort();
  return Promise.all(names.map(async (name) => ({ name, bytes: await readFile(path.join(dir, name)) })));
}
