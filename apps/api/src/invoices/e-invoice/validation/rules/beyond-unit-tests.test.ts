import { describe } from 'node:test';
import { testBreakingCases, type BreakingCase, type Edit } from '../../../../../test/helpers/e-invoice-mutations.ts';

/**
 * The EN 16931 rules no official unit test covers (the decimals, split payment, the code lists of notes,
 * exemption reasons, electronic addresses and delivery locations), proved on the public EN 16931 examples.
 */

/** One more decimal place on the amount the pattern ends at: the same value, written with three decimals. */
const threeDecimals = (pattern: RegExp): Edit => [pattern, '$10'];
const amount = (element: string, value: string) =>
  new RegExp(`(<cbc:${element} currencyID="DKK">${value.replace('.', '\\.')})`);
const after = (anchor: string, element: string, value: string) =>
  new RegExp(`(${anchor}[\\s\\S]*?<cbc:${element} currencyID="DKK">${value.replace('.', '\\.')})`);
const DOCUMENT_CHARGE = '<cac:AllowanceCharge>\\s*<cbc:ChargeIndicator>true';
const LINE = '<cac:InvoiceLine>';
const LINE_CHARGE = `${LINE}[\\s\\S]*?<cbc:ChargeIndicator>true`;
/** UBL's data-type rule finds the same amount. */
const decimal = (rule: string, edit: Edit): BreakingCase => ({ rule, edits: [edit], fires: [rule, 'UBL-DT-01'] });
const EXEMPTION = /(<cbc:Percent>12<\/cbc:Percent>)/;
const exemption = (code: string): Edit => [
  EXEMPTION,
  `$1<cbc:TaxExemptionReasonCode>${code}</cbc:TaxExemptionReasonCode>`,
];
const lineCategory = (code: string): Edit => [/(<cac:ClassifiedTaxCategory>\s*<cbc:ID>)S</, `$1${code}<`];

const UBL_CASES: BreakingCase[] = [
  decimal('BR-DEC-01', threeDecimals(amount('Amount', '150.00'))),
  decimal('BR-DEC-02', threeDecimals(amount('BaseAmount', '1500.00'))),
  decimal('BR-DEC-05', threeDecimals(after(DOCUMENT_CHARGE, 'Amount', '150.00'))),
  decimal('BR-DEC-06', threeDecimals(after(DOCUMENT_CHARGE, 'BaseAmount', '1500.00'))),
  decimal('BR-DEC-09', threeDecimals(amount('LineExtensionAmount', '4000.00'))),
  decimal('BR-DEC-10', threeDecimals(amount('AllowanceTotalAmount', '150.00'))),
  decimal('BR-DEC-11', threeDecimals(amount('ChargeTotalAmount', '150.00'))),
  decimal('BR-DEC-12', threeDecimals(amount('TaxExclusiveAmount', '4000.00'))),
  decimal('BR-DEC-13', threeDecimals(amount('TaxAmount', '675.00'))),
  decimal('BR-DEC-14', threeDecimals(amount('TaxInclusiveAmount', '4675.00'))),
  decimal('BR-DEC-15', threeDecimals(/(<cbc:TaxAmount currencyID="EUR">628\.62)/)),
  decimal('BR-DEC-16', threeDecimals(amount('PrepaidAmount', '2337.50'))),
  decimal('BR-DEC-17', [
    '<cbc:PayableAmount currencyID="DKK">',
    '<cbc:PayableRoundingAmount currencyID="DKK">0.000</cbc:PayableRoundingAmount><cbc:PayableAmount currencyID="DKK">',
  ]),
  decimal('BR-DEC-18', threeDecimals(amount('PayableAmount', '2337.50'))),
  decimal('BR-DEC-19', threeDecimals(amount('TaxableAmount', '1500.00'))),
  decimal('BR-DEC-20', threeDecimals(amount('TaxAmount', '375.00'))),
  decimal('BR-DEC-23', threeDecimals(after(LINE, 'LineExtensionAmount', '1000.00'))),
  decimal('BR-DEC-24', threeDecimals(after(LINE, 'Amount', '100.00'))),
  decimal('BR-DEC-25', threeDecimals(after(LINE, 'BaseAmount', '1000.00'))),
  decimal('BR-DEC-27', threeDecimals(after(LINE_CHARGE, 'Amount', '100.00'))),
  decimal('BR-DEC-28', threeDecimals(after(LINE_CHARGE, 'BaseAmount', '1000.00'))),
  {
    rule: 'BR-CL-22',
    edits: [exemption('VATEX-EU-XX')],
    // A standard-rated breakdown takes no exemption reason at all (BR-S-10).
    fires: ['BR-CL-22', 'BR-S-10'],
  },
  // A VATEX code in lower case is still the code: only BR-S-10 finds it.
  { rule: 'BR-S-10', edits: [exemption('vatex-eu-ae')] },
  { rule: 'BR-CL-25', edits: [['<cbc:EndpointID schemeID="EM">', '<cbc:EndpointID schemeID="XX">']] },
  {
    rule: 'BR-CL-26',
    edits: [['<cbc:ID>5790000436068</cbc:ID>', '<cbc:ID schemeID="9999">5790000436068</cbc:ID>']],
    keeps: [['<cbc:ID>5790000436068</cbc:ID>', '<cbc:ID schemeID="0088">5790000436068</cbc:ID>']],
  },
  {
    rule: 'BR-B-01',
    edits: [lineCategory('B')],
    // A line in split payment outside Italy, next to standard-rated ones, and no longer in its breakdown.
    fires: ['BR-B-01', 'BR-B-02', 'BR-S-08'],
  },
];

const CII_CASES: BreakingCase[] = [
  {
    rule: 'BR-CL-08',
    edits: [['<ram:SubjectCode>ADU<', '<ram:SubjectCode>XXX<']],
    keeps: [['<ram:SubjectCode>ADU<', '<ram:SubjectCode>AAI<']],
  },
  { rule: 'BR-DEC-12', edits: [['<ram:TaxBasisTotalAmount>314.86<', '<ram:TaxBasisTotalAmount>314.860<']] },
  { rule: 'BR-DEC-14', edits: [['<ram:GrandTotalAmount>336.9<', '<ram:GrandTotalAmount>336.900<']] },
  { rule: 'BR-DEC-23', edits: [['<ram:LineTotalAmount>26.07<', '<ram:LineTotalAmount>26.070<']] },
];

const CREDIT_NOTE_CASES: BreakingCase[] = [
  {
    rule: 'BR-CL-01',
    // A UBL credit note takes the credit-note codes of UNTDID 1001, not an invoice's.
    edits: [['<cbc:CreditNoteTypeCode>381<', '<cbc:CreditNoteTypeCode>380<']],
    keeps: [['<cbc:CreditNoteTypeCode>381<', '<cbc:CreditNoteTypeCode>396<']],
  },
];

describe('EN 16931 rules no official unit test covers, on the public examples changed in one place', () => {
  describe('UBL', () => testBreakingCases('ubl-en16931-allowances.xml', UBL_CASES));
  describe('UBL credit note', () => testBreakingCases('ubl-en16931-credit-note.xml', CREDIT_NOTE_CASES));
  describe('CII', () => testBreakingCases('xrechnung-cii.xml', CII_CASES));
});
