import { violatedIf, type Rule } from '../rule.ts';
import type { SemanticInvoice, UblOccurrences } from '../semantic-model.ts';

/** A UBL syntax rule: about how UBL writes the terms, so it asks nothing of a CII invoice. */
const ublRule = (
  id: string,
  element: string,
  message: string,
  fails: (occurrences: UblOccurrences, invoice: SemanticInvoice) => string | null,
): Rule => ({
  id,
  flag: 'fatal',
  element,
  message,
  check: (invoice) => {
    const value = invoice.ublOccurrences ? fails(invoice.ublOccurrences, invoice) : null;
    return violatedIf(value !== null, { value });
  },
});

const distinct = (values: (string | null)[]) => [...new Set(values)];
const vatSchemes = (schemes: (string | null)[]) => schemes.filter((scheme) => scheme?.toUpperCase() === 'VAT').length;

export const UBL_SYNTAX_RULES: Rule[] = [
  ublRule('UBL-SR-12', 'BT-31', 'Seller VAT identifier shall occur maximum once', ({ sellerTaxSchemes }) =>
    vatSchemes(sellerTaxSchemes) > 1 ? `${vatSchemes(sellerTaxSchemes)} VAT identifiers` : null,
  ),
  ublRule('UBL-SR-18', 'BT-48', 'Buyer VAT identifier shall occur maximum once', ({ buyerTaxSchemes }) =>
    buyerTaxSchemes.length > 1 ? `${buyerTaxSchemes.length} tax schemes` : null,
  ),
  ublRule(
    'UBL-SR-42',
    'BT-31',
    'Party tax scheme shall occur maximum twice in accounting supplier party',
    ({ sellerTaxSchemes }) => (sellerTaxSchemes.length > 2 ? `${sellerTaxSchemes.length} tax schemes` : null),
  ),
  ublRule('UBL-SR-44', 'BT-83', 'Payment ID shall occur maximum once', ({ paymentIds }) =>
    distinct(paymentIds).length > 1 ? distinct(paymentIds).join(', ') : null,
  ),
  ublRule(
    'UBL-SR-47',
    'BT-81',
    'When there are more than one payment means code, they shall be equal',
    (_, invoice) => {
      const codes = distinct(invoice.paymentMeans.map((means) => means.code));
      return codes.length > 1 ? codes.join(', ') : null;
    },
  ),
];
