import { violatedIf, type Rule } from '../rule.ts';
import type { SemanticInvoice } from '../semantic-model.ts';

/** Every VAT category the invoice writes: its breakdown, its allowances and charges, its lines. */
const categoriesOf = (i: SemanticInvoice) => [
  ...i.vatBreakdown.map((entry) => entry.category),
  ...i.allowancesCharges.map((entry) => entry.category),
  ...i.itemCategories,
];

/** Every country code the invoice writes (addresses and the items' countries of origin). */
const countriesOf = (i: SemanticInvoice) =>
  [
    i.seller?.address?.country,
    i.buyer?.address?.country,
    i.taxRepresentative?.address?.country,
    i.delivery?.address?.country,
    ...i.lines.map((line) => line.originCountry),
  ].filter((country): country is string => !!country);

const splitPayment = (i: SemanticInvoice) => categoriesOf(i).includes('B');

/** Split payment (category B) is Italy's, and it replaces the standard rate rather than joining it. */
export const SPLIT_PAYMENT_RULES: Rule[] = [
  {
    id: 'BR-B-01',
    flag: 'fatal',
    element: 'BT-151',
    message:
      'An Invoice where the VAT category code (BT-151, BT-95 or BT-102) is “Split payment” shall be a domestic Italian invoice.',
    check: (i) => {
      const foreign = countriesOf(i).filter((country) => country !== 'IT');
      return violatedIf(splitPayment(i) && foreign.length > 0, { value: foreign.join(', ') });
    },
  },
  {
    id: 'BR-B-02',
    flag: 'fatal',
    element: 'BT-151',
    message:
      'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95, BT-118 or BT-102) is “Split payment" shall not contain an invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95, BT-118 or BT-102) is “Standard rated”.',
    check: (i) => violatedIf(splitPayment(i) && categoriesOf(i).includes('S')),
  },
];
