import { abs, decimalOf, decimalText, sum, taxOf, type Decimal } from '../decimal.ts';
import { eachOf, lineName, violatedIf, type Rule } from '../rule.ts';
import type { SemanticInvoice } from '../semantic-model.ts';
import { isCountryCode } from '../code-lists.ts';

const present = (value: string | null | undefined): value is string => value != null && value !== '';
const missing = (value: string | null | undefined) => !present(value);
const amount = (value: string | null | undefined): Decimal => decimalOf(value) ?? 0n;
const documentEntries = (invoice: SemanticInvoice, charge: boolean) =>
  invoice.allowancesCharges.filter((entry) => entry.charge === charge);
const lineEntries = (invoice: SemanticInvoice, charge: boolean) =>
  invoice.lines.flatMap((line, index) =>
    line.allowancesCharges
      .filter((entry) => entry.charge === charge)
      .map((entry) => ({ ...entry, line: lineName(line, index) })),
  );

/** A stated total that is not what its parts add up to, with the value found and the one expected. */
function disagrees(stated: string | null | undefined, expected: Decimal): ReturnType<typeof violatedIf> {
  return violatedIf(amount(stated) !== expected, {
    value: `${stated ?? 'none'} (the parts make ${decimalText(expected)})`,
  });
}

/**
 * The VAT prefix of an identifier is a country code; Greece uses EL, and Northern Ireland XI for goods,
 * where ISO 3166 says GR and GB.
 */
const hasCountryPrefix = (vatId: string) => {
  const prefix = vatId.slice(0, 2).toUpperCase();
  return prefix === 'EL' || prefix === 'XI' || (prefix === vatId.slice(0, 2) && isCountryCode(prefix));
};

const reasonRule = (
  id: string,
  element: string,
  message: string,
  entries: (i: SemanticInvoice) => { reason: string | null; reasonCode: string | null; line?: string }[],
  kind: string,
): Rule => ({
  id,
  flag: 'fatal',
  element,
  message,
  check: (i) =>
    eachOf(
      entries(i),
      (entry, index) => entry.line ?? `${kind} ${index + 1}`,
      (entry) => missing(entry.reason) && missing(entry.reasonCode),
    ),
});

export const CALCULATION_RULES: Rule[] = [
  {
    id: 'BR-CO-03',
    flag: 'fatal',
    element: 'BT-7',
    message: 'Value added tax point date (BT-7) and Value added tax point date code (BT-8) are mutually exclusive.',
    check: (i) => violatedIf(present(i.taxPointDate) && present(i.taxPointDateCode)),
  },
  {
    id: 'BR-CO-04',
    flag: 'fatal',
    element: 'BT-151',
    message: 'Each Invoice line (BG-25) shall be categorized with an Invoiced item VAT category code (BT-151).',
    plain: 'A line does not say which VAT category applies to it.',
    check: (i) => eachOf(i.lines, lineName, (line) => missing(line.category)),
  },
  {
    id: 'BR-CO-09',
    flag: 'fatal',
    element: 'BT-31',
    message:
      'The Seller VAT identifier (BT-31), the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48) shall have a prefix in accordance with ISO code ISO 3166-1 alpha-2 by which the country of issue may be identified. Nevertheless, Greece may use the prefix ‘EL’.',
    plain: 'A VAT number does not start with a country code (such as DE or FR).',
    check: (i) =>
      [
        { at: 'seller', value: i.seller?.vatId },
        { at: 'seller tax representative', value: i.taxRepresentative?.vatId },
        { at: 'buyer', value: i.buyer?.vatId },
      ]
        .filter(
          (entry): entry is { at: string; value: string } => present(entry.value) && !hasCountryPrefix(entry.value),
        )
        .map((entry) => ({ at: entry.at, value: entry.value })),
  },
  {
    id: 'BR-CO-10',
    flag: 'fatal',
    element: 'BT-106',
    message: 'Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131).',
    plain: 'The lines do not add up to the stated sum of the lines.',
    check: (i) =>
      present(i.totals?.lineTotal)
        ? disagrees(i.totals.lineTotal, sum(i.lines.map((line) => decimalOf(line.netAmount))))
        : [],
  },
  {
    id: 'BR-CO-11',
    flag: 'fatal',
    element: 'BT-107',
    message: 'Sum of allowances on document level (BT-107) = Σ Document level allowance amount (BT-92).',
    check: (i) => {
      const entries = documentEntries(i, false);
      if (!i.totals || (missing(i.totals.allowanceTotal) && entries.length === 0)) return [];
      return disagrees(i.totals.allowanceTotal, sum(entries.map((entry) => decimalOf(entry.amount))));
    },
  },
  {
    id: 'BR-CO-12',
    flag: 'fatal',
    element: 'BT-108',
    message: 'Sum of charges on document level (BT-108) = Σ Document level charge amount (BT-99).',
    check: (i) => {
      const entries = documentEntries(i, true);
      if (!i.totals || (missing(i.totals.chargeTotal) && entries.length === 0)) return [];
      return disagrees(i.totals.chargeTotal, sum(entries.map((entry) => decimalOf(entry.amount))));
    },
  },
  {
    id: 'BR-CO-13',
    flag: 'fatal',
    element: 'BT-109',
    message:
      'Invoice total amount without VAT (BT-109) = Σ Invoice line net amount (BT-131) - Sum of allowances on document level (BT-107) + Sum of charges on document level (BT-108).',
    plain: 'The total without VAT is not the lines minus allowances plus charges.',
    check: (i) =>
      i.totals
        ? disagrees(
            i.totals.withoutVat,
            amount(i.totals.lineTotal) - amount(i.totals.allowanceTotal) + amount(i.totals.chargeTotal),
          )
        : [],
  },
  {
    id: 'BR-CO-14',
    flag: 'fatal',
    element: 'BT-110',
    message: 'Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117).',
    plain: 'The VAT total is not the sum of the VAT per category.',
    check: (i) =>
      i.taxTotals.length === 1
        ? disagrees(i.taxTotals[0], sum(i.vatBreakdown.map((entry) => decimalOf(entry.tax))))
        : [],
  },
  {
    id: 'BR-CO-15',
    flag: 'fatal',
    element: 'BT-112',
    message:
      'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
    plain: 'The total with VAT is not the total without VAT plus the VAT.',
    check: (i) => {
      if (!i.totals) return [];
      // Two VAT totals in the invoice currency: which one the total with VAT includes cannot be told.
      if (i.taxTotals.length > 1) return [{ value: `${i.taxTotals.length} VAT totals in the invoice currency` }];
      return disagrees(i.totals.withVat, amount(i.totals.withoutVat) + amount(i.taxTotals[0]));
    },
  },
  {
    id: 'BR-CO-16',
    flag: 'fatal',
    element: 'BT-115',
    message:
      'Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) -Paid amount (BT-113) +Rounding amount (BT-114).',
    plain: 'The amount to pay is not the total with VAT minus what was paid in advance.',
    check: (i) =>
      i.totals
        ? disagrees(i.totals.payable, amount(i.totals.withVat) - amount(i.totals.prepaid) + amount(i.totals.rounding))
        : [],
  },
  {
    id: 'BR-CO-17',
    flag: 'fatal',
    element: 'BT-117',
    message:
      'VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) x (VAT category rate (BT-119) / 100), rounded to two decimals.',
    plain: 'The VAT of a category is not its taxable amount times its rate.',
    check: (i) =>
      eachOf(
        i.vatBreakdown,
        (entry, index) => `VAT breakdown ${entry.category ?? index + 1} ${entry.rate ?? ''}`.trim(),
        (entry) => !taxAgreesWithRate(entry.taxable, entry.rate, entry.tax, i.syntax),
        (entry) => entry.tax,
      ),
  },
  {
    id: 'BR-CO-18',
    flag: 'fatal',
    element: 'BG-23',
    message: 'An Invoice shall at least have one VAT breakdown group (BG-23).',
    plain: 'The invoice has no VAT breakdown.',
    check: (i) => violatedIf(i.vatBreakdown.length === 0),
  },
  {
    id: 'BR-CO-19',
    flag: 'fatal',
    element: 'BG-14',
    message:
      'If Invoicing period (BG-14) is used, the Invoicing period start date (BT-73) or the Invoicing period end date (BT-74) shall be filled, or both.',
    check: (i) => violatedIf(!!i.period && missing(i.period.start) && missing(i.period.end)),
  },
  {
    id: 'BR-CO-20',
    flag: 'fatal',
    element: 'BG-26',
    message:
      'If Invoice line period (BG-26) is used, the Invoice line period start date (BT-134) or the Invoice line period end date (BT-135) shall be filled, or both.',
    check: (i) =>
      eachOf(i.lines, lineName, (line) => !!line.period && missing(line.period.start) && missing(line.period.end)),
  },
  reasonRule(
    'BR-CO-21',
    'BT-97',
    'Each Document level allowance (BG-20) shall contain a Document level allowance reason (BT-97) or a Document level allowance reason code (BT-98), or both.',
    (i) => documentEntries(i, false),
    'allowance',
  ),
  reasonRule(
    'BR-CO-22',
    'BT-104',
    'Each Document level charge (BG-21) shall contain a Document level charge reason (BT-104) or a Document level charge reason code (BT-105), or both.',
    (i) => documentEntries(i, true),
    'charge',
  ),
  reasonRule(
    'BR-CO-23',
    'BT-139',
    'Each Invoice line allowance (BG-27) shall contain an Invoice line allowance reason (BT-139) or an Invoice line allowance reason code (BT-140), or both.',
    (i) => lineEntries(i, false),
    'line allowance',
  ),
  reasonRule(
    'BR-CO-24',
    'BT-144',
    'Each Invoice line charge (BG-28) shall contain an Invoice line charge reason (BT-144) or an Invoice line charge reason code (BT-145), or both.',
    (i) => lineEntries(i, true),
    'line charge',
  ),
  {
    id: 'BR-CO-25',
    flag: 'fatal',
    element: 'BT-9',
    message:
      'In case the Amount due for payment (BT-115) is positive, either the Payment due date (BT-9) or the Payment terms (BT-20) shall be present.',
    plain: 'Money is due but the invoice says neither when nor on what terms it is to be paid.',
    // A credit note's amount is owed to the buyer, so it names no due date for the buyer to meet.
    check: (i) =>
      violatedIf(!i.creditNote && amount(i.totals?.payable) > 0n && missing(i.dueDate) && missing(i.paymentTerms)),
  },
  {
    id: 'BR-CO-26',
    flag: 'fatal',
    element: 'BT-29',
    message:
      'In order for the buyer to automatically identify a supplier, the Seller identifier (BT-29), the Seller legal registration identifier (BT-30) and/or the Seller VAT identifier (BT-31) shall be present.',
    plain: 'Nothing identifies the seller: no seller id, no registration number, no VAT number.',
    check: (i) =>
      violatedIf(
        !!i.seller && i.seller.identifiers.length === 0 && missing(i.seller.legalId) && missing(i.seller.vatId),
      ),
  },
];

/**
 * The tax of a category against its taxable amount and rate, rounded half up to cents. The two syntax
 * bindings differ here: UBL asks for the exact amount, CII allows up to one currency unit either way (a tax
 * rounded per line may add up to more than the tax of the sum), and each is held to its own.
 */
export function taxAgreesWithRate(
  taxableText: string | null,
  rateText: string | null,
  taxText: string | null,
  syntax: SemanticInvoice['syntax'],
): boolean {
  const tax = amount(taxText);
  const rate = decimalOf(rateText);
  if (rate === null) return tax === 0n || abs(tax) < ONE_UNIT / 2n;
  if (rate === 0n) return tax === 0n;
  const expected = taxOf(abs(amount(taxableText)), rate);
  return abs(abs(tax) - expected) <= (syntax === 'cii' ? ONE_UNIT : 0n);
}

const ONE_UNIT = decimalOf('1')!;
