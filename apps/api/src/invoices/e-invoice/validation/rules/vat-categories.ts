import { decimalOf, sum, type Decimal } from '../decimal.ts';
import { eachOf, lineName, violatedIf, type Rule, type Violation } from '../rule.ts';
import type { SemanticInvoice, SemanticVatBreakdown } from '../semantic-model.ts';
import { taxAgreesWithRate } from './calculations.ts';

/**
 * The VAT category rules: the same ten questions asked of each category (UNTDID 5305), with the answers the
 * standard gives for it. The rule ids are the standard's: BR-S-*, BR-Z-*, BR-E-*, BR-AE-*, BR-IC-* (K),
 * BR-G-*, BR-O-*, BR-AF-* (L, IGIC) and BR-AG-* (M, IPSI).
 */
interface Category {
  code: string;
  prefix: string;
  /** As the standard names it in its messages. */
  name: string;
  /** S, L and M have a breakdown per rate; the others exactly one breakdown. */
  perRate: boolean;
  /** Which identifiers a line, allowance or charge of this category requires. */
  identifiers: 'seller' | 'seller-vat' | 'seller-and-buyer' | 'seller-and-buyer-vat' | 'none';
  rate: 'positive' | 'zero' | 'not-negative' | 'absent';
  /** The tax of the breakdown: computed from the rate, or zero. */
  tax: 'from-rate' | 'zero';
  exemption: 'forbidden' | 'required';
}

const CATEGORIES: Category[] = [
  {
    code: 'S',
    prefix: 'BR-S',
    name: 'Standard rated',
    perRate: true,
    identifiers: 'seller',
    rate: 'positive',
    tax: 'from-rate',
    exemption: 'forbidden',
  },
  {
    code: 'Z',
    prefix: 'BR-Z',
    name: 'Zero rated',
    perRate: false,
    identifiers: 'seller',
    rate: 'zero',
    tax: 'zero',
    exemption: 'forbidden',
  },
  {
    code: 'E',
    prefix: 'BR-E',
    name: 'Exempt from VAT',
    perRate: false,
    identifiers: 'seller',
    rate: 'zero',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'AE',
    prefix: 'BR-AE',
    name: 'Reverse charge',
    perRate: false,
    identifiers: 'seller-and-buyer',
    rate: 'zero',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'K',
    prefix: 'BR-IC',
    name: 'Intra-community supply',
    perRate: false,
    identifiers: 'seller-and-buyer-vat',
    rate: 'zero',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'G',
    prefix: 'BR-G',
    name: 'Export outside the EU',
    perRate: false,
    identifiers: 'seller-vat',
    rate: 'zero',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'O',
    prefix: 'BR-O',
    name: 'Not subject to VAT',
    perRate: false,
    identifiers: 'none',
    rate: 'absent',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'L',
    prefix: 'BR-AF',
    name: 'IGIC',
    perRate: true,
    identifiers: 'seller',
    rate: 'not-negative',
    tax: 'from-rate',
    exemption: 'forbidden',
  },
  {
    code: 'M',
    prefix: 'BR-AG',
    name: 'IPSI',
    perRate: true,
    identifiers: 'seller',
    rate: 'not-negative',
    tax: 'from-rate',
    exemption: 'forbidden',
  },
];

const present = (value: string | null | undefined) => value != null && value !== '';

function identified(invoice: SemanticInvoice, rule: Category['identifiers']): boolean {
  const sellerVat = present(invoice.seller?.vatId) || present(invoice.taxRepresentative?.vatId);
  const seller = sellerVat || present(invoice.seller?.taxRegistrationId);
  switch (rule) {
    case 'seller':
      return seller;
    case 'seller-vat':
      return sellerVat;
    case 'seller-and-buyer':
      return seller && (present(invoice.buyer?.vatId) || present(invoice.buyer?.legalId));
    case 'seller-and-buyer-vat':
      return sellerVat && present(invoice.buyer?.vatId);
    case 'none':
      return (
        !present(invoice.seller?.vatId) && !present(invoice.taxRepresentative?.vatId) && !present(invoice.buyer?.vatId)
      );
  }
}

function rateAllowed(rateText: string | null, rule: Category['rate']): boolean {
  if (rule === 'absent') return !present(rateText);
  const rate = decimalOf(rateText);
  if (rate === null) return false;
  if (rule === 'positive') return rate > 0n;
  if (rule === 'zero') return rate === 0n;
  return rate >= 0n;
}

/** The line, allowance and charge amounts of a category (and rate): what its breakdown's taxable amount is. */
function taxableOf(invoice: SemanticInvoice, category: string, rate: Decimal | null | undefined): Decimal {
  const matches = (entry: { category: string | null; rate: string | null }) =>
    entry.category === category && (rate === undefined || decimalOf(entry.rate) === rate);
  const lines = invoice.lines.filter(matches).map((line) => decimalOf(line.netAmount));
  const charges = invoice.allowancesCharges
    .filter((entry) => entry.charge && matches(entry))
    .map((entry) => decimalOf(entry.amount));
  const allowances = invoice.allowancesCharges
    .filter((entry) => !entry.charge && matches(entry))
    .map((entry) => decimalOf(entry.amount));
  return sum(lines) + sum(charges) - sum(allowances);
}

const breakdownName = (entry: SemanticVatBreakdown) =>
  `VAT breakdown ${entry.category ?? ''} ${entry.rate ?? ''}`.trim();

function rulesOf(c: Category): Rule[] {
  const ofCategory = (entry: { category: string | null }) => entry.category === c.code;
  const lines = (i: SemanticInvoice) => i.lines.filter(ofCategory);
  const allowances = (i: SemanticInvoice) => i.allowancesCharges.filter((entry) => !entry.charge && ofCategory(entry));
  const charges = (i: SemanticInvoice) => i.allowancesCharges.filter((entry) => entry.charge && ofCategory(entry));
  const breakdowns = (i: SemanticInvoice) => i.vatBreakdown.filter(ofCategory);
  const named = `"${c.name}"`;
  const ids = {
    seller:
      'the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63)',
    'seller-vat': 'the Seller VAT Identifier (BT-31) or the Seller tax representative VAT identifier (BT-63)',
    'seller-and-buyer':
      'the Seller VAT Identifier (BT-31), the Seller Tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48) and/or the Buyer legal registration identifier (BT-47)',
    'seller-and-buyer-vat':
      'the Seller VAT Identifier (BT-31) or the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48)',
    none: 'neither the Seller VAT identifier (BT-31), nor the Seller tax representative VAT identifier (BT-63), nor the Buyer VAT identifier (BT-48)',
  }[c.identifiers];
  const rateWords = {
    positive: 'shall be greater than zero',
    zero: 'shall be 0 (zero)',
    'not-negative': 'shall be 0 (zero) or greater than zero',
    absent: 'shall not be present',
  }[c.rate];
  const identifiersRule = (n: string, what: string, entries: (i: SemanticInvoice) => unknown[]): Rule => ({
    id: `${c.prefix}-${n}`,
    flag: 'fatal',
    element: 'BT-31',
    message: `An Invoice that contains ${what} where the VAT category code is ${named} shall contain ${ids}.`,
    ...(c.identifiers === 'none'
      ? {}
      : { plain: `The invoice charges ${c.name} VAT but does not give the VAT number the category needs.` }),
    check: (i) => violatedIf(entries(i).length > 0 && !identified(i, c.identifiers)),
  });
  const rateRule = (
    n: string,
    what: string,
    element: string,
    entries: (i: SemanticInvoice) => { rate: string | null }[],
    at: (index: number) => string,
  ): Rule => ({
    id: `${c.prefix}-${n}`,
    flag: 'fatal',
    element,
    message: `In ${what} where the VAT category code is ${named} the VAT rate ${rateWords}.`,
    check: (i) =>
      eachOf(
        entries(i),
        (_, index) => at(index),
        (entry) => !rateAllowed(entry.rate, c.rate),
        (entry) => entry.rate,
      ),
  });

  const rules: Rule[] = [
    {
      id: `${c.prefix}-01`,
      flag: 'fatal',
      element: 'BG-23',
      message: `An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code is ${named} shall contain ${c.perRate ? 'at least one' : 'exactly one'} VAT breakdown (BG-23) with the VAT category code (BT-118) equal to ${named}.`,
      plain: `Something is charged as ${c.name} but the VAT breakdown has ${c.perRate ? 'no' : 'not exactly one'} entry for it.`,
      check: (i) => {
        const used = lines(i).length + allowances(i).length + charges(i).length > 0;
        const count = breakdowns(i).length;
        return violatedIf(used && (c.perRate ? count === 0 : count !== 1), { value: String(count) });
      },
    },
    identifiersRule('02', 'an Invoice line (BG-25)', lines),
    identifiersRule('03', 'a Document level allowance (BG-20)', allowances),
    identifiersRule('04', 'a Document level charge (BG-21)', charges),
    rateRule('05', 'an Invoice line (BG-25)', 'BT-152', lines, (index) => `line ${index + 1}`),
    rateRule('06', 'a Document level allowance (BG-20)', 'BT-96', allowances, (index) => `allowance ${index + 1}`),
    rateRule('07', 'a Document level charge (BG-21)', 'BT-103', charges, (index) => `charge ${index + 1}`),
    {
      id: `${c.prefix}-08`,
      flag: 'fatal',
      element: 'BT-116',
      message: `In a VAT breakdown (BG-23) where the VAT category code (BT-118) is ${named} the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes are ${named}${c.perRate ? ' and the VAT rates equal the VAT category rate (BT-119)' : ''}.`,
      plain: `The taxable amount shown for ${c.name} VAT is not what the lines of that category add up to.`,
      check: (i) =>
        eachOf(
          breakdowns(i),
          breakdownName,
          (entry) =>
            (decimalOf(entry.taxable) ?? 0n) !== taxableOf(i, c.code, c.perRate ? decimalOf(entry.rate) : undefined),
          (entry) => entry.taxable,
        ),
    },
    {
      id: `${c.prefix}-09`,
      flag: 'fatal',
      element: 'BT-117',
      message:
        c.tax === 'zero'
          ? `The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where the VAT category code (BT-118) is ${named} shall be 0 (zero).`
          : `The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where VAT category code (BT-118) is ${named} shall equal the VAT category taxable amount (BT-116) multiplied by the VAT category rate (BT-119).`,
      check: (i) =>
        eachOf(
          breakdowns(i),
          breakdownName,
          (entry) =>
            c.tax === 'zero'
              ? (decimalOf(entry.tax) ?? 0n) !== 0n
              : !taxAgreesWithRate(entry.taxable, entry.rate, entry.tax, i.syntax),
          (entry) => entry.tax,
        ),
    },
    {
      id: `${c.prefix}-10`,
      flag: 'fatal',
      element: 'BT-120',
      message:
        c.exemption === 'forbidden'
          ? `A VAT breakdown (BG-23) with VAT Category code (BT-118) ${named} shall not have a VAT exemption reason code (BT-121) or VAT exemption reason text (BT-120).`
          : `A VAT breakdown (BG-23) with the VAT Category code (BT-118) ${named} shall have a VAT exemption reason code (BT-121) or a VAT exemption reason text (BT-120).`,
      ...(c.exemption === 'required' ? { plain: `The invoice charges no VAT (${c.name}) but does not say why.` } : {}),
      check: (i) =>
        eachOf(breakdowns(i), breakdownName, (entry) => {
          const stated = present(entry.exemptionReason) || present(entry.exemptionCode);
          return c.exemption === 'forbidden' ? stated : !stated;
        }),
    },
  ];
  if (c.code === 'K') rules.push(...intraCommunityRules(breakdowns));
  if (c.code === 'O') rules.push(...notSubjectRules());
  return rules;
}

function intraCommunityRules(breakdowns: (i: SemanticInvoice) => SemanticVatBreakdown[]): Rule[] {
  return [
    {
      id: 'BR-IC-11',
      flag: 'fatal',
      element: 'BT-72',
      message:
        'In an Invoice with a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Intra-community supply" the Actual delivery date (BT-72) or the Invoicing period (BG-14) shall not be blank.',
      check: (i) =>
        violatedIf(
          breakdowns(i).length > 0 &&
            !present(i.delivery?.date) &&
            !present(i.period?.start) &&
            !present(i.period?.end),
        ),
    },
    {
      id: 'BR-IC-12',
      flag: 'fatal',
      element: 'BT-80',
      message:
        'In an Invoice with a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Intra-community supply" the Deliver to country code (BT-80) shall not be blank.',
      check: (i) => violatedIf(breakdowns(i).length > 0 && !present(i.delivery?.address?.country)),
    },
  ];
}

function notSubjectRules(): Rule[] {
  const hasNotSubject = (i: SemanticInvoice) => i.vatBreakdown.some((entry) => entry.category === 'O');
  const other = (entry: { category: string | null }) => entry.category !== 'O';
  const inOther =
    (entries: (i: SemanticInvoice) => { category: string | null }[], at: string) =>
    (i: SemanticInvoice): Violation[] =>
      hasNotSubject(i)
        ? eachOf(
            entries(i),
            (_, index) => `${at} ${index + 1}`,
            other,
            (entry) => entry.category,
          )
        : [];
  return [
    {
      id: 'BR-O-11',
      flag: 'fatal',
      element: 'BG-23',
      message:
        'An Invoice that contains a VAT breakdown group (BG-23) with a VAT category code (BT-118) "Not subject to VAT" shall not contain other VAT breakdown groups (BG-23).',
      check: (i) => (hasNotSubject(i) ? eachOf(i.vatBreakdown, breakdownName, other) : []),
    },
    {
      id: 'BR-O-12',
      flag: 'fatal',
      element: 'BT-151',
      message:
        'An Invoice that contains a VAT breakdown group (BG-23) with a VAT category code (BT-118) "Not subject to VAT" shall not contain an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is not "Not subject to VAT".',
      check: (i) => (hasNotSubject(i) ? eachOf(i.lines, lineName, other, (line) => line.category) : []),
    },
    {
      id: 'BR-O-13',
      flag: 'fatal',
      element: 'BT-95',
      message:
        'An Invoice that contains a VAT breakdown group (BG-23) with a VAT category code (BT-118) "Not subject to VAT" shall not contain Document level allowances (BG-20) where Document level allowance VAT category code (BT-95) is not "Not subject to VAT".',
      check: inOther((i) => i.allowancesCharges.filter((entry) => !entry.charge), 'allowance'),
    },
    {
      id: 'BR-O-14',
      flag: 'fatal',
      element: 'BT-102',
      message:
        'An Invoice that contains a VAT breakdown group (BG-23) with a VAT category code (BT-118) "Not subject to VAT" shall not contain Document level charges (BG-21) where Document level charge VAT category code (BT-102) is not "Not subject to VAT".',
      check: inOther((i) => i.allowancesCharges.filter((entry) => entry.charge), 'charge'),
    },
  ];
}

export const VAT_CATEGORY_RULES: Rule[] = CATEGORIES.flatMap(rulesOf);
