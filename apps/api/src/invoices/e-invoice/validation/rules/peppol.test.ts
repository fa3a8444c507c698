import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  firedRules,
  mutated,
  readSample,
  testBreakingCases,
  without,
  type BreakingCase,
  type Edit,
} from '../../../../../test/helpers/e-invoice-mutations.ts';
import { PEPPOL_RULES } from './peppol.ts';

const CHARGE_AMOUNT = '<cbc:Amount currencyID="EUR">25</cbc:Amount>';
const onCharge = (xml: string): Edit => [CHARGE_AMOUNT, `${CHARGE_AMOUNT}${xml}`];
const PRICE = '<cbc:PriceAmount currencyID="EUR">400</cbc:PriceAmount>';
const afterPrice = (xml: string): Edit => [PRICE, `${PRICE}${xml}`];
const priceAllowance = (indicator: string, base: string) =>
  afterPrice(
    `<cac:AllowanceCharge><cbc:ChargeIndicator>${indicator}</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">10</cbc:Amount><cbc:BaseAmount currencyID="EUR">${base}</cbc:BaseAmount></cac:AllowanceCharge>`,
  );
const INVOICE_PERIOD: Edit = [
  '<cac:AccountingSupplierParty>',
  '<cac:InvoicePeriod><cbc:StartDate>2017-11-01</cbc:StartDate><cbc:EndDate>2017-11-30</cbc:EndDate></cac:InvoicePeriod><cac:AccountingSupplierParty>',
];
const linePeriod = (start: string, end: string): Edit => [
  '<cbc:AccountingCost>Konteringsstreng</cbc:AccountingCost>',
  `<cbc:AccountingCost>Konteringsstreng</cbc:AccountingCost><cac:InvoicePeriod><cbc:StartDate>${start}</cbc:StartDate><cbc:EndDate>${end}</cbc:EndDate></cac:InvoicePeriod>`,
];
const lineReferences = (...types: (string | null)[]): Edit => [
  '<cbc:AccountingCost>Konteringsstreng</cbc:AccountingCost>',
  `<cbc:AccountingCost>Konteringsstreng</cbc:AccountingCost>${types
    .map(
      (type) =>
        `<cac:DocumentReference><cbc:ID>D</cbc:ID>${type ? `<cbc:DocumentTypeCode>${type}</cbc:DocumentTypeCode>` : ''}</cac:DocumentReference>`,
    )
    .join('')}`,
];
const TAX_SUBTOTAL_PERCENT = /(<cac:TaxSubtotal>[\s\S]*?<cbc:Percent>25\.0<\/cbc:Percent>)/;
const exemption = (code: string): Edit => [
  TAX_SUBTOTAL_PERCENT,
  `$1<cbc:TaxExemptionReasonCode>${code}</cbc:TaxExemptionReasonCode>`,
];
const TAX_CURRENCY: Edit = [
  '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
  '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>SEK</cbc:TaxCurrencyCode>',
];
const accountingTax = (amount: string): Edit => [
  '<cac:LegalMonetaryTotal>',
  `<cac:TaxTotal><cbc:TaxAmount currencyID="SEK">${amount}</cbc:TaxAmount></cac:TaxTotal><cac:LegalMonetaryTotal>`,
];
/** The buyer's identifier, written with another scheme. */
const buyerIdentifier = (scheme: string, value: string): Edit => [
  '<cbc:ID schemeID="0002">FR23342</cbc:ID>',
  `<cbc:ID schemeID="${scheme}">${value}</cbc:ID>`,
];
const typeCode = (code: string): Edit => ['<cbc:InvoiceTypeCode>380<', `<cbc:InvoiceTypeCode>${code}<`];

const EXEMPTIONS: [string, string][] = [
  ['PEPPOL-EN16931-P0104', 'VATEX-EU-G'],
  ['PEPPOL-EN16931-P0105', 'VATEX-EU-O'],
  ['PEPPOL-EN16931-P0106', 'VATEX-EU-IC'],
  ['PEPPOL-EN16931-P0107', 'VATEX-EU-AE'],
  ['PEPPOL-EN16931-P0108', 'VATEX-EU-D'],
  ['PEPPOL-EN16931-P0109', 'VATEX-EU-F'],
  ['PEPPOL-EN16931-P0110', 'VATEX-EU-I'],
  ['PEPPOL-EN16931-P0111', 'VATEX-EU-J'],
];

const INVOICE_CASES: BreakingCase[] = [
  {
    rule: 'PEPPOL-EN16931-R001',
    edits: [without('cbc:ProfileID')],
    fires: ['PEPPOL-EN16931-R001', 'PEPPOL-EN16931-R007'],
  },
  {
    rule: 'PEPPOL-EN16931-R002',
    edits: [['<cbc:DueDate>', '<cbc:Note>One</cbc:Note><cbc:Note>Two</cbc:Note><cbc:DueDate>']],
    keeps: [['<cbc:DueDate>', '<cbc:Note>One</cbc:Note><cbc:DueDate>']],
  },
  {
    rule: 'PEPPOL-EN16931-R003',
    edits: [without('cbc:BuyerReference')],
    keeps: [
      without('cbc:BuyerReference'),
      [
        '<cac:AccountingSupplierParty>',
        '<cac:OrderReference><cbc:ID>PO-1</cbc:ID></cac:OrderReference><cac:AccountingSupplierParty>',
      ],
    ],
  },
  {
    rule: 'PEPPOL-EN16931-R004',
    edits: [['poacc:billing:3.0</cbc:CustomizationID>', 'poacc:billing:2.0</cbc:CustomizationID>']],
  },
  {
    rule: 'PEPPOL-EN16931-R005',
    edits: [
      [
        '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
        '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>',
      ],
    ],
    // A tax currency stated asks for a tax total without subtotals too.
    fires: ['PEPPOL-EN16931-R005', 'PEPPOL-EN16931-R054'],
  },
  { rule: 'PEPPOL-EN16931-R007', edits: [['billing:01:1.0', 'billing:1:1.0']] },
  { rule: 'PEPPOL-EN16931-R008', edits: [['<cbc:AccountingCost>4025:123:4343<', '<cbc:AccountingCost> <']] },
  { rule: 'PEPPOL-EN16931-R010', edits: [['<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>', '']] },
  { rule: 'PEPPOL-EN16931-R020', edits: [without('cbc:EndpointID')] },
  {
    rule: 'PEPPOL-EN16931-R040',
    edits: [
      onCharge(
        '<cbc:MultiplierFactorNumeric>10</cbc:MultiplierFactorNumeric><cbc:BaseAmount currencyID="EUR">1000</cbc:BaseAmount>',
      ),
    ],
    keeps: [
      onCharge(
        '<cbc:MultiplierFactorNumeric>2.5</cbc:MultiplierFactorNumeric><cbc:BaseAmount currencyID="EUR">1000</cbc:BaseAmount>',
      ),
    ],
  },
  { rule: 'PEPPOL-EN16931-R041', edits: [onCharge('<cbc:MultiplierFactorNumeric>2.5</cbc:MultiplierFactorNumeric>')] },
  { rule: 'PEPPOL-EN16931-R042', edits: [onCharge('<cbc:BaseAmount currencyID="EUR">1000</cbc:BaseAmount>')] },
  { rule: 'PEPPOL-EN16931-R043', edits: [['<cbc:ChargeIndicator>true<', '<cbc:ChargeIndicator>1<']] },
  { rule: 'PEPPOL-EN16931-R044', edits: [priceAllowance('true', '410')], keeps: [priceAllowance('false', '410')] },
  { rule: 'PEPPOL-EN16931-R046', edits: [priceAllowance('false', '420')] },
  { rule: 'PEPPOL-EN16931-R051', edits: [[PRICE, '<cbc:PriceAmount currencyID="USD">400</cbc:PriceAmount>']] },
  {
    rule: 'PEPPOL-EN16931-R054',
    edits: [TAX_CURRENCY],
    // EN 16931's BR-53 asks for the VAT total in the accounting currency as well.
    fires: ['BR-53', 'PEPPOL-EN16931-R054'],
  },
  {
    rule: 'PEPPOL-EN16931-R055',
    edits: [TAX_CURRENCY, accountingTax('-100.00')],
    keeps: [TAX_CURRENCY, accountingTax('3600.00')],
  },
  { rule: 'PEPPOL-EN16931-R061', edits: [['name="Credit transfer">30<', 'name="Direct debit">59<']] },
  {
    rule: 'PEPPOL-EN16931-R100',
    edits: [lineReferences('130', '130')],
    // UBL's own binding allows one document reference per line as well (UBL-SR-52).
    fires: ['PEPPOL-EN16931-R100', 'UBL-SR-52'],
    keeps: [lineReferences('130')],
  },
  { rule: 'PEPPOL-EN16931-R101', edits: [lineReferences(null)] },
  {
    rule: 'PEPPOL-EN16931-R110',
    edits: [INVOICE_PERIOD, linePeriod('2017-10-01', '2017-11-30')],
    keeps: [INVOICE_PERIOD, linePeriod('2017-11-01', '2017-11-30')],
  },
  { rule: 'PEPPOL-EN16931-R111', edits: [INVOICE_PERIOD, linePeriod('2017-11-01', '2017-12-31')] },
  { rule: 'PEPPOL-EN16931-R120', edits: [[PRICE, '<cbc:PriceAmount currencyID="EUR">401</cbc:PriceAmount>']] },
  {
    rule: 'PEPPOL-EN16931-R121',
    edits: [afterPrice('<cbc:BaseQuantity unitCode="DAY">0</cbc:BaseQuantity>')],
    keeps: [afterPrice('<cbc:BaseQuantity unitCode="DAY">1</cbc:BaseQuantity>')],
  },
  { rule: 'PEPPOL-EN16931-R130', edits: [afterPrice('<cbc:BaseQuantity unitCode="HUR">1</cbc:BaseQuantity>')] },
  { rule: 'PEPPOL-EN16931-P0100', edits: [typeCode('130')], keeps: [typeCode('383')] },
  { rule: 'PEPPOL-EN16931-P0112', edits: [typeCode('326')] },
  ...EXEMPTIONS.map(([rule, code]) => ({
    rule,
    edits: [exemption(code)],
    // A standard-rated breakdown has no exemption reason in EN 16931 either.
    fires: ['BR-S-10', rule],
  })),
  { rule: 'PEPPOL-EN16931-F001', edits: [['<cbc:IssueDate>2017-11-13<', '<cbc:IssueDate>13.11.2017<']] },
  {
    rule: 'PEPPOL-EN16931-CL001',
    edits: [
      [
        '<cac:AccountingSupplierParty>',
        '<cac:AdditionalDocumentReference><cbc:ID>A</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/xml" filename="a.xml">AA==</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:AccountingSupplierParty>',
      ],
    ],
    fires: ['BR-CL-24', 'PEPPOL-EN16931-CL001'],
  },
  {
    rule: 'PEPPOL-EN16931-CL002',
    edits: [
      [
        '<cbc:ChargeIndicator>true</cbc:ChargeIndicator>',
        '<cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>XX</cbc:AllowanceChargeReasonCode>',
      ],
    ],
    // The charge becomes an allowance, so the totals no longer add up either.
    fires: ['BR-CL-19', 'BR-CO-11', 'BR-CO-12', 'BR-S-08', 'PEPPOL-EN16931-CL002'],
  },
  {
    rule: 'PEPPOL-EN16931-CL003',
    edits: [onCharge('<cbc:AllowanceChargeReasonCode>XX</cbc:AllowanceChargeReasonCode>')],
    fires: ['BR-CL-20', 'PEPPOL-EN16931-CL003'],
  },
  {
    rule: 'PEPPOL-EN16931-CL006',
    edits: [
      [
        '<cac:AccountingSupplierParty>',
        '<cac:InvoicePeriod><cbc:DescriptionCode>5</cbc:DescriptionCode></cac:InvoicePeriod><cac:AccountingSupplierParty>',
      ],
    ],
    fires: ['BR-CL-06', 'PEPPOL-EN16931-CL006'],
  },
  {
    rule: 'PEPPOL-EN16931-CL007',
    edits: [[PRICE, '<cbc:PriceAmount currencyID="XCG">400</cbc:PriceAmount>']],
    fires: ['PEPPOL-EN16931-CL007', 'PEPPOL-EN16931-R051'],
  },
  { rule: 'PEPPOL-EN16931-CL008', edits: [['<cbc:EndpointID schemeID="0002">', '<cbc:EndpointID schemeID="AN">']] },
  { rule: 'PEPPOL-COMMON-R040', edits: [['9482348239847239874', '9482348239847239875']] },
  {
    rule: 'PEPPOL-COMMON-R041',
    edits: [buyerIdentifier('0192', '974760674')],
    keeps: [buyerIdentifier('0192', '974760673')],
  },
  {
    rule: 'PEPPOL-COMMON-R042',
    edits: [buyerIdentifier('0184', 'DK1234')],
    keeps: [buyerIdentifier('0184', 'DK12345678')],
  },
  {
    rule: 'PEPPOL-COMMON-R043',
    edits: [buyerIdentifier('0208', '0123456748')],
    keeps: [buyerIdentifier('0208', '0123456749')],
  },
  {
    rule: 'PEPPOL-COMMON-R044',
    edits: [buyerIdentifier('0201', 'ABC12')],
    keeps: [buyerIdentifier('0201', 'ABC123')],
  },
  {
    rule: 'PEPPOL-COMMON-R049',
    edits: [buyerIdentifier('0007', '5560360794')],
    keeps: [buyerIdentifier('0007', '5560360793')],
  },
  {
    rule: 'PEPPOL-COMMON-R050',
    edits: [buyerIdentifier('0151', '51824753557')],
    keeps: [buyerIdentifier('0151', '51824753556')],
  },
];

const CREDIT_NOTE_CASES: BreakingCase[] = [
  {
    rule: 'PEPPOL-EN16931-P0101',
    edits: [['<cbc:CreditNoteTypeCode>381<', '<cbc:CreditNoteTypeCode>261<']],
  },
  {
    rule: 'PEPPOL-EN16931-R080',
    edits: [
      [
        '<cac:AccountingSupplierParty>',
        '<cac:AdditionalDocumentReference><cbc:ID>P1</cbc:ID><cbc:DocumentTypeCode>50</cbc:DocumentTypeCode></cac:AdditionalDocumentReference><cac:AdditionalDocumentReference><cbc:ID>P2</cbc:ID><cbc:DocumentTypeCode>50</cbc:DocumentTypeCode></cac:AdditionalDocumentReference><cac:AccountingSupplierParty>',
      ],
    ],
  },
  {
    rule: 'PEPPOL-EN16931-R053',
    edits: [[/<cac:TaxSubtotal>[\s\S]*?<\/cac:TaxSubtotal>/, '']],
    // With its subtotals gone the VAT breakdown is gone too, which EN 16931 finds in its own terms, and the
    // one tax total left counts as the accounting-currency total no tax currency asks for.
    fires: ['BR-CO-14', 'BR-CO-18', 'BR-S-01', 'PEPPOL-EN16931-R053', 'PEPPOL-EN16931-R054'],
  },
];

describe('Peppol BIS Billing 3 (PEPPOL-*): a public Peppol sample, changed in one place', () => {
  it('finds nothing in the public Peppol samples', async () => {
    for (const name of ['peppol-invoice.xml', 'peppol-credit-note.xml', 'peppol-allowances.xml'])
      assert.deepEqual(firedRules(await readSample(name)), [], name);
  });

  describe('an invoice', () => testBreakingCases('peppol-invoice.xml', INVOICE_CASES));
  describe('a credit note', () => testBreakingCases('peppol-credit-note.xml', CREDIT_NOTE_CASES));

  it('holds only an invoice that declares Peppol', async () => {
    // The EN 16931 example has no business process: as a Peppol invoice it breaks R007.
    const plain = await readSample('ubl-en16931-allowances.xml');
    assert.deepEqual(firedRules(plain, PEPPOL_RULES), []);
    const declared = mutated(plain, [
      [
        '<cbc:CustomizationID>urn:cen.eu:en16931:2017<',
        `<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0<`,
      ],
    ]);
    assert.ok(firedRules(declared, PEPPOL_RULES).includes('PEPPOL-EN16931-R007'));
  });

  it('holds a CII invoice that declares Peppol to the same rules, over the same terms', async () => {
    const cii = mutated(await readSample('xrechnung-cii.xml'), [
      ['kosit:xrechnung_3.0<', 'kosit:xrechnung_3.0#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0<'],
    ]);
    const base = firedRules(cii, PEPPOL_RULES);
    // Only what a CII XRechnung is not in Peppol: an identifier that does not start as Peppol's (R004), the
    // empty delivery element (R008), e-mail addresses as electronic addresses (EM is no Peppol scheme, CL008).
    assert.deepEqual(base, ['PEPPOL-EN16931-CL008', 'PEPPOL-EN16931-R004', 'PEPPOL-EN16931-R008']);
    const noReference = firedRules(mutated(cii, [without('ram:BuyerReference')]), PEPPOL_RULES);
    assert.ok(noReference.includes('PEPPOL-EN16931-R003'));
    const wrongLine = firedRules(
      mutated(cii, [['<ram:ChargeAmount>26.07<', '<ram:ChargeAmount>27.07<']]),
      PEPPOL_RULES,
    );
    assert.ok(wrongLine.includes('PEPPOL-EN16931-R120'));
  });

  it('has a breaking fixture for every rule it writes', () => {
    const covered = new Set([...INVOICE_CASES, ...CREDIT_NOTE_CASES].map((entry) => entry.rule));
    assert.deepEqual(
      PEPPOL_RULES.map((rule) => rule.id).filter((rule) => !covered.has(rule)),
      [],
    );
  });
});
