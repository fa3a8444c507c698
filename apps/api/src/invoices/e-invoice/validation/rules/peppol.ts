import {
  ATTACHMENT_MIME_TYPES,
  PEPPOL_ISO_4217_CURRENCIES,
  UNTDID_2005_VAT_POINT_DATES,
  UNTDID_5189_ALLOWANCE_REASONS,
  UNTDID_7161_CHARGE_REASONS,
} from '../code-lists.ts';
import { abs, decimalOf, type Decimal } from '../decimal.ts';
import { blank, eachOf, lineName, onlyFor, violatedIf, type Rule, type RuleFlag, type Violation } from '../rule.ts';
import { PEPPOL_EAS_SCHEMES } from '../scheme-code-lists.ts';
import type { SemanticInvoice, UblOccurrences } from '../semantic-model.ts';
import { PEPPOL_IDENTIFIER_RULES } from './peppol-identifiers.ts';

/**
 * Peppol BIS Billing 3 (OpenPeppol): the rules the Peppol network adds to EN 16931, for an invoice whose
 * specification identifier (BT-24) names it. The national rules of its member authorities (DK-R, NO-R, SE-R,
 * IT-R, NL-R, GR-R …) are not written.
 */
const PEPPOL = 'urn:fdc:peppol.eu:2017:poacc:billing';
const PEPPOL_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PROFILE = /^urn:fdc:peppol\.eu:2017:poacc:billing:([0-9]{2}):1\.0$/;

export const declaresPeppol = (invoice: SemanticInvoice) => invoice.specification?.includes(PEPPOL) ?? false;

/** The type codes profile 01 (billing) allows. */
const PROFILE_01_INVOICE_TYPES = new Set(
  '71 80 82 84 102 218 219 326 331 380 382 383 384 386 388 393 395 553 575 623 780 817 870 875 876 877'.split(' '),
);
const PROFILE_01_CREDIT_NOTE_TYPES = new Set(['381', '396', '81', '83', '532']);
/** The VAT category an exemption reason code (BT-121) belongs to. */
const EXEMPTION_CATEGORIES: [string, string, string][] = [
  ['PEPPOL-EN16931-P0104', 'VATEX-EU-G', 'G'],
  ['PEPPOL-EN16931-P0105', 'VATEX-EU-O', 'O'],
  ['PEPPOL-EN16931-P0106', 'VATEX-EU-IC', 'K'],
  ['PEPPOL-EN16931-P0107', 'VATEX-EU-AE', 'AE'],
  ['PEPPOL-EN16931-P0108', 'VATEX-EU-D', 'E'],
  ['PEPPOL-EN16931-P0109', 'VATEX-EU-F', 'E'],
  ['PEPPOL-EN16931-P0110', 'VATEX-EU-I', 'E'],
  ['PEPPOL-EN16931-P0111', 'VATEX-EU-J', 'E'],
];

const SLACK: Decimal = decimalOf('0.02')!;
/** Peppol's u:slack: the amount stated is within two cents of the amount computed. */
const withinSlack = (stated: Decimal, computed: Decimal) => abs(stated - computed) <= SLACK;

const pp = (
  id: string,
  element: string,
  message: string,
  check: (invoice: SemanticInvoice) => Violation[],
  flag: RuleFlag = 'fatal',
): Rule => ({ id, flag, element, message, check });

/** A rule only UBL's structure can break (how many TaxTotal elements, which references a line has). */
const ublOnly = (
  id: string,
  element: string,
  message: string,
  fails: (occurrences: UblOccurrences, invoice: SemanticInvoice) => string | null | false,
) =>
  pp(id, element, message, (i) => {
    const value = i.ublOccurrences ? fails(i.ublOccurrences, i) : false;
    return value === false ? [] : [{ value }];
  });

/** Every code of one kind outside Peppol's list. */
const peppolCodes = (
  id: string,
  element: string,
  message: string,
  list: Set<string>,
  codes: (i: SemanticInvoice) => (string | null | undefined)[],
) =>
  pp(id, element, message, (i) =>
    codes(i)
      .filter((code): code is string => code != null && !list.has(code))
      .map((value) => ({ value })),
  );

const germanOnBothSides = (i: SemanticInvoice) =>
  i.seller?.address?.country?.toUpperCase() === 'DE' && i.buyer?.address?.country?.toUpperCase() === 'DE';

/** Document-level and line-level allowances and charges, each named by its place. */
const allowanceCharges = (i: SemanticInvoice) => [
  ...i.allowancesCharges.map((entry, index) => ({
    entry,
    at: `${entry.charge ? 'charge' : 'allowance'} ${index + 1}`,
  })),
  ...i.lines.flatMap((line, index) => line.allowancesCharges.map((entry) => ({ entry, at: lineName(line, index) }))),
];

const reasonCodes = (i: SemanticInvoice, charge: boolean) =>
  allowanceCharges(i)
    .filter(({ entry }) => entry.charge === charge)
    .map(({ entry }) => entry.reasonCode);

/** PEPPOL-EN16931-R120: quantity × (net price ÷ base quantity) + line charges − line allowances. */
function computedLineNet(line: SemanticInvoice['lines'][number]): Decimal | null {
  const quantity = decimalOf(line.quantity);
  const price = decimalOf(line.netPrice);
  const base = decimalOf(line.baseQuantity) ?? ONE;
  if (quantity === null || price === null || base === 0n) return null;
  // Summed in place, not filtered and mapped into arrays: this runs for every line of a document of thousands.
  let chargesLessAllowances = 0n;
  const { allowancesCharges } = line;
  for (let index = 0; index < allowancesCharges.length; index += 1) {
    const amount = decimalOf(allowancesCharges[index]!.amount) ?? 0n;
    chargesLessAllowances += allowancesCharges[index]!.charge ? amount : -amount;
  }
  return (quantity * price) / base + chargesLessAllowances;
}

const ONE = decimalOf('1')!;

/** Every currency an amount states, but BT-111's (the one amount Peppol lets be in the VAT accounting currency). */
function foreignCurrencies(i: SemanticInvoice): string[] {
  const foreign = i.amountCurrencies.filter((currency) => currency !== i.currency);
  const accounting = i.taxTotalAccounting !== null ? foreign.indexOf(i.taxCurrency ?? '') : -1;
  return accounting >= 0 ? foreign.filter((_, index) => index !== accounting) : foreign;
}

export const PEPPOL_RULES: Rule[] = onlyFor(declaresPeppol, [
  pp('PEPPOL-EN16931-R001', 'BT-23', 'Business process MUST be provided.', (i) => violatedIf(blank(i.profile))),
  pp(
    'PEPPOL-EN16931-R002',
    'BT-22',
    'No more than one note is allowed on document level, unless both the buyer and seller are German organizations.',
    (i) => violatedIf(i.notes.length > 1 && !germanOnBothSides(i), { value: `${i.notes.length} notes` }),
  ),
  pp('PEPPOL-EN16931-R003', 'BT-10', 'A buyer reference or purchase order reference MUST be provided.', (i) =>
    violatedIf(blank(i.buyerReference) && blank(i.orderReference)),
  ),
  pp(
    'PEPPOL-EN16931-R004',
    'BT-24',
    "Specification identifier MUST have the value 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'.",
    (i) => violatedIf(!(i.specification ?? '').startsWith(PEPPOL_ID), { value: i.specification }),
  ),
  pp(
    'PEPPOL-EN16931-R005',
    'BT-6',
    'VAT accounting currency code MUST be different from invoice currency code when provided.',
    (i) => violatedIf(!blank(i.taxCurrency) && i.taxCurrency === i.currency, { value: i.taxCurrency }),
  ),
  pp(
    'PEPPOL-EN16931-R007',
    'BT-23',
    "Business process MUST be in the format 'urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0' where NN indicates the process number.",
    (i) => violatedIf(!PROFILE.test(i.profile ?? ''), { value: i.profile }),
  ),
  pp('PEPPOL-EN16931-R008', 'any', 'Document MUST not contain empty elements.', (i) =>
    i.emptyElements.map((value) => ({ value })),
  ),
  pp('PEPPOL-EN16931-R010', 'BT-49', 'Buyer electronic address MUST be provided', (i) =>
    violatedIf(!!i.buyer && !i.buyer.electronicAddress),
  ),
  pp('PEPPOL-EN16931-R020', 'BT-34', 'Seller electronic address MUST be provided', (i) =>
    violatedIf(!!i.seller && !i.seller.electronicAddress),
  ),
  pp(
    'PEPPOL-EN16931-R040',
    'BT-92',
    'Allowance/charge amount must equal base amount * percentage/100 if base amount and percentage exists',
    (i) =>
      allowanceCharges(i)
        .filter(({ entry }) => {
          const base = decimalOf(entry.base);
          const percentage = decimalOf(entry.percentage);
          if (base === null || percentage === null) return false;
          return !withinSlack(decimalOf(entry.amount) ?? 0n, (base * percentage) / decimalOf('100')!);
        })
        .map(({ entry, at }) => ({ at, value: entry.amount })),
  ),
  pp(
    'PEPPOL-EN16931-R041',
    'BT-93',
    'Allowance/charge base amount MUST be provided when allowance/charge percentage is provided.',
    (i) =>
      allowanceCharges(i)
        .filter(({ entry }) => entry.percentage !== null && entry.base === null)
        .map(({ at }) => ({ at })),
  ),
  pp(
    'PEPPOL-EN16931-R042',
    'BT-94',
    'Allowance/charge percentage MUST be provided when allowance/charge base amount is provided.',
    (i) =>
      allowanceCharges(i)
        .filter(({ entry }) => entry.percentage === null && entry.base !== null)
        .map(({ at }) => ({ at })),
  ),
  pp(
    'PEPPOL-EN16931-R043',
    'ChargeIndicator',
    "Allowance/charge ChargeIndicator value MUST equal 'true' or 'false'",
    (i) =>
      allowanceCharges(i)
        .filter(({ entry }) => entry.indicator !== 'true' && entry.indicator !== 'false')
        .map(({ entry, at }) => ({ at, value: entry.indicator })),
  ),
  pp('PEPPOL-EN16931-R044', 'BT-147', "Charge on price level is NOT allowed. Only value 'false' allowed.", (i) =>
    eachOf(
      i.lines,
      lineName,
      (line) => line.priceAllowanceIndicator !== null && line.priceAllowanceIndicator !== 'false',
      (line) => line.priceAllowanceIndicator,
    ),
  ),
  pp(
    'PEPPOL-EN16931-R046',
    'BT-146',
    'Item net price MUST equal (Gross price - Allowance amount) when gross price is provided.',
    (i) =>
      eachOf(
        i.lines,
        lineName,
        (line) => {
          const gross = decimalOf(line.grossPrice);
          const discount = decimalOf(line.priceDiscount);
          return gross !== null && (discount === null || decimalOf(line.netPrice) !== gross - discount);
        },
        (line) => line.netPrice,
      ),
  ),
  pp(
    'PEPPOL-EN16931-R051',
    'BT-5',
    'All currencyID attributes must have the same value as the invoice currency code (BT-5), except for the invoice total VAT amount in accounting currency (BT-111).',
    (i) => violatedIf(foreignCurrencies(i).length > 0, { value: [...new Set(foreignCurrencies(i))].join(', ') }),
  ),
  ublOnly(
    'PEPPOL-EN16931-R053',
    'BT-110',
    'Only one tax total with tax subtotals MUST be provided.',
    ({ taxTotalsWithSubtotals }) =>
      taxTotalsWithSubtotals !== 1 && `${taxTotalsWithSubtotals} tax totals with subtotals`,
  ),
  ublOnly(
    'PEPPOL-EN16931-R054',
    'BT-111',
    'Only one tax total without tax subtotals MUST be provided when tax currency code is provided.',
    ({ taxTotalsWithoutSubtotals }, i) =>
      taxTotalsWithoutSubtotals !== (blank(i.taxCurrency) ? 0 : 1) &&
      `${taxTotalsWithoutSubtotals} tax totals without subtotals`,
  ),
  pp(
    'PEPPOL-EN16931-R055',
    'BT-111',
    'Invoice total VAT amount and Invoice total VAT amount in accounting currency MUST have the same operational sign',
    (i) => {
      const accounting = decimalOf(i.taxTotalAccounting);
      const total = decimalOf(i.taxTotals[0]);
      if (blank(i.taxCurrency) || accounting === null || total === null) return [];
      return violatedIf(!((accounting <= 0n && total <= 0n) || (accounting >= 0n && total >= 0n)), {
        value: i.taxTotalAccounting,
      });
    },
  ),
  pp('PEPPOL-EN16931-R061', 'BT-89', 'Mandate reference MUST be provided for direct debit.', (i) =>
    eachOf(
      i.paymentMeans,
      (_, index) => `payment means ${index + 1}`,
      (means) => ['49', '59'].includes(means.code ?? '') && blank(means.mandate?.id ?? i.directDebit?.mandate),
      (means) => means.code,
    ),
  ),
  ublOnly(
    'PEPPOL-EN16931-R080',
    'BT-11',
    'Only one project reference is allowed on document level',
    ({ documentReferences }, i) =>
      i.creditNote &&
      documentReferences.filter(({ typeCode }) => typeCode === '50').length > 1 &&
      'more than one project reference',
  ),
  ublOnly(
    'PEPPOL-EN16931-R100',
    'BT-128',
    'Only one invoiced object is allowed pr line',
    ({ lineDocumentReferences }) =>
      lineDocumentReferences.some((references) => references.length > 1) && 'a line with several references',
  ),
  ublOnly(
    'PEPPOL-EN16931-R101',
    'BT-128',
    'Element Document reference can only be used for Invoice line object',
    ({ lineDocumentReferences }) =>
      lineDocumentReferences.some((references) => references.length > 0 && !references.includes('130')) &&
      'a line reference that is no invoiced object',
  ),
  pp('PEPPOL-EN16931-R110', 'BT-134', 'Start date of line period MUST be within invoice period.', (i) =>
    eachOf(
      i.lines,
      lineName,
      (line) => !!i.period?.start && !!line.period?.start && line.period.start < i.period.start,
      (line) => line.period?.start ?? null,
    ),
  ),
  pp('PEPPOL-EN16931-R111', 'BT-135', 'End date of line period MUST be within invoice period.', (i) =>
    eachOf(
      i.lines,
      lineName,
      (line) => !!i.period?.end && !!line.period?.end && line.period.end > i.period.end,
      (line) => line.period?.end ?? null,
    ),
  ),
  pp(
    'PEPPOL-EN16931-R120',
    'BT-131',
    'Invoice line net amount MUST equal (Invoiced quantity * (Item net price/item price base quantity) + Sum of invoice line charge amount - sum of invoice line allowance amount',
    (i) =>
      eachOf(
        i.lines,
        lineName,
        (line) => {
          const computed = computedLineNet(line);
          const stated = decimalOf(line.netAmount);
          return computed !== null && stated !== null && !withinSlack(stated, computed);
        },
        (line) => line.netAmount,
      ),
  ),
  pp('PEPPOL-EN16931-R121', 'BT-149', 'Base quantity MUST be a positive number above zero.', (i) =>
    eachOf(
      i.lines,
      lineName,
      (line) => line.baseQuantity !== null && (decimalOf(line.baseQuantity) ?? 0n) <= 0n,
      (line) => line.baseQuantity,
    ),
  ),
  pp('PEPPOL-EN16931-R130', 'BT-150', 'Unit code of price base quantity MUST be same as invoiced quantity.', (i) =>
    eachOf(
      i.lines,
      lineName,
      (line) => line.baseQuantityUnit !== null && line.quantity !== null && line.baseQuantityUnit !== line.unitCode,
      (line) => line.baseQuantityUnit,
    ),
  ),
  pp('PEPPOL-EN16931-P0100', 'BT-3', 'Invoice type code MUST be set according to the profile.', (i) =>
    violatedIf(
      !i.creditNote &&
        PROFILE.exec(i.profile ?? '')?.[1] === '01' &&
        !PROFILE_01_INVOICE_TYPES.has(i.typeCode ?? '') &&
        // CII writes a credit note in the same document, which the credit-note rule below judges.
        !(i.syntax === 'cii' && PROFILE_01_CREDIT_NOTE_TYPES.has(i.typeCode ?? '')),
      { value: i.typeCode },
    ),
  ),
  pp('PEPPOL-EN16931-P0101', 'BT-3', 'Credit note type code MUST be set according to the profile.', (i) =>
    violatedIf(
      i.creditNote &&
        PROFILE.exec(i.profile ?? '')?.[1] === '01' &&
        !PROFILE_01_CREDIT_NOTE_TYPES.has(i.typeCode ?? ''),
      { value: i.typeCode },
    ),
  ),
  pp(
    'PEPPOL-EN16931-P0112',
    'BT-3',
    'Invoice type code 326 or 384 are only allowed when both buyer and seller are German organizations',
    (i) => violatedIf(['326', '384'].includes(i.typeCode ?? '') && !germanOnBothSides(i), { value: i.typeCode }),
  ),
  ...EXEMPTION_CATEGORIES.map(([id, code, category]) =>
    pp(id, 'BT-118', `Tax Category ${category} MUST be used when exemption reason code is ${code}`, (i) =>
      eachOf(
        i.vatBreakdown,
        (_, index) => `VAT breakdown ${index + 1}`,
        (entry) => entry.exemptionCode?.toUpperCase() === code && entry.category !== category,
        (entry) => entry.category,
      ),
    ),
  ),
  ublOnly('PEPPOL-EN16931-F001', 'BT-2', 'A date MUST be formatted YYYY-MM-DD.', ({ dates }) => {
    const wrong = dates.filter((date) => !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)));
    return wrong.length > 0 && wrong.join(', ');
  }),
  peppolCodes(
    'PEPPOL-EN16931-CL001',
    'BT-125',
    'Mime code must be according to subset of IANA code list.',
    ATTACHMENT_MIME_TYPES,
    (i) => i.supportingDocuments.map((entry) => entry.mimeCode),
  ),
  peppolCodes(
    'PEPPOL-EN16931-CL002',
    'BT-98',
    'Reason code MUST be according to subset of UNCL 5189 D.16B.',
    UNTDID_5189_ALLOWANCE_REASONS,
    (i) => reasonCodes(i, false),
  ),
  peppolCodes(
    'PEPPOL-EN16931-CL003',
    'BT-105',
    'Reason code MUST be according to UNCL 7161 D.16B.',
    UNTDID_7161_CHARGE_REASONS,
    (i) => reasonCodes(i, true),
  ),
  peppolCodes(
    'PEPPOL-EN16931-CL006',
    'BT-8',
    'Invoice period description code must be according to UNCL 2005 D.16B.',
    UNTDID_2005_VAT_POINT_DATES,
    (i) => (i.syntax === 'ubl' ? [i.taxPointDateCode] : []),
  ),
  peppolCodes(
    'PEPPOL-EN16931-CL007',
    'BT-5',
    'Currency code must be according to ISO 4217:2005',
    PEPPOL_ISO_4217_CURRENCIES,
    (i) => i.amountCurrencies,
  ),
  peppolCodes(
    'PEPPOL-EN16931-CL008',
    'BT-34',
    'Electronic address identifier scheme must be from the codelist "Electronic Address Identifier Scheme"',
    PEPPOL_EAS_SCHEMES,
    (i) => i.written.endpointSchemes,
  ),
  ...PEPPOL_IDENTIFIER_RULES,
]);
