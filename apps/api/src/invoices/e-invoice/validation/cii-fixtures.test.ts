import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addedRules, mutated, readSample, without, type Edit } from '../../../../test/helpers/e-invoice-mutations.ts';
import { BASES, casesOf } from '../../../../test/helpers/cii-vat-categories.ts';
import { readUnitTests } from '../../../../test/helpers/en16931-tests.ts';

/**
 * The official unit tests prove most rules on UBL only (their CII sets cover BR-CO-15 and BR-CO-17). These
 * fixtures hold a CII invoice to the same rules: the public XRechnung CII sample (valid), changed at test
 * time in one place, must raise the same finding the UBL sets expect.
 */
const SAMPLE = 'xrechnung-cii.xml';

const SETTLEMENT_TERMS = '<ram:SpecifiedTradePaymentTerms>';
const inSettlement = (xml: string): Edit => [SETTLEMENT_TERMS, `${xml}${SETTLEMENT_TERMS}`];
const inAgreement = (xml: string): Edit => [
  '</ram:ApplicableHeaderTradeAgreement>',
  `${xml}</ram:ApplicableHeaderTradeAgreement>`,
];
const LINE_SUMMATION = '<ram:SpecifiedTradeSettlementLineMonetarySummation>';
const inFirstLine = (xml: string): Edit => [LINE_SUMMATION, `${xml}${LINE_SUMMATION}`];
const FIRST_NET_PRICE = '<ram:NetPriceProductTradePrice>';
const FIRST_PRODUCT_NAME = '<ram:Name>Zeitschrift [...]</ram:Name>';
const inFirstProduct = (xml: string): Edit => [FIRST_PRODUCT_NAME, `${FIRST_PRODUCT_NAME}${xml}`];
const HEADER_TAX = /(<ram:CalculatedAmount>22\.04<\/ram:CalculatedAmount>)/;
const inHeaderTax = (xml: string): Edit => [HEADER_TAX, `$1${xml}`];
const indicator = (charge: boolean) =>
  `<ram:ChargeIndicator><udt:Indicator>${charge}</udt:Indicator></ram:ChargeIndicator>`;
const category = (code = 'S', rate = '7') =>
  `<ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${code}</ram:CategoryCode><ram:RateApplicablePercent>${rate}</ram:RateApplicablePercent></ram:CategoryTradeTax>`;
/** A document-level allowance or charge of 10.00; each part can be left out or replaced. */
const documentLevel = (
  charge: boolean,
  {
    amount = '<ram:ActualAmount>10.00</ram:ActualAmount>',
    reason = '<ram:Reason>Rabatt</ram:Reason>',
    tax = category(),
  } = {},
) =>
  inSettlement(
    `<ram:SpecifiedTradeAllowanceCharge>${indicator(charge)}${amount}${reason}${tax}</ram:SpecifiedTradeAllowanceCharge>`,
  );
const lineLevel = (
  charge: boolean,
  { amount = '<ram:ActualAmount>1.00</ram:ActualAmount>', reason = '<ram:Reason>Rabatt</ram:Reason>' } = {},
) =>
  inFirstLine(
    `<ram:SpecifiedTradeAllowanceCharge>${indicator(charge)}${amount}${reason}</ram:SpecifiedTradeAllowanceCharge>`,
  );
const representative = ({
  name = '<ram:Name>Vertreter</ram:Name>',
  address = '<ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>',
  vat = '<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE111111111</ram:ID></ram:SpecifiedTaxRegistration>',
} = {}) =>
  inAgreement(`<ram:SellerTaxRepresentativeTradeParty>${name}${address}${vat}</ram:SellerTaxRepresentativeTradeParty>`);
const period = (start: string, end: string) =>
  `<ram:BillingSpecifiedPeriod><ram:StartDateTime><udt:DateTimeString format="102">${start}</udt:DateTimeString></ram:StartDateTime><ram:EndDateTime><udt:DateTimeString format="102">${end}</udt:DateTimeString></ram:EndDateTime></ram:BillingSpecifiedPeriod>`;
const shipTo = (address: string): Edit => [
  '<ram:ApplicableHeaderTradeDelivery/>',
  `<ram:ApplicableHeaderTradeDelivery><ram:ShipToTradeParty><ram:PostalTradeAddress>${address}</ram:PostalTradeAddress></ram:ShipToTradeParty></ram:ApplicableHeaderTradeDelivery>`,
];
const attachment = (inner: string) =>
  inAgreement(`<ram:AdditionalReferencedDocument>${inner}</ram:AdditionalReferencedDocument>`);
const SELLER_TAX = without('ram:SpecifiedTaxRegistration');
const replaced = (from: string | RegExp, to: string): Edit => [from, to];
const BUYER = /(<ram:BuyerTradeParty>[\s\S]*?)/;
const inBuyer = (pattern: string, to = ''): Edit => [new RegExp(BUYER.source + pattern), `$1${to}`];

/** rule → the edits of the sample that break it. */
const CASES: Record<string, Edit[]> = {
  'BR-01': [without('ram:GuidelineSpecifiedDocumentContextParameter')],
  'BR-02': [replaced('<ram:ID>123456XX</ram:ID>', '')],
  'BR-03': [without('ram:IssueDateTime')],
  'BR-04': [replaced('<ram:TypeCode>380</ram:TypeCode>', '')],
  'BR-05': [without('ram:InvoiceCurrencyCode')],
  'BR-06': [replaced('<ram:Name>[Seller name]</ram:Name>', '')],
  'BR-07': [replaced('<ram:Name>[Buyer name]</ram:Name>', '')],
  'BR-08': [without('ram:PostalTradeAddress')],
  'BR-09': [replaced('<ram:CountryID>DE</ram:CountryID>', '')],
  'BR-10': [inBuyer('<ram:PostalTradeAddress>[\\s\\S]*?</ram:PostalTradeAddress>')],
  'BR-11': [inBuyer('<ram:CountryID>DE</ram:CountryID>')],
  'BR-12': [replaced('<ram:LineTotalAmount>314.86</ram:LineTotalAmount>', '')],
  'BR-13': [without('ram:TaxBasisTotalAmount')],
  'BR-14': [without('ram:GrandTotalAmount')],
  'BR-15': [without('ram:DuePayableAmount')],
  'BR-16': [replaced(/<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>\s*/g, '')],
  'BR-17': [inSettlement('<ram:PayeeTradeParty><ram:ID>P-1</ram:ID></ram:PayeeTradeParty>')],
  'BR-18': [representative({ name: '' })],
  'BR-19': [representative({ address: '' })],
  'BR-20': [
    representative({ address: '<ram:PostalTradeAddress><ram:CityName>Berlin</ram:CityName></ram:PostalTradeAddress>' }),
  ],
  'BR-21': [replaced('<ram:LineID>Zeitschrift [...]</ram:LineID>', '')],
  'BR-22': [without('ram:BilledQuantity')],
  'BR-23': [replaced('<ram:BilledQuantity unitCode="XPP">', '<ram:BilledQuantity>')],
  'BR-24': [replaced('<ram:LineTotalAmount>288.79</ram:LineTotalAmount>', '')],
  'BR-25': [replaced('<ram:Name>Porto + Versandkosten</ram:Name>', '')],
  'BR-26': [without('ram:NetPriceProductTradePrice')],
  'BR-27': [replaced('<ram:ChargeAmount>288.79<', '<ram:ChargeAmount>-288.79<')],
  'BR-28': [
    replaced(
      FIRST_NET_PRICE,
      `<ram:GrossPriceProductTradePrice><ram:ChargeAmount>-1</ram:ChargeAmount></ram:GrossPriceProductTradePrice>${FIRST_NET_PRICE}`,
    ),
  ],
  'BR-29': [inSettlement(period('20160201', '20160101'))],
  'BR-30': [replaced('format="102">20161231<', 'format="102">20151231<')],
  'BR-31': [documentLevel(false, { amount: '' })],
  'BR-32': [documentLevel(false, { tax: '' })],
  'BR-33': [documentLevel(false, { reason: '' })],
  'BR-36': [documentLevel(true, { amount: '' })],
  'BR-37': [documentLevel(true, { tax: '' })],
  'BR-38': [documentLevel(true, { reason: '' })],
  'BR-41': [lineLevel(false, { amount: '' })],
  'BR-42': [lineLevel(false, { reason: '' })],
  'BR-43': [lineLevel(true, { amount: '' })],
  'BR-44': [lineLevel(true, { reason: '' })],
  'BR-45': [replaced('<ram:BasisAmount>314.86</ram:BasisAmount>', '')],
  'BR-46': [replaced('<ram:CalculatedAmount>22.04</ram:CalculatedAmount>', '')],
  'BR-47': [replaced(/(<ram:BasisAmount>314\.86<\/ram:BasisAmount>\s*)<ram:CategoryCode>S<\/ram:CategoryCode>/, '$1')],
  'BR-48': [
    replaced(
      /(<ram:BasisAmount>314\.86<\/ram:BasisAmount>\s*<ram:CategoryCode>S<\/ram:CategoryCode>\s*)<ram:RateApplicablePercent>7<\/ram:RateApplicablePercent>/,
      '$1',
    ),
  ],
  'BR-49': [replaced('<ram:TypeCode>58</ram:TypeCode>', '')],
  'BR-50': [replaced('<ram:IBANID>DE79000000001234567890</ram:IBANID>', '<ram:AccountName>Konto</ram:AccountName>')],
  'BR-51': [
    replaced(
      '<ram:PayeePartyCreditorFinancialAccount>',
      '<ram:ApplicableTradeSettlementFinancialCard><ram:ID>4111111111111111</ram:ID></ram:ApplicableTradeSettlementFinancialCard><ram:PayeePartyCreditorFinancialAccount>',
    ),
  ],
  'BR-52': [attachment('<ram:TypeCode>916</ram:TypeCode>')],
  'BR-53': [
    replaced(
      '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>',
      '<ram:TaxCurrencyCode>USD</ram:TaxCurrencyCode><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>',
    ),
  ],
  'BR-54': [
    inFirstProduct(
      '<ram:ApplicableProductCharacteristic><ram:Description>Farbe</ram:Description></ram:ApplicableProductCharacteristic>',
    ),
  ],
  'BR-55': [
    inSettlement(
      '<ram:InvoiceReferencedDocument><ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20160101</qdt:DateTimeString></ram:FormattedIssueDateTime></ram:InvoiceReferencedDocument>',
    ),
  ],
  'BR-56': [representative({ vat: '' })],
  'BR-57': [shipTo('<ram:PostcodeCode>10115</ram:PostcodeCode><ram:CityName>Berlin</ram:CityName>')],
  'BR-61': [without('ram:PayeePartyCreditorFinancialAccount')],
  'BR-62': [replaced('<ram:URIID schemeID="EM">seller@email.de</ram:URIID>', '<ram:URIID>seller@email.de</ram:URIID>')],
  'BR-63': [replaced('<ram:URIID schemeID="EM">buyer@info.de</ram:URIID>', '<ram:URIID>buyer@info.de</ram:URIID>')],
  'BR-64': [
    replaced(
      '<ram:SellerAssignedID>246</ram:SellerAssignedID>',
      '<ram:GlobalID>4012345678901</ram:GlobalID><ram:SellerAssignedID>246</ram:SellerAssignedID>',
    ),
  ],
  'BR-65': [replaced('<ram:ClassCode listID="IB">', '<ram:ClassCode>')],
  'BR-CO-03': [
    inHeaderTax(
      '<ram:TaxPointDate><udt:DateString format="102">20160404</udt:DateString></ram:TaxPointDate><ram:DueDateTypeCode>5</ram:DueDateTypeCode>',
    ),
  ],
  'BR-CO-04': [replaced(/(<ram:TypeCode>VAT<\/ram:TypeCode>\s*)<ram:CategoryCode>S<\/ram:CategoryCode>/, '$1')],
  'BR-CO-09': [replaced('DE 123456789', '123456789')],
  'BR-CO-10': [replaced('<ram:LineTotalAmount>314.86<', '<ram:LineTotalAmount>300.00<')],
  'BR-CO-11': [
    replaced(
      '<ram:TaxBasisTotalAmount>',
      '<ram:AllowanceTotalAmount>5.00</ram:AllowanceTotalAmount><ram:TaxBasisTotalAmount>',
    ),
  ],
  'BR-CO-12': [
    replaced(
      '<ram:TaxBasisTotalAmount>',
      '<ram:ChargeTotalAmount>5.00</ram:ChargeTotalAmount><ram:TaxBasisTotalAmount>',
    ),
  ],
  'BR-CO-13': [replaced('<ram:TaxBasisTotalAmount>314.86<', '<ram:TaxBasisTotalAmount>300.00<')],
  'BR-CO-14': [replaced('<ram:TaxTotalAmount currencyID="EUR">22.04<', '<ram:TaxTotalAmount currencyID="EUR">20.00<')],
  'BR-CO-15': [replaced('<ram:GrandTotalAmount>336.9<', '<ram:GrandTotalAmount>340.00<')],
  'BR-CO-16': [replaced('<ram:DuePayableAmount>336.9<', '<ram:DuePayableAmount>999.99<')],
  'BR-CO-17': [replaced('<ram:CalculatedAmount>22.04<', '<ram:CalculatedAmount>25.00<')],
  'BR-CO-18': [replaced(/<ram:ApplicableTradeTax>\s*<ram:CalculatedAmount>[\s\S]*?<\/ram:ApplicableTradeTax>/, '')],
  'BR-CO-19': [
    inSettlement('<ram:BillingSpecifiedPeriod><ram:Description>2016</ram:Description></ram:BillingSpecifiedPeriod>'),
  ],
  'BR-CO-20': [
    replaced(
      /<ram:BillingSpecifiedPeriod>[\s\S]*?<\/ram:BillingSpecifiedPeriod>/,
      '<ram:BillingSpecifiedPeriod><ram:Description>2016</ram:Description></ram:BillingSpecifiedPeriod>',
    ),
  ],
  'BR-CO-21': [documentLevel(false, { reason: '' })],
  'BR-CO-22': [documentLevel(true, { reason: '' })],
  'BR-CO-23': [lineLevel(false, { reason: '' })],
  'BR-CO-24': [lineLevel(true, { reason: '' })],
  'BR-CO-25': [without('ram:SpecifiedTradePaymentTerms')],
  'BR-CO-26': [SELLER_TAX, without('ram:SpecifiedLegalOrganization')],
  'BR-CL-01': [replaced('<ram:TypeCode>380<', '<ram:TypeCode>999<')],
  'BR-CL-03': [replaced('<ram:TaxTotalAmount currencyID="EUR">', '<ram:TaxTotalAmount currencyID="EUX">')],
  'BR-CL-04': [replaced('<ram:InvoiceCurrencyCode>EUR<', '<ram:InvoiceCurrencyCode>EUX<')],
  'BR-CL-05': [
    replaced('<ram:InvoiceCurrencyCode>', '<ram:TaxCurrencyCode>EUX</ram:TaxCurrencyCode><ram:InvoiceCurrencyCode>'),
  ],
  'BR-CL-06': [inHeaderTax('<ram:DueDateTypeCode>3</ram:DueDateTypeCode>')],
  'BR-CL-07': [
    attachment(
      '<ram:IssuerAssignedID>O-1</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>XXA</ram:ReferenceTypeCode>',
    ),
  ],
  'BR-CL-10': [
    replaced('<ram:ID>[Buyer identifier]</ram:ID>', '<ram:GlobalID schemeID="9999">4000001000005</ram:GlobalID>'),
  ],
  'BR-CL-11': [replaced('<ram:ID>[HRA-Eintrag]</ram:ID>', '<ram:ID schemeID="9999">[HRA-Eintrag]</ram:ID>')],
  'BR-CL-13': [replaced('<ram:ClassCode listID="IB">', '<ram:ClassCode listID="XXX">')],
  'BR-CL-14': [replaced('<ram:CountryID>DE</ram:CountryID>', '<ram:CountryID>XX</ram:CountryID>')],
  'BR-CL-15': [inFirstProduct('<ram:OriginTradeCountry><ram:ID>XX</ram:ID></ram:OriginTradeCountry>')],
  'BR-CL-16': [replaced('<ram:TypeCode>58</ram:TypeCode>', '<ram:TypeCode>99</ram:TypeCode>')],
  'BR-CL-17': [
    replaced(/(<ram:BasisAmount>314\.86<\/ram:BasisAmount>\s*)<ram:CategoryCode>S</, '$1<ram:CategoryCode>X<'),
  ],
  'BR-CL-18': [replaced(/(<ram:TypeCode>VAT<\/ram:TypeCode>\s*)<ram:CategoryCode>S</, '$1<ram:CategoryCode>X<')],
  'BR-CL-19': [documentLevel(false, { reason: '<ram:ReasonCode>999</ram:ReasonCode>' })],
  'BR-CL-20': [documentLevel(true, { reason: '<ram:ReasonCode>XXX</ram:ReasonCode>' })],
  'BR-CL-21': [
    replaced(
      '<ram:SellerAssignedID>246</ram:SellerAssignedID>',
      '<ram:GlobalID schemeID="9999">4012345678901</ram:GlobalID><ram:SellerAssignedID>246</ram:SellerAssignedID>',
    ),
  ],
  'BR-CL-23': [replaced('<ram:BilledQuantity unitCode="XPP">', '<ram:BilledQuantity unitCode="2D">')],
  'BR-CL-24': [
    attachment(
      '<ram:IssuerAssignedID>A-1</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode><ram:AttachmentBinaryObject mimeCode="application/xml" filename="a.xml">AA==</ram:AttachmentBinaryObject>',
    ),
  ],
  'BR-S-01': [
    replaced(/(<ram:BasisAmount>314\.86<\/ram:BasisAmount>\s*)<ram:CategoryCode>S</, '$1<ram:CategoryCode>Z<'),
  ],
  'BR-S-02': [SELLER_TAX],
  'BR-S-03': [SELLER_TAX, documentLevel(false)],
  'BR-S-04': [SELLER_TAX, documentLevel(true)],
  'BR-S-05': [
    replaced(
      /(<ram:CategoryCode>S<\/ram:CategoryCode>\s*)<ram:RateApplicablePercent>7</,
      '$1<ram:RateApplicablePercent>0<',
    ),
  ],
  'BR-S-06': [documentLevel(false, { tax: category('S', '0') })],
  'BR-S-07': [documentLevel(true, { tax: category('S', '0') })],
  'BR-S-08': [replaced('<ram:BasisAmount>314.86<', '<ram:BasisAmount>300.00<')],
  'BR-S-09': [replaced('<ram:CalculatedAmount>22.04<', '<ram:CalculatedAmount>20.00<')],
  'BR-S-10': [inHeaderTax('<ram:ExemptionReason>Steuerfrei</ram:ExemptionReason>')],
};

/** UBL's own syntax rules have no CII counterpart. */
const WITHOUT_CII_FIXTURE = /^UBL-/;
/** The other VAT categories' rules have CII fixtures of their own, from an invoice of the category. */
const CATEGORY_CASES = new Set(BASES.flatMap((base) => Object.keys(casesOf(base))));

describe('CII invoices break the rules the UBL unit tests cover, with the same finding', () => {
  for (const [rule, edits] of Object.entries(CASES))
    it(rule, async () => {
      const sample = await readSample(SAMPLE);
      assert.ok(addedRules(sample, mutated(sample, edits)).includes(rule), `${rule} fires on the changed sample`);
    });

  it("has a CII fixture for every rule the UBL unit tests cover, but UBL's own syntax rules", async () => {
    const ublRules = new Set(
      (await readUnitTests()).filter((test) => !test.set.startsWith('cii/')).map((test) => test.rule),
    );
    const missing = [...ublRules].filter(
      (rule) => !(rule in CASES) && !CATEGORY_CASES.has(rule) && !WITHOUT_CII_FIXTURE.test(rule),
    );
    assert.deepEqual(missing, []);
  });
});
