import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASES, baseEdits, casesOf } from '../../../../test/helpers/cii-vat-categories.ts';
import { addedRules, mutated, readSample } from '../../../../test/helpers/e-invoice-mutations.ts';

describe('CII invoices of each VAT category break its rules with the finding the UBL unit tests expect', () => {
  for (const base of BASES)
    describe(`${base.code} (${base.prefix}-*)`, () => {
      it('starts from an invoice of the category that breaks none of its rules', async () => {
        const xml = mutated(await readSample('xrechnung-cii.xml'), baseEdits(base));
        const own = addedRules(await readSample('xrechnung-cii.xml'), xml).filter((rule) =>
          rule.startsWith(`${base.prefix}-`),
        );
        assert.deepEqual(own, []);
      });
      for (const [rule, edits] of Object.entries(casesOf(base)))
        it(rule, async () => {
          const xml = mutated(await readSample('xrechnung-cii.xml'), baseEdits(base));
          assert.ok(addedRules(xml, mutated(xml, edits)).includes(rule), `${rule} fires`);
        });
    });
});
