import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCompleteTestFiles, readUnitTests, type Expectation } from '../../../../test/helpers/en16931-tests.ts';
import { decodeXmlBytes, parseXml } from '../xml-tree.ts';
import { EN16931_RULES, RULES } from './rules/index.ts';
import { findingsOf, semanticsOf } from './validate.ts';

const written = new Map(RULES.map((rule) => [rule.id, rule]));

/** What the rule did on a document: nothing, or fired with its flag. */
function outcomeOf(rule: string, document: Parameters<typeof semanticsOf>[0]): Expectation {
  const invoice = semanticsOf(document);
  if (!invoice) throw new Error(`not an invoice: ${document.local}`);
  const finding = findingsOf(invoice, [written.get(rule)!]).find((entry) => entry.rule === rule);
  if (!finding) return 'success';
  return finding.flag === 'fatal' ? 'error' : 'warning';
}

interface Row {
  rule: string;
  expected: Record<Expectation, number>;
  met: number;
  mismatched: string[];
  written: boolean;
}

describe('EN 16931 conformance: the official unit tests', () => {
  it('meets every expectation of every rule written, and names the rules not yet written', async () => {
    const tests = await readUnitTests();
    const rows = new Map<string, Row>();
    for (const test of tests) {
      const row = rows.get(test.rule) ?? {
        rule: test.rule,
        expected: { success: 0, error: 0, warning: 0 },
        met: 0,
        mismatched: [],
        written: written.has(test.rule),
      };
      rows.set(test.rule, row);
      row.expected[test.expected] += 1;
      if (!row.written) continue;
      const got = outcomeOf(test.rule, test.document);
      if (got === test.expected) row.met += 1;
      else
        row.mismatched.push(
          `${test.set} #${test.index}: expected ${test.expected}, got ${got} (${test.description.slice(0, 120)})`,
        );
    }

    const table = [...rows.values()].sort((a, b) => a.rule.localeCompare(b.rule, 'en', { numeric: true }));
    const lines = ['rule            success error warning   met  status'];
    for (const row of table) {
      const total = row.expected.success + row.expected.error + row.expected.warning;
      const status = !row.written ? 'not written' : row.mismatched.length ? `MISMATCH ${row.mismatched.length}` : 'met';
      lines.push(
        `${row.rule.padEnd(15)} ${String(row.expected.success).padStart(7)} ${String(row.expected.error).padStart(5)} ${String(row.expected.warning).padStart(7)} ${String(row.written ? row.met : '-').padStart(5)}/${String(total).padEnd(3)} ${status}`,
      );
    }
    const sets = new Set(tests.map((test) => test.set)).size;
    const writtenRows = table.filter((row) => row.written);
    const unwritten = table.filter((row) => !row.written);
    const mismatches = writtenRows.flatMap((row) => row.mismatched);
    const writtenTests = tests.filter((test) => written.has(test.rule)).length;
    lines.push(
      `sets ${sets}, tests ${tests.length}; rules tested ${table.length}: written ${writtenRows.length}, not written ${unwritten.length}`,
      `tests of written rules ${writtenTests}: met ${writtenTests - mismatches.length}, mismatched ${mismatches.length}; tests of rules not written ${tests.length - writtenTests}`,
      `not written: ${unwritten.map((row) => row.rule).join(' ') || 'none'}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    assert.deepEqual(mismatches, []);
  });

  it('finds nothing fatal in the complete test files, which are valid against the rules of EN 16931', async () => {
    const files = await readCompleteTestFiles();
    assert.equal(files.length, 29);
    const fatal = files.flatMap(({ name, bytes }) => {
      const invoice = semanticsOf(parseXml(decodeXmlBytes(bytes)));
      assert.ok(invoice, name);
      return findingsOf(invoice, EN16931_RULES)
        .filter((finding) => finding.flag === 'fatal')
        .map((finding) => `${name}: ${finding.rule} ${finding.at ?? ''} ${finding.value ?? ''}`);
    });
    assert.deepEqual(fatal, []);
  });
});
