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
import { XRECHNUNG_RULES } from './xrechnung.ts';

const UBL_MEANS = /<cac:PaymentMeans>[\s\S]*?<\/cac:PaymentMeans>/;
const ublMeans = (inner: string): Edit => [UBL_MEANS, `<cac:PaymentMeans>${inner}</cac:PaymentMeans>`];
const GOOD_IBAN = 'DE79000000001234567890';
const BAD_IBAN = 'DE00000000001234567890';
const mandate = (account: string | null) =>
  `<cac:PaymentMandate><cbc:ID>M-1</cbc:ID>${account ? `<cac:PayerFinancialAccount><cbc:ID>${account}</cbc:ID></cac:PayerFinancialAccount>` : ''}</cac:PaymentMandate>`;
const SEPA_CREDITOR: Edit = [
  '<cac:PartyName>',
  '<cac:PartyIdentification><cbc:ID schemeID="SEPA">DE98ZZZ09999999999</cbc:ID></cac:PartyIdentification><cac:PartyName>',
];
const CARD =
  '<cac:CardAccount><cbc:PrimaryAccountNumberID>1234</cbc:PrimaryAccountNumberID><cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount>';
const TRANSFER = `<cac:PayeeFinancialAccount><cbc:ID>${GOOD_IBAN}</cbc:ID></cac:PayeeFinancialAccount>`;
const ublTerms = (note: string): Edit => [
  '<cbc:Note>Zahlbar sofort ohne Abzug.</cbc:Note>',
  `<cbc:Note>${note}</cbc:Note>`,
];
const attachment = (name: string) =>
  `<cac:AdditionalDocumentReference><cbc:ID>${name}</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="${name}">AA==</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>`;
const beforeSeller = (xml: string): Edit => ['<cac:AccountingSupplierParty>', `${xml}<cac:AccountingSupplierParty>`];
const delivery = (address: string): Edit => [
  '<cac:PaymentMeans>',
  `<cac:Delivery><cac:DeliveryLocation><cac:Address>${address}<cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:Address></cac:DeliveryLocation></cac:Delivery><cac:PaymentMeans>`,
];

const UBL_CASES: BreakingCase[] = [
  { rule: 'BR-DE-1', edits: [[UBL_MEANS, '']] },
  { rule: 'BR-DE-2', edits: [without('cac:Contact')] },
  { rule: 'BR-DE-3', edits: [['<cbc:CityName>[Seller city]</cbc:CityName>', '']] },
  { rule: 'BR-DE-4', edits: [['<cbc:PostalZone>12345</cbc:PostalZone>', '']] },
  { rule: 'BR-DE-5', edits: [['<cbc:Name>nicht vorhanden</cbc:Name>', '']] },
  { rule: 'BR-DE-6', edits: [without('cbc:Telephone')], fires: ['BR-DE-6', 'BR-DE-27'] },
  { rule: 'BR-DE-7', edits: [without('cbc:ElectronicMail')], fires: ['BR-DE-7', 'BR-DE-28'] },
  { rule: 'BR-DE-8', edits: [['<cbc:CityName>[Buyer city]</cbc:CityName>', '']] },
  {
    rule: 'BR-DE-9',
    edits: [
      [
        '<cbc:CityName>[Buyer city]</cbc:CityName>\n                <cbc:PostalZone>12345</cbc:PostalZone>',
        '<cbc:CityName>[Buyer city]</cbc:CityName>',
      ],
    ],
  },
  {
    rule: 'BR-DE-10',
    edits: [delivery('<cbc:PostalZone>10115</cbc:PostalZone>')],
    keeps: [delivery('<cbc:CityName>Berlin</cbc:CityName><cbc:PostalZone>10115</cbc:PostalZone>')],
  },
  { rule: 'BR-DE-11', edits: [delivery('<cbc:CityName>Berlin</cbc:CityName>')] },
  {
    rule: 'BR-DE-14',
    edits: [[/(<cac:TaxSubtotal>[\s\S]*?)<cbc:Percent>7<\/cbc:Percent>/, '$1']],
    // EN 16931 asks for the rate too (BR-48), and a standard-rated breakdown without one adds up to nothing.
    fires: ['BR-48', 'BR-CO-17', 'BR-DE-14', 'BR-S-08', 'BR-S-09'],
  },
  { rule: 'BR-DE-15', edits: [without('cbc:BuyerReference')] },
  {
    rule: 'BR-DE-16',
    edits: [without('cac:PartyTaxScheme')],
    // EN 16931's own BR-S-02 asks the same of a standard-rated invoice.
    fires: ['BR-DE-16', 'BR-S-02'],
  },
  {
    rule: 'BR-DE-17',
    edits: [['<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>383<']],
    keeps: [['<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>875<']],
  },
  {
    rule: 'BR-DE-18',
    edits: [ublTerms('#SKONTO#TAGE=14#PROZENT=2,00#\n')],
    keeps: [ublTerms('#SKONTO#TAGE=14#PROZENT=2.00#\n#SKONTO#TAGE=30#PROZENT=1.00#BASISBETRAG=300.00#\n')],
  },
  { rule: 'BR-DE-18', edits: [ublTerms('Zahlbar in 30 Tagen.\n#SKONTO#TAGE=14#PROZENT=2.00#')] },
  { rule: 'BR-DE-19', edits: [[GOOD_IBAN, BAD_IBAN]] },
  {
    rule: 'BR-DE-20',
    edits: [SEPA_CREDITOR, ublMeans(`<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode>${mandate(BAD_IBAN)}`)],
    keeps: [SEPA_CREDITOR, ublMeans(`<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode>${mandate(GOOD_IBAN)}`)],
  },
  {
    rule: 'BR-DE-21',
    edits: [['kosit:xrechnung_3.0<', 'kosit:xrechnung_2.3<']],
  },
  {
    rule: 'BR-DE-22',
    edits: [beforeSeller(attachment('a.pdf') + attachment('a.pdf'))],
    keeps: [beforeSeller(attachment('a.pdf') + attachment('b.pdf'))],
  },
  {
    rule: 'BR-DE-23-a',
    edits: [ublMeans('<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>')],
    // EN 16931's BR-61 also asks for the account of a credit transfer.
    fires: ['BR-61', 'BR-DE-23-a'],
  },
  { rule: 'BR-DE-23-b', edits: [ublMeans(`<cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>${CARD}${TRANSFER}`)] },
  {
    rule: 'BR-DE-24-a',
    edits: [ublMeans('<cbc:PaymentMeansCode>48</cbc:PaymentMeansCode>')],
    keeps: [ublMeans(`<cbc:PaymentMeansCode>48</cbc:PaymentMeansCode>${CARD}`)],
  },
  { rule: 'BR-DE-24-b', edits: [ublMeans(`<cbc:PaymentMeansCode>48</cbc:PaymentMeansCode>${CARD}${TRANSFER}`)] },
  {
    rule: 'BR-DE-25-a',
    edits: [ublMeans('<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode>')],
    // No direct debit, so no debited account that could be an IBAN.
    fires: ['BR-DE-20', 'BR-DE-25-a'],
  },
  {
    rule: 'BR-DE-25-b',
    edits: [SEPA_CREDITOR, ublMeans(`<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode>${TRANSFER}${mandate(GOOD_IBAN)}`)],
  },
  {
    rule: 'BR-DE-26',
    edits: [['<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>384<']],
    keeps: [
      ['<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>384<'],
      beforeSeller(
        '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>R-1</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>',
      ),
    ],
  },
  { rule: 'BR-DE-27', edits: [['+49 1234-5678', '+49']] },
  { rule: 'BR-DE-28', edits: [['<cbc:ElectronicMail>seller@email.de<', '<cbc:ElectronicMail>seller@email<']] },
  {
    rule: 'BR-DE-30',
    edits: [ublMeans(`<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode>${mandate(GOOD_IBAN)}`)],
  },
  {
    rule: 'BR-DE-31',
    edits: [SEPA_CREDITOR, ublMeans(`<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode>${mandate(null)}`)],
    // Without the debited account, it cannot be an IBAN either.
    fires: ['BR-DE-20', 'BR-DE-31'],
  },
];

const CII_MEANS = /<ram:SpecifiedTradeSettlementPaymentMeans>[\s\S]*?<\/ram:SpecifiedTradeSettlementPaymentMeans>/;
const ciiMeans = (inner: string): Edit => [
  CII_MEANS,
  `<ram:SpecifiedTradeSettlementPaymentMeans>${inner}</ram:SpecifiedTradeSettlementPaymentMeans>`,
];
const ciiTerms = (text: string): Edit => [
  '<ram:Description>Zahlbar sofort ohne Abzug.</ram:Description>',
  `<ram:Description>${text}</ram:Description>`,
];
const CII_CARD =
  '<ram:ApplicableTradeSettlementFinancialCard><ram:ID>1234</ram:ID></ram:ApplicableTradeSettlementFinancialCard>';
const debtor = (iban: string) =>
  `<ram:PayerPartyDebtorFinancialAccount><ram:IBANID>${iban}</ram:IBANID></ram:PayerPartyDebtorFinancialAccount>`;
const CII_CREDITOR: Edit = [
  '<ram:InvoiceCurrencyCode>',
  '<ram:CreditorReferenceID>DE98ZZZ09999999999</ram:CreditorReferenceID><ram:InvoiceCurrencyCode>',
];

const CII_TRANSFER =
  '<ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE79000000001234567890</ram:IBANID></ram:PayeePartyCreditorFinancialAccount>';
const ciiShipTo = (address: string): Edit => [
  '<ram:ApplicableHeaderTradeDelivery/>',
  `<ram:ApplicableHeaderTradeDelivery><ram:ShipToTradeParty><ram:PostalTradeAddress>${address}<ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:ShipToTradeParty></ram:ApplicableHeaderTradeDelivery>`,
];
const ciiAttachment = (name: string) =>
  `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>${name}</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode><ram:AttachmentBinaryObject mimeCode="application/pdf" filename="${name}">AA==</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument>`;
const inCiiAgreement = (xml: string): Edit => [
  '</ram:ApplicableHeaderTradeAgreement>',
  `${xml}</ram:ApplicableHeaderTradeAgreement>`,
];

const CII_CASES: BreakingCase[] = [
  { rule: 'BR-DE-1', edits: [[CII_MEANS, '']] },
  { rule: 'BR-DE-2', edits: [without('ram:DefinedTradeContact')] },
  { rule: 'BR-DE-3', edits: [['<ram:CityName>[Seller city]</ram:CityName>', '']] },
  { rule: 'BR-DE-4', edits: [['<ram:PostcodeCode>12345</ram:PostcodeCode>', '']] },
  { rule: 'BR-DE-5', edits: [without('ram:PersonName')] },
  { rule: 'BR-DE-6', edits: [without('ram:TelephoneUniversalCommunication')], fires: ['BR-DE-6', 'BR-DE-27'] },
  { rule: 'BR-DE-7', edits: [without('ram:EmailURIUniversalCommunication')], fires: ['BR-DE-7', 'BR-DE-28'] },
  { rule: 'BR-DE-8', edits: [['<ram:CityName>[Buyer city]</ram:CityName>', '']] },
  { rule: 'BR-DE-9', edits: [[/(<ram:BuyerTradeParty>[\s\S]*?)<ram:PostcodeCode>12345<\/ram:PostcodeCode>/, '$1']] },
  {
    rule: 'BR-DE-11',
    edits: [ciiShipTo('<ram:CityName>Berlin</ram:CityName>')],
    keeps: [ciiShipTo('<ram:PostcodeCode>10115</ram:PostcodeCode><ram:CityName>Berlin</ram:CityName>')],
  },
  {
    rule: 'BR-DE-14',
    edits: [
      [
        /(<ram:BasisAmount>314\.86<\/ram:BasisAmount>\s*<ram:CategoryCode>S<\/ram:CategoryCode>\s*)<ram:RateApplicablePercent>7<\/ram:RateApplicablePercent>/,
        '$1',
      ],
    ],
    fires: ['BR-48', 'BR-CO-17', 'BR-DE-14', 'BR-S-08', 'BR-S-09'],
  },
  {
    rule: 'BR-DE-20',
    edits: [CII_CREDITOR, ciiMeans(`<ram:TypeCode>59</ram:TypeCode>${debtor(BAD_IBAN)}`)],
  },
  {
    rule: 'BR-DE-22',
    edits: [inCiiAgreement(ciiAttachment('a.pdf') + ciiAttachment('a.pdf'))],
    keeps: [inCiiAgreement(ciiAttachment('a.pdf') + ciiAttachment('b.pdf'))],
  },
  { rule: 'BR-DE-23-b', edits: [ciiMeans(`<ram:TypeCode>58</ram:TypeCode>${CII_CARD}${CII_TRANSFER}`)] },
  { rule: 'BR-DE-24-b', edits: [ciiMeans(`<ram:TypeCode>48</ram:TypeCode>${CII_CARD}${CII_TRANSFER}`)] },
  {
    rule: 'BR-DE-25-b',
    edits: [CII_CREDITOR, ciiMeans(`<ram:TypeCode>59</ram:TypeCode>${CII_TRANSFER}${debtor(GOOD_IBAN)}`)],
  },
  {
    rule: 'BR-DE-10',
    edits: [
      [
        '<ram:ApplicableHeaderTradeDelivery/>',
        '<ram:ApplicableHeaderTradeDelivery><ram:ShipToTradeParty><ram:PostalTradeAddress><ram:PostcodeCode>10115</ram:PostcodeCode><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:ShipToTradeParty></ram:ApplicableHeaderTradeDelivery>',
      ],
    ],
  },
  { rule: 'BR-DE-15', edits: [without('ram:BuyerReference')] },
  { rule: 'BR-DE-16', edits: [without('ram:SpecifiedTaxRegistration')], fires: ['BR-DE-16', 'BR-S-02'] },
  { rule: 'BR-DE-17', edits: [['<ram:TypeCode>380<', '<ram:TypeCode>383<']] },
  {
    rule: 'BR-DE-18',
    edits: [ciiTerms('#SKONTO#TAGE=14#PROZENT=2#\n')],
    keeps: [ciiTerms('#SKONTO#TAGE=14#PROZENT=2.00#\n')],
  },
  { rule: 'BR-DE-19', edits: [[GOOD_IBAN, BAD_IBAN]] },
  { rule: 'BR-DE-21', edits: [['kosit:xrechnung_3.0<', 'kosit:xrechnung_2.3<']] },
  { rule: 'BR-DE-23-a', edits: [ciiMeans('<ram:TypeCode>30</ram:TypeCode>')], fires: ['BR-61', 'BR-DE-23-a'] },
  {
    rule: 'BR-DE-24-a',
    edits: [ciiMeans('<ram:TypeCode>48</ram:TypeCode>')],
    keeps: [ciiMeans(`<ram:TypeCode>48</ram:TypeCode>${CII_CARD}`)],
  },
  {
    rule: 'BR-DE-25-a',
    edits: [ciiMeans('<ram:TypeCode>59</ram:TypeCode>')],
    fires: ['BR-DE-20', 'BR-DE-25-a'],
    keeps: [CII_CREDITOR, ciiMeans(`<ram:TypeCode>59</ram:TypeCode>${debtor(GOOD_IBAN)}`)],
  },
  { rule: 'BR-DE-26', edits: [['<ram:TypeCode>380<', '<ram:TypeCode>384<']] },
  { rule: 'BR-DE-27', edits: [['+49 1234-5678', 'keine']] },
  { rule: 'BR-DE-28', edits: [['<ram:URIID>seller@email.de<', '<ram:URIID>seller at email.de<']] },
  { rule: 'BR-DE-30', edits: [ciiMeans(`<ram:TypeCode>59</ram:TypeCode>${debtor(GOOD_IBAN)}`)] },
  { rule: 'BR-DE-31', edits: [CII_CREDITOR], fires: ['BR-DE-31'] },
];

describe('the XRechnung CIUS (BR-DE-*): a public XRechnung sample, changed in one place', () => {
  it('finds nothing in the public XRechnung samples', async () => {
    for (const name of ['xrechnung-ubl.xml', 'xrechnung-cii.xml'])
      assert.deepEqual(firedRules(await readSample(name)), [], name);
  });

  describe('UBL', () => testBreakingCases('xrechnung-ubl.xml', UBL_CASES));
  describe('CII', () => testBreakingCases('xrechnung-cii.xml', CII_CASES));

  it('holds only an invoice that declares XRechnung', async () => {
    // The Peppol sample has no seller contact: as XRechnung it would break BR-DE-2.
    const peppol = await readSample('peppol-invoice.xml');
    assert.deepEqual(firedRules(peppol, XRECHNUNG_RULES), []);
    const declared = mutated(peppol, [
      ['urn:fdc:peppol.eu:2017:poacc:billing:3.0<', 'urn:xeinkauf.de:kosit:xrechnung_3.0<'],
    ]);
    assert.ok(firedRules(declared, XRECHNUNG_RULES).includes('BR-DE-2'));
  });

  it('has a breaking fixture in each syntax for every rule it writes', () => {
    const covered = (cases: BreakingCase[]) => new Set(cases.map((entry) => entry.rule));
    const written = XRECHNUNG_RULES.map((rule) => rule.id);
    assert.deepEqual(
      written.filter((rule) => !covered(UBL_CASES).has(rule)),
      [],
    );
    assert.deepEqual(
      written.filter((rule) => !covered(CII_CASES).has(rule)),
      [],
    );
  });
});
