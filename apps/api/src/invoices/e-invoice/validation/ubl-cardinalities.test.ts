import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addedRules,
  firedRules,
  mutated,
  readSample,
  type Edit,
} from '../../../../test/helpers/e-invoice-mutations.ts';
import { UBL_CARDINALITIES, type Cardinality } from './ubl-cardinalities.ts';

/**
 * UBL's cardinality rules (UBL-SR-*), which no official unit test covers, on the public EN 16931 UBL example:
 * the element each rule counts is written once more than it allows, where the rule counts it.
 */
const SAMPLE = 'ubl-en16931-allowances.xml';

/** Basic components (cbc); every other step is an aggregate (cac). */
const BASIC = new Set([
  'ID',
  'Note',
  'Name',
  'RegistrationName',
  'CompanyID',
  'CompanyLegalForm',
  'LineID',
  'PaymentID',
  'PaymentMeansCode',
  'AllowanceChargeReason',
  'TaxExemptionReason',
  'DocumentDescription',
  'Amount',
  'PaymentDueDate',
  'DescriptionCode',
  'Description',
]);
const tag = (step: string) => `${BASIC.has(step) ? 'cbc' : 'cac'}:${step}`;
const leaf = (step: string, index: number) =>
  BASIC.has(step) ? `<${tag(step)}>${index}</${tag(step)}>` : `<${tag(step)}/>`;

/** The path written down to its last step, which is written `times` times (with `@name` on a code). */
function nested(path: string[], times: number): string {
  const [step, ...rest] = path;
  if (rest.length === 0) return Array.from({ length: times }, (_, index) => leaf(step!, index + 1)).join('');
  if (rest[0] === '@name')
    return Array.from({ length: times }, (_, index) => `<${tag(step!)} name="n${index}">30</${tag(step!)}>`).join('');
  return `<${tag(step!)}>${nested(rest, times)}</${tag(step!)}>`;
}

/** Where each context's first element opens in the sample. */
const OPENING: Record<Cardinality['context'], string> = {
  document: '<cac:AccountingSupplierParty>',
  line: '<cac:InvoiceLine>',
  payee: '<cac:PayeeParty>',
  taxRepresentative: '<cac:TaxRepresentativeParty>',
  delivery: '<cac:Delivery>',
  paymentMeans: '<cac:PaymentMeans>',
  allowance: '<cbc:ChargeIndicator>false</cbc:ChargeIndicator>',
  charge: '<cbc:ChargeIndicator>true</cbc:ChargeIndicator>',
  billingReference: '<cac:BillingReference>',
  supportingDocument: '<cac:AdditionalDocumentReference>',
  vatBreakdown: '<cac:TaxSubtotal>',
};

/** The edit that writes the rule's element once more than allowed (twice for a limit of one). */
function breaking(rule: Cardinality): Edit[] {
  const opening = OPENING[rule.context];
  const where =
    rule.context === 'document'
      ? (xml: string): Edit => [opening, `${xml}${opening}`]
      : (xml: string): Edit => [opening, `${opening}${xml}`];
  if (rule.id === 'UBL-SR-04')
    return [
      where(
        '<cac:AdditionalDocumentReference><cbc:ID>1</cbc:ID><cbc:ID>2</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:AdditionalDocumentReference>',
      ),
    ];
  if (rule.id === 'UBL-SR-13')
    return [
      [
        '<cac:AccountingSupplierParty>\n        <cac:Party>',
        '<cac:AccountingSupplierParty><cac:Party><cac:PartyTaxScheme><cbc:CompanyID>1</cbc:CompanyID><cbc:CompanyID>2</cbc:CompanyID><cac:TaxScheme><cbc:ID>FC</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>',
      ],
    ];
  // The party paths open inside the sample's own party, so that the count is of one party.
  const party = rule.path[0] === 'AccountingSupplierParty' || rule.path[0] === 'AccountingCustomerParty';
  if (party) {
    const opened = `<cac:${rule.path[0]}>\n        <cac:Party>`;
    return [[opened, `${opened}${nested(rule.path.slice(2), 2)}`]];
  }
  return [where(nested(rule.path, rule.exactly ? rule.max + 1 : 2))];
}

describe('UBL cardinality rules (UBL-SR-*) on the public EN 16931 UBL example', () => {
  it('finds nothing in the public UBL samples', async () => {
    const ids = new Set(UBL_CARDINALITIES.map((rule) => rule.id));
    for (const name of [
      SAMPLE,
      'ubl-en16931-credit-note.xml',
      'xrechnung-ubl.xml',
      'peppol-invoice.xml',
      'peppol-credit-note.xml',
    ])
      assert.deepEqual(
        firedRules(await readSample(name)).filter((rule) => ids.has(rule)),
        [],
        name,
      );
  });

  for (const rule of UBL_CARDINALITIES)
    it(`${rule.id}: ${rule.message}`, async () => {
      const sample = await readSample(SAMPLE);
      assert.ok(addedRules(sample, mutated(sample, breaking(rule))).includes(rule.id));
    });
});
