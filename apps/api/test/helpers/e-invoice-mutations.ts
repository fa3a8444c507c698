import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { parseXml } from '../../src/invoices/e-invoice/xml-tree.ts';
import type { Rule } from '../../src/invoices/e-invoice/validation/rule.ts';
import { findingsOf, semanticsOf } from '../../src/invoices/e-invoice/validation/validate.ts';

/**
 * Fixtures made at test time from the public sample invoices (read from the shared folder, never copied into
 * the repository): a sample, changed in a few places, that breaks one rule.
 */
export type Edit = [from: string | RegExp, to: string];

export const readSample = async (name: string) => (await readEInvoiceFixture(name)).toString('utf8');

/** The sample with each edit made once; an edit whose text the sample does not hold fails the test. */
export function mutated(xml: string, edits: Edit[]): string {
  return edits.reduce((text, [from, to]) => {
    assert.ok(typeof from === 'string' ? text.includes(from) : from.test(text), `the sample holds ${String(from)}`);
    return text.replace(from, to);
  }, xml);
}

/** The rules that find something in a document, each once, sorted. */
export function firedRules(xml: string, rules?: readonly Rule[]): string[] {
  const invoice = semanticsOf(parseXml(xml));
  assert.ok(invoice, 'an invoice');
  return [...new Set(findingsOf(invoice, rules).map((finding) => finding.rule))].sort();
}

/** The rules that find something in the changed document and found nothing in the one it was made from. */
export function addedRules(base: string, changed: string): string[] {
  const before = new Set(firedRules(base));
  return firedRules(changed).filter((rule) => !before.has(rule));
}

/** A case: the edits that break `rule`, and what then fires (the rule alone unless said). */
export interface BreakingCase {
  rule: string;
  edits: Edit[];
  fires?: string[];
  /** Edits of the same place that keep to the rule. */
  keeps?: Edit[];
}

/** The element removed from the sample, wherever it stands (the first of them). */
export const without = (element: string): Edit => [new RegExp(`<${element}[ >][\\s\\S]*?</${element}>\\s*`), ''];

/**
 * One test per case: the sample (after `baseEdits`) does not break the rule, the case's edits make exactly the
 * rules it names fire, and its `keeps` edits make none fire.
 */
export function testBreakingCases(sampleName: string, cases: BreakingCase[], baseEdits: Edit[] = []): void {
  for (const { rule, edits, fires, keeps } of cases) {
    it(`${rule} in ${sampleName}`, async () => {
      const base = mutated(await readSample(sampleName), baseEdits);
      assert.deepEqual(addedRules(base, mutated(base, edits)), [...(fires ?? [rule])].sort());
      if (keeps) assert.deepEqual(addedRules(base, mutated(base, keeps)), []);
    });
  }
}
