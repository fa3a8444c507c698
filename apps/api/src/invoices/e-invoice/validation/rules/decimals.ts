import type { Rule, Violation } from '../rule.ts';
import { lineName } from '../rule.ts';
import type { SemanticInvoice } from '../semantic-model.ts';

/** More than two digits after the decimal point, as written (`12.000` counts: the standard reads the text). */
const overTwoDecimals = (value: string | null | undefined) => (value?.split('.')[1]?.length ?? 0) > 2;

type Amounts = (i: SemanticInvoice) => { at?: string; value: string | null | undefined }[];

/** BR-DEC-*: an amount of this term is written with at most two decimals. */
const decimals = (id: string, element: string, term: string, amounts: Amounts): Rule => ({
  id,
  flag: 'fatal',
  element,
  message: `The allowed maximum number of decimals for the ${term} (${element}) is 2.`,
  check: (i) =>
    amounts(i)
      .filter((entry) => overTwoDecimals(entry.value))
      .map((entry): Violation => ({ ...(entry.at ? { at: entry.at } : {}), value: entry.value ?? null })),
});

const documentLevel =
  (charge: boolean, field: 'amount' | 'base'): Amounts =>
  (i) =>
    i.allowancesCharges
      .filter((entry) => entry.charge === charge)
      .map((entry, index) => ({ at: `${charge ? 'charge' : 'allowance'} ${index + 1}`, value: entry[field] }));

const lineLevel =
  (charge: boolean, field: 'amount' | 'base'): Amounts =>
  (i) =>
    i.lines.flatMap((line, index) =>
      line.allowancesCharges
        .filter((entry) => entry.charge === charge)
        .map((entry) => ({ at: lineName(line, index), value: entry[field] })),
    );

const total =
  (field: keyof NonNullable<SemanticInvoice['totals']>): Amounts =>
  (i) => [{ value: i.totals?.[field] }];

const breakdown =
  (field: 'taxable' | 'tax'): Amounts =>
  (i) =>
    i.vatBreakdown.map((entry, index) => ({ at: `VAT breakdown ${index + 1}`, value: entry[field] }));

export const DECIMAL_RULES: Rule[] = [
  decimals('BR-DEC-01', 'BT-92', 'Document level allowance amount', documentLevel(false, 'amount')),
  decimals('BR-DEC-02', 'BT-93', 'Document level allowance base amount', documentLevel(false, 'base')),
  decimals('BR-DEC-05', 'BT-99', 'Document level charge amount', documentLevel(true, 'amount')),
  decimals('BR-DEC-06', 'BT-100', 'Document level charge base amount', documentLevel(true, 'base')),
  decimals('BR-DEC-09', 'BT-106', 'Sum of Invoice line net amount', total('lineTotal')),
  decimals('BR-DEC-10', 'BT-107', 'Sum of allowanced on document level', total('allowanceTotal')),
  decimals('BR-DEC-11', 'BT-108', 'Sum of charges on document level', total('chargeTotal')),
  decimals('BR-DEC-12', 'BT-109', 'Invoice total amount without VAT', total('withoutVat')),
  decimals('BR-DEC-13', 'BT-110', 'Invoice total VAT amount', (i) => i.taxTotals.map((value) => ({ value }))),
  decimals('BR-DEC-14', 'BT-112', 'Invoice total amount with VAT', total('withVat')),
  decimals('BR-DEC-15', 'BT-111', 'Invoice total VAT amount in accounting currency', (i) => [
    { value: i.taxTotalAccounting },
  ]),
  decimals('BR-DEC-16', 'BT-113', 'Paid amount', total('prepaid')),
  decimals('BR-DEC-17', 'BT-114', 'Rounding amount', total('rounding')),
  decimals('BR-DEC-18', 'BT-115', 'Amount due for payment', total('payable')),
  decimals('BR-DEC-19', 'BT-116', 'VAT category taxable amount', breakdown('taxable')),
  decimals('BR-DEC-20', 'BT-117', 'VAT category tax amount', breakdown('tax')),
  decimals('BR-DEC-23', 'BT-131', 'Invoice line net amount', (i) =>
    i.lines.map((line, index) => ({ at: lineName(line, index), value: line.netAmount })),
  ),
  decimals('BR-DEC-24', 'BT-136', 'Invoice line allowance amount', lineLevel(false, 'amount')),
  decimals('BR-DEC-25', 'BT-137', 'Invoice line allowance base amount', lineLevel(false, 'base')),
  decimals('BR-DEC-27', 'BT-141', 'Invoice line charge amount', lineLevel(true, 'amount')),
  decimals('BR-DEC-28', 'BT-142', 'Invoice line charge base amount', lineLevel(true, 'base')),
];
