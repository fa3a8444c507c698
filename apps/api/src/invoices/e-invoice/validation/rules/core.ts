import { decimalOf } from '../decimal.ts';
import { eachOf, lineName, violatedIf, type Rule } from '../rule.ts';
import type { SemanticInvoice } from '../semantic-model.ts';

const present = (value: string | null | undefined) => value != null && value !== '';
const missing = (value: string | null | undefined) => !present(value);
const negative = (value: string | null) => (decimalOf(value) ?? 0n) < 0n;

const documentAllowances = (invoice: SemanticInvoice) => invoice.allowancesCharges.filter((entry) => !entry.charge);
const documentCharges = (invoice: SemanticInvoice) => invoice.allowancesCharges.filter((entry) => entry.charge);
const nth = (kind: string) => (_: unknown, index: number) => `${kind} ${index + 1}`;
const lineAllowanceCharges = (invoice: SemanticInvoice, charge: boolean) =>
  invoice.lines.flatMap((line, index) =>
    line.allowancesCharges
      .filter((entry) => entry.charge === charge)
      .map((entry) => ({ ...entry, line: lineName(line, index) })),
  );

/** A term every invoice carries (BR-01 … BR-16). */
const required = (
  id: string,
  element: string,
  message: string,
  value: (invoice: SemanticInvoice) => unknown,
  plain?: string,
): Rule => ({
  id,
  flag: 'fatal',
  element,
  message,
  ...(plain ? { plain } : {}),
  check: (invoice) => violatedIf(value(invoice) == null || value(invoice) === ''),
});

/** Dates compare as ISO text; an end before its start is the fault. */
const endsBeforeStart = (period: { start: string | null; end: string | null } | undefined) =>
  !!period?.start && !!period.end && period.end < period.start;

export const CORE_RULES: Rule[] = [
  required(
    'BR-01',
    'BT-24',
    'An Invoice shall have a Specification identifier (BT-24).',
    (i) => i.specification,
    'The invoice does not say which e-invoicing standard it follows.',
  ),
  required(
    'BR-02',
    'BT-1',
    'An Invoice shall have an Invoice number (BT-1).',
    (i) => i.number,
    'The invoice has no invoice number.',
  ),
  required(
    'BR-03',
    'BT-2',
    'An Invoice shall have an Invoice issue date (BT-2).',
    (i) => i.issueDate,
    'The invoice has no issue date.',
  ),
  required('BR-04', 'BT-3', 'An Invoice shall have an Invoice type code (BT-3).', (i) => i.typeCode),
  required(
    'BR-05',
    'BT-5',
    'An Invoice shall have an Invoice currency code (BT-5).',
    (i) => i.currency,
    'The invoice does not say in which currency it is.',
  ),
  required(
    'BR-06',
    'BT-27',
    'An Invoice shall contain the Seller name (BT-27).',
    (i) => i.seller?.name,
    "The seller's name is missing.",
  ),
  required(
    'BR-07',
    'BT-44',
    'An Invoice shall contain the Buyer name (BT-44).',
    (i) => i.buyer?.name,
    "The buyer's name is missing.",
  ),
  required(
    'BR-08',
    'BG-5',
    'An Invoice shall contain the Seller postal address (BG-5).',
    (i) => i.seller?.address,
    "The seller's postal address is missing.",
  ),
  {
    id: 'BR-09',
    flag: 'fatal',
    element: 'BT-40',
    message: 'The Seller postal address (BG-5) shall contain a Seller country code (BT-40).',
    check: (i) => violatedIf(!!i.seller?.address && missing(i.seller.address.country)),
  },
  required(
    'BR-10',
    'BG-8',
    'An Invoice shall contain the Buyer postal address (BG-8).',
    (i) => i.buyer?.address,
    "The buyer's postal address is missing.",
  ),
  {
    id: 'BR-11',
    flag: 'fatal',
    element: 'BT-55',
    message: 'The Buyer postal address shall contain a Buyer country code (BT-55).',
    check: (i) => violatedIf(!!i.buyer?.address && missing(i.buyer.address.country)),
  },
  required(
    'BR-12',
    'BT-106',
    'An Invoice shall have the Sum of Invoice line net amount (BT-106).',
    (i) => i.totals?.lineTotal,
  ),
  required(
    'BR-13',
    'BT-109',
    'An Invoice shall have the Invoice total amount without VAT (BT-109).',
    (i) => i.totals?.withoutVat,
  ),
  required(
    'BR-14',
    'BT-112',
    'An Invoice shall have the Invoice total amount with VAT (BT-112).',
    (i) => i.totals?.withVat,
  ),
  required(
    'BR-15',
    'BT-115',
    'An Invoice shall have the Amount due for payment (BT-115).',
    (i) => i.totals?.payable,
    'The invoice does not state the amount to pay.',
  ),
  {
    id: 'BR-16',
    flag: 'fatal',
    element: 'BG-25',
    message: 'An Invoice shall have at least one Invoice line (BG-25).',
    plain: 'The invoice has no lines: nothing says what is being charged for.',
    check: (i) => violatedIf(i.lines.length === 0),
  },
  {
    id: 'BR-17',
    flag: 'fatal',
    element: 'BT-59',
    message:
      'The Payee name (BT-59) shall be provided in the Invoice, if the Payee (BG-10) is different from the Seller (BG-4).',
    check: (i) => violatedIf(!!i.payee && missing(i.payee.name)),
  },
  {
    id: 'BR-18',
    flag: 'fatal',
    element: 'BT-62',
    message:
      'The Seller tax representative name (BT-62) shall be provided in the Invoice, if the Seller (BG-4) has a Seller tax representative party (BG-11).',
    check: (i) => violatedIf(!!i.taxRepresentative && missing(i.taxRepresentative.name)),
  },
  {
    id: 'BR-19',
    flag: 'fatal',
    element: 'BG-12',
    message:
      'The Seller tax representative postal address (BG-12) shall be provided in the Invoice, if the Seller (BG-4) has a Seller tax representative party (BG-11).',
    check: (i) => violatedIf(!!i.taxRepresentative && !i.taxRepresentative.address),
  },
  {
    id: 'BR-20',
    flag: 'fatal',
    element: 'BT-69',
    message:
      'The Seller tax representative postal address (BG-12) shall contain a Tax representative country code (BT-69), if the Seller (BG-4) has a Seller tax representative party (BG-11).',
    check: (i) => violatedIf(!!i.taxRepresentative?.address && missing(i.taxRepresentative.address.country)),
  },
  {
    id: 'BR-21',
    flag: 'fatal',
    element: 'BT-126',
    message: 'Each Invoice line (BG-25) shall have an Invoice line identifier (BT-126).',
    check: (i) => eachOf(i.lines, lineName, (line) => missing(line.id)),
  },
  {
    id: 'BR-22',
    flag: 'fatal',
    element: 'BT-129',
    message: 'Each Invoice line (BG-25) shall have an Invoiced quantity (BT-129).',
    check: (i) => eachOf(i.lines, lineName, (line) => missing(line.quantity)),
  },
  {
    id: 'BR-23',
    flag: 'fatal',
    element: 'BT-130',
    message: 'An Invoice line (BG-25) shall have an Invoiced quantity unit of measure code (BT-130).',
    check: (i) => eachOf(i.lines, lineName, (line) => missing(line.unitCode)),
  },
  {
    id: 'BR-24',
    flag: 'fatal',
    element: 'BT-131',
    message: 'Each Invoice line (BG-25) shall have an Invoice line net amount (BT-131).',
    check: (i) => eachOf(i.lines, lineName, (line) => missing(line.netAmount)),
  },
  {
    id: 'BR-25',
    flag: 'fatal',
    element: 'BT-153',
    message: 'Each Invoice line (BG-25) shall contain the Item name (BT-153).',
    check: (i) => eachOf(i.lines, lineName, (line) => missing(line.itemName)),
  },
  {
    id: 'BR-26',
    flag: 'fatal',
    element: 'BT-146',
    message: 'Each Invoice line (BG-25) shall contain the Item net price (BT-146).',
    check: (i) => eachOf(i.lines, lineName, (line) => missing(line.netPrice)),
  },
  {
    id: 'BR-27',
    flag: 'fatal',
    element: 'BT-146',
    message: 'The Item net price (BT-146) shall NOT be negative.',
    plain: 'A line has a negative price; a reduction belongs in an allowance, or the whole document is a credit note.',
    check: (i) =>
      eachOf(
        i.lines,
        lineName,
        (line) => negative(line.netPrice),
        (line) => line.netPrice,
      ),
  },
  {
    id: 'BR-28',
    flag: 'fatal',
    element: 'BT-148',
    message: 'The Item gross price (BT-148) shall NOT be negative.',
    check: (i) =>
      eachOf(
        i.lines,
        lineName,
        (line) => negative(line.grossPrice),
        (line) => line.grossPrice,
      ),
  },
  {
    id: 'BR-29',
    flag: 'fatal',
    element: 'BT-74',
    message:
      'If both Invoicing period start date (BT-73) and Invoicing period end date (BT-74) are given then the Invoicing period end date (BT-74) shall be later or equal to the Invoicing period start date (BT-73).',
    check: (i) => violatedIf(endsBeforeStart(i.period), { value: i.period?.end ?? null }),
  },
  {
    id: 'BR-30',
    flag: 'fatal',
    element: 'BT-135',
    message:
      'If both Invoice line period start date (BT-134) and Invoice line period end date (BT-135) are given then the Invoice line period end date (BT-135) shall be later or equal to the Invoice line period start date (BT-134).',
    check: (i) =>
      eachOf(
        i.lines,
        lineName,
        (line) => endsBeforeStart(line.period),
        (line) => line.period?.end ?? null,
      ),
  },
  {
    id: 'BR-31',
    flag: 'fatal',
    element: 'BT-92',
    message: 'Each Document level allowance (BG-20) shall have a Document level allowance amount (BT-92).',
    check: (i) => eachOf(documentAllowances(i), nth('allowance'), (entry) => missing(entry.amount)),
  },
  {
    id: 'BR-32',
    flag: 'fatal',
    element: 'BT-95',
    message: 'Each Document level allowance (BG-20) shall have a Document level allowance VAT category code (BT-95).',
    check: (i) => eachOf(documentAllowances(i), nth('allowance'), (entry) => missing(entry.category)),
  },
  {
    id: 'BR-33',
    flag: 'fatal',
    element: 'BT-97',
    message:
      'Each Document level allowance (BG-20) shall have a Document level allowance reason (BT-97) or a Document level allowance reason code (BT-98).',
    check: (i) =>
      eachOf(documentAllowances(i), nth('allowance'), (entry) => missing(entry.reason) && missing(entry.reasonCode)),
  },
  {
    id: 'BR-36',
    flag: 'fatal',
    element: 'BT-99',
    message: 'Each Document level charge (BG-21) shall have a Document level charge amount (BT-99).',
    check: (i) => eachOf(documentCharges(i), nth('charge'), (entry) => missing(entry.amount)),
  },
  {
    id: 'BR-37',
    flag: 'fatal',
    element: 'BT-102',
    message: 'Each Document level charge (BG-21) shall have a Document level charge VAT category code (BT-102).',
    check: (i) => eachOf(documentCharges(i), nth('charge'), (entry) => missing(entry.category)),
  },
  {
    id: 'BR-38',
    flag: 'fatal',
    element: 'BT-104',
    message:
      'Each Document level charge (BG-21) shall have a Document level charge reason (BT-104) or a Document level charge reason code (BT-105).',
    check: (i) =>
      eachOf(documentCharges(i), nth('charge'), (entry) => missing(entry.reason) && missing(entry.reasonCode)),
  },
  {
    id: 'BR-41',
    flag: 'fatal',
    element: 'BT-136',
    message: 'Each Invoice line allowance (BG-27) shall have an Invoice line allowance amount (BT-136).',
    check: (i) =>
      eachOf(
        lineAllowanceCharges(i, false),
        (entry) => entry.line,
        (entry) => missing(entry.amount),
      ),
  },
  {
    id: 'BR-42',
    flag: 'fatal',
    element: 'BT-139',
    message:
      'Each Invoice line allowance (BG-27) shall have an Invoice line allowance reason (BT-139) or an Invoice line allowance reason code (BT-140).',
    check: (i) =>
      eachOf(
        lineAllowanceCharges(i, false),
        (entry) => entry.line,
        (entry) => missing(entry.reason) && missing(entry.reasonCode),
      ),
  },
  {
    id: 'BR-43',
    flag: 'fatal',
    element: 'BT-141',
    message: 'Each Invoice line charge (BG-28) shall have an Invoice line charge amount (BT-141).',
    check: (i) =>
      eachOf(
        lineAllowanceCharges(i, true),
        (entry) => entry.line,
        (entry) => missing(entry.amount),
      ),
  },
  {
    id: 'BR-44',
    flag: 'fatal',
    element: 'BT-144',
    message:
      'Each Invoice line charge (BG-28) shall have an Invoice line charge reason (BT-144) or an Invoice line charge reason code (BT-145).',
    check: (i) =>
      eachOf(
        lineAllowanceCharges(i, true),
        (entry) => entry.line,
        (entry) => missing(entry.reason) && missing(entry.reasonCode),
      ),
  },
  {
    id: 'BR-45',
    flag: 'fatal',
    element: 'BT-116',
    message: 'Each VAT breakdown (BG-23) shall have a VAT category taxable amount (BT-116).',
    check: (i) => eachOf(i.vatBreakdown, nth('VAT breakdown'), (entry) => missing(entry.taxable)),
  },
  {
    id: 'BR-46',
    flag: 'fatal',
    element: 'BT-117',
    message: 'Each VAT breakdown (BG-23) shall have a VAT category tax amount (BT-117).',
    check: (i) => eachOf(i.vatBreakdown, nth('VAT breakdown'), (entry) => missing(entry.tax)),
  },
  {
    id: 'BR-47',
    flag: 'fatal',
    element: 'BT-118',
    message: 'Each VAT breakdown (BG-23) shall be defined through a VAT category code (BT-118).',
    check: (i) => eachOf(i.vatBreakdown, nth('VAT breakdown'), (entry) => missing(entry.category)),
  },
  {
    id: 'BR-48',
    flag: 'fatal',
    element: 'BT-119',
    message:
      'Each VAT breakdown (BG-23) shall have a VAT category rate (BT-119), except if the Invoice is not subject to VAT.',
    check: (i) =>
      eachOf(i.vatBreakdown, nth('VAT breakdown'), (entry) => missing(entry.rate) && entry.category !== 'O'),
  },
  {
    id: 'BR-49',
    flag: 'fatal',
    element: 'BT-81',
    message: 'A Payment instruction (BG-16) shall specify the Payment means type code (BT-81).',
    check: (i) => eachOf(i.paymentMeans, nth('payment means'), (entry) => missing(entry.code)),
  },
  {
    id: 'BR-50',
    flag: 'fatal',
    element: 'BT-84',
    message:
      'A Payment account identifier (BT-84) shall be present if Credit transfer (BG-17) information is provided in the Invoice.',
    plain: 'A bank transfer is asked for but no account to pay into is given.',
    check: (i) =>
      eachOf(
        i.paymentMeans.flatMap((means) => means.creditTransfers),
        nth('credit transfer'),
        (entry) => missing(entry.account),
      ),
  },
  {
    id: 'BR-51',
    flag: 'warning',
    element: 'BT-87',
    message:
      'In accordance with card payments security standards an invoice should never include a full card primary account number (BT-87). At the moment PCI Security Standards Council has defined that the first 6 digits and last 4 digits are the maximum number of digits to be shown.',
    check: (i) =>
      eachOf(i.paymentMeans, nth('payment means'), (entry) => (entry.cardNumber?.replace(/\D/g, '').length ?? 0) > 10),
  },
  {
    id: 'BR-52',
    flag: 'fatal',
    element: 'BT-122',
    message: 'Each Additional supporting document (BG-24) shall contain a Supporting document reference (BT-122).',
    check: (i) => eachOf(i.supportingDocuments, nth('supporting document'), (entry) => missing(entry.reference)),
  },
  {
    id: 'BR-53',
    flag: 'fatal',
    element: 'BT-111',
    message:
      'If the VAT accounting currency code (BT-6) is present, then the Invoice total VAT amount in accounting currency (BT-111) shall be provided.',
    check: (i) => violatedIf(present(i.taxCurrency) && i.taxCurrency !== i.currency && missing(i.taxTotalAccounting)),
  },
  {
    id: 'BR-54',
    flag: 'fatal',
    element: 'BG-32',
    message:
      'Each Item attribute (BG-32) shall contain an Item attribute name (BT-160) and an Item attribute value (BT-161).',
    check: (i) =>
      i.lines.flatMap((line, index) =>
        eachOf(
          line.attributes,
          () => lineName(line, index),
          (entry) => missing(entry.name) || missing(entry.value),
        ),
      ),
  },
  {
    id: 'BR-55',
    flag: 'fatal',
    element: 'BT-25',
    message: 'Each Preceding Invoice reference (BG-3) shall contain a Preceding Invoice reference (BT-25).',
    check: (i) => eachOf(i.precedingInvoices, nth('preceding invoice'), (entry) => missing(entry.number)),
  },
  {
    id: 'BR-56',
    flag: 'fatal',
    element: 'BT-63',
    message:
      'Each Seller tax representative party (BG-11) shall have a Seller tax representative VAT identifier (BT-63).',
    check: (i) => violatedIf(!!i.taxRepresentative && missing(i.taxRepresentative.vatId)),
  },
  {
    id: 'BR-57',
    flag: 'fatal',
    element: 'BT-80',
    message: 'Each Deliver to address (BG-15) shall contain a Deliver to country code (BT-80).',
    check: (i) => violatedIf(!!i.delivery?.address && missing(i.delivery.address.country)),
  },
  {
    id: 'BR-61',
    flag: 'fatal',
    element: 'BT-84',
    message:
      'If the Payment means type code (BT-81) means SEPA credit transfer, Local credit transfer or Non-SEPA international credit transfer, the Payment account identifier (BT-84) shall be present.',
    plain: 'The invoice asks for a bank transfer but gives no account to pay into.',
    check: (i) =>
      eachOf(
        i.paymentMeans,
        nth('payment means'),
        (entry) =>
          ['30', '58'].includes(entry.code ?? '') &&
          !entry.creditTransfers.some((transfer) => present(transfer.account)),
        (entry) => entry.code,
      ),
  },
  {
    id: 'BR-62',
    flag: 'fatal',
    element: 'BT-34',
    message: 'The Seller electronic address (BT-34) shall have a Scheme identifier.',
    check: (i) => violatedIf(!!i.seller?.electronicAddress && missing(i.seller.electronicAddress.scheme)),
  },
  {
    id: 'BR-63',
    flag: 'fatal',
    element: 'BT-49',
    message: 'The Buyer electronic address (BT-49) shall have a Scheme identifier.',
    check: (i) => violatedIf(!!i.buyer?.electronicAddress && missing(i.buyer.electronicAddress.scheme)),
  },
  {
    id: 'BR-64',
    flag: 'fatal',
    element: 'BT-157',
    message: 'The Item standard identifier (BT-157) shall have a Scheme identifier.',
    check: (i) =>
      i.lines.flatMap((line, index) =>
        eachOf(
          line.standardIds,
          () => lineName(line, index),
          (entry) => missing(entry.scheme),
        ),
      ),
  },
  {
    id: 'BR-65',
    flag: 'fatal',
    element: 'BT-158',
    message: 'The Item classification identifier (BT-158) shall have a Scheme identifier.',
    check: (i) =>
      i.lines.flatMap((line, index) =>
        eachOf(
          line.classifications,
          () => lineName(line, index),
          (entry) => missing(entry.scheme),
        ),
      ),
  },
];
