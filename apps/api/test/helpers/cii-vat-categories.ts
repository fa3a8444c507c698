import { without, type Edit } from './e-invoice-mutations.ts';

/**
 * CII fixtures for the VAT-category rules (BR-Z-*, BR-E-*, BR-AE-*, BR-IC-*, BR-G-*, BR-O-*, BR-AF-*,
 * BR-AG-*), which the official unit tests prove on UBL only. The public XRechnung CII sample is standard
 * rated; it is first turned into an invoice of the category (its codes, rate, tax and what the category
 * asks for), then changed in one place, and must raise the finding the UBL sets expect.
 */
export interface CategoryBase {
  code: string;
  prefix: string;
  /** The rate written in the lines and the breakdown; null: none (O). */
  rate: string | null;
  /** The breakdown's tax at that rate on the sample's 314.86. */
  tax: string;
  /** What else the category asks for, so that the base invoice breaks none of its rules. */
  extra: Edit[];
}

const EXEMPTION = '<ram:ExemptionReason>Steuerbefreit</ram:ExemptionReason>';
const HEADER_TAX = /(<ram:CalculatedAmount>[^<]*<\/ram:CalculatedAmount>)/;
const withExemption: Edit = [HEADER_TAX, `$1${EXEMPTION}`];
const buyerVat: Edit = [
  '</ram:BuyerTradeParty>',
  '<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">FR12345678901</ram:ID></ram:SpecifiedTaxRegistration></ram:BuyerTradeParty>',
];
const DELIVERY_DATE =
  '<ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime><udt:DateTimeString format="102">20160401</udt:DateTimeString></ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent>';
const SHIP_TO =
  '<ram:ShipToTradeParty><ram:PostalTradeAddress><ram:PostcodeCode>75001</ram:PostcodeCode><ram:CityName>Paris</ram:CityName><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress></ram:ShipToTradeParty>';
const delivery = (inner: string): Edit => [
  '<ram:ApplicableHeaderTradeDelivery/>',
  `<ram:ApplicableHeaderTradeDelivery>${inner}</ram:ApplicableHeaderTradeDelivery>`,
];
const SELLER_TAX = without('ram:SpecifiedTaxRegistration');

export const BASES: CategoryBase[] = [
  { code: 'Z', prefix: 'BR-Z', rate: '0', tax: '0.00', extra: [] },
  { code: 'E', prefix: 'BR-E', rate: '0', tax: '0.00', extra: [withExemption] },
  { code: 'AE', prefix: 'BR-AE', rate: '0', tax: '0.00', extra: [withExemption, buyerVat] },
  {
    code: 'K',
    prefix: 'BR-IC',
    rate: '0',
    tax: '0.00',
    extra: [withExemption, buyerVat, delivery(SHIP_TO + DELIVERY_DATE)],
  },
  { code: 'G', prefix: 'BR-G', rate: '0', tax: '0.00', extra: [withExemption] },
  { code: 'O', prefix: 'BR-O', rate: null, tax: '0.00', extra: [withExemption, SELLER_TAX] },
  { code: 'L', prefix: 'BR-AF', rate: '7', tax: '22.04', extra: [] },
  { code: 'M', prefix: 'BR-AG', rate: '7', tax: '22.04', extra: [] },
];

/** The sample as an invoice of the category: every S and 7 % replaced, the totals made to agree. */
export function baseEdits({ code, rate, tax, extra }: CategoryBase): Edit[] {
  const grand = (314.86 + Number(tax)).toFixed(2);
  return [
    [/<ram:CategoryCode>S<\/ram:CategoryCode>/g, `<ram:CategoryCode>${code}</ram:CategoryCode>`],
    [
      /<ram:RateApplicablePercent>7<\/ram:RateApplicablePercent>/g,
      rate === null ? '' : `<ram:RateApplicablePercent>${rate}</ram:RateApplicablePercent>`,
    ],
    ['<ram:CalculatedAmount>22.04<', `<ram:CalculatedAmount>${tax}<`],
    ['<ram:TaxTotalAmount currencyID="EUR">22.04<', `<ram:TaxTotalAmount currencyID="EUR">${tax}<`],
    ['<ram:GrandTotalAmount>336.9<', `<ram:GrandTotalAmount>${grand}<`],
    ['<ram:DuePayableAmount>336.9<', `<ram:DuePayableAmount>${grand}<`],
    ...extra,
  ];
}

const indicator = (charge: boolean) =>
  `<ram:ChargeIndicator><udt:Indicator>${charge}</udt:Indicator></ram:ChargeIndicator>`;
const tradeTax = (code: string, rate: string | null) =>
  `<ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${code}</ram:CategoryCode>${rate === null ? '' : `<ram:RateApplicablePercent>${rate}</ram:RateApplicablePercent>`}</ram:CategoryTradeTax>`;
const documentLevel = (charge: boolean, code: string, rate: string | null): Edit => [
  '<ram:SpecifiedTradePaymentTerms>',
  `<ram:SpecifiedTradeAllowanceCharge>${indicator(charge)}<ram:ActualAmount>0.00</ram:ActualAmount><ram:Reason>Test</ram:Reason>${tradeTax(code, rate)}</ram:SpecifiedTradeAllowanceCharge><ram:SpecifiedTradePaymentTerms>`,
];
const HEADER_CATEGORY = /(<ram:BasisAmount>314\.86<\/ram:BasisAmount>\s*<ram:CategoryCode>)[A-Z]+</;
const FIRST_LINE_RATE =
  /(<ram:TypeCode>VAT<\/ram:TypeCode>\s*<ram:CategoryCode>[A-Z]+<\/ram:CategoryCode>)(\s*<ram:RateApplicablePercent>[^<]*<\/ram:RateApplicablePercent>)?/;
const lineRate = (rate: string): Edit => [
  FIRST_LINE_RATE,
  `$1<ram:RateApplicablePercent>${rate}</ram:RateApplicablePercent>`,
];
/** A rate that breaks the category's rate rule: any rate but zero (none at all for O), or a negative one. */
const wrongRate = (base: CategoryBase) => (base.rate === '7' ? '-1' : '5');

/** The ten questions, and what breaks each for the category. */
export function casesOf(base: CategoryBase): Record<string, Edit[]> {
  const { prefix, code } = base;
  const exemptionRequired = ['E', 'AE', 'K', 'G', 'O'].includes(code);
  const identifier: Edit[] =
    code === 'O'
      ? [
          [
            '<ram:SpecifiedLegalOrganization>',
            '<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE 123456789</ram:ID></ram:SpecifiedTaxRegistration><ram:SpecifiedLegalOrganization>',
          ],
        ]
      : [SELLER_TAX];
  const cases: Record<string, Edit[]> = {
    [`${prefix}-01`]: [[HEADER_CATEGORY, '$1S<']],
    [`${prefix}-02`]: identifier,
    [`${prefix}-03`]: [...identifier, documentLevel(false, code, base.rate)],
    [`${prefix}-04`]: [...identifier, documentLevel(true, code, base.rate)],
    [`${prefix}-05`]: [lineRate(wrongRate(base))],
    [`${prefix}-06`]: [documentLevel(false, code, wrongRate(base))],
    [`${prefix}-07`]: [documentLevel(true, code, wrongRate(base))],
    [`${prefix}-08`]: [['<ram:BasisAmount>314.86<', '<ram:BasisAmount>300.00<']],
    [`${prefix}-09`]: [[/<ram:CalculatedAmount>[^<]*</, '<ram:CalculatedAmount>5.00<']],
    [`${prefix}-10`]: exemptionRequired ? [[EXEMPTION, '']] : [withExemption],
  };
  if (code === 'K') {
    cases['BR-IC-11'] = [[DELIVERY_DATE, '']];
    cases['BR-IC-12'] = [['<ram:CountryID>FR</ram:CountryID>', '']];
  }
  if (code === 'O') {
    cases['BR-O-11'] = [
      [
        /(<\/ram:ApplicableTradeTax>)(\s*<ram:SpecifiedTradePaymentTerms>)/,
        '$1<ram:ApplicableTradeTax><ram:CalculatedAmount>0.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>0.00</ram:BasisAmount><ram:CategoryCode>Z</ram:CategoryCode><ram:RateApplicablePercent>0</ram:RateApplicablePercent></ram:ApplicableTradeTax>$2',
      ],
    ];
    cases['BR-O-12'] = [[/(<ram:TypeCode>VAT<\/ram:TypeCode>\s*<ram:CategoryCode>)O</, '$1Z<']];
    cases['BR-O-13'] = [documentLevel(false, 'Z', '0')];
    cases['BR-O-14'] = [documentLevel(true, 'Z', '0')];
  }
  return cases;
}
