import { violatedIf, type Rule } from '../rule.ts';
import type { SemanticInvoice, UblOccurrences } from '../semantic-model.ts';
import { UBL_CARDINALITIES, type Cardinality } from '../ubl-cardinalities.ts';

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

/** How many binary objects lack the attribute, or null when none does. */
const lacking = (objects: UblOccurrences['binaryObjects'], attribute: 'mimeCode' | 'filename') => {
  const count = objects.filter((object) => object[attribute] === null).length;
  return count > 0 ? `${count} without ${attribute}` : null;
};

const distinct = (values: (string | null)[]) => [...new Set(values)];
const vatSchemes = (schemes: (string | null)[]) => schemes.filter((scheme) => scheme?.toUpperCase() === 'VAT').length;

/** Each count that breaks the rule's limit, as found. */
const cardinalityRule = ({ id, element, message, max, exactly }: Cardinality): Rule =>
  ublRule(id, element, message, ({ cardinalities }) => {
    const wrong = cardinalities[id]!.filter((count) => (exactly ? count !== max : count > max));
    return wrong.length > 0 ? wrong.map((count) => `${count} found`).join(', ') : null;
  });

export const UBL_SYNTAX_RULES: Rule[] = [
  ...UBL_CARDINALITIES.map(cardinalityRule),
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
  ublRule(
    'UBL-SR-43',
    'BT-18',
    'Scheme identifier shall only be used for invoiced object (document type code with value 130 or 50)',
    ({ documentReferences }, invoice) =>
      documentReferences
        .filter(
          ({ typeCode, scheme }) =>
            typeCode !== '130' && !(invoice.creditNote && typeCode === '50') && (scheme || typeCode !== null),
        )
        .map(({ typeCode }) => typeCode ?? 'a scheme without a type code')
        .join(', ') || null,
  ),
  ublRule(
    'UBL-DT-01',
    'amounts',
    'Amounts shall be decimal up to two fraction digits',
    ({ amounts }) => amounts.filter((amount) => (amount.split('.')[1]?.length ?? 0) > 2).join(', ') || null,
  ),
  ublRule('UBL-DT-06', 'BT-125', 'Binary object elements shall contain the mime code attribute', ({ binaryObjects }) =>
    lacking(binaryObjects, 'mimeCode'),
  ),
  ublRule('UBL-DT-07', 'BT-125', 'Binary object elements shall contain the file name attribute', ({ binaryObjects }) =>
    lacking(binaryObjects, 'filename'),
  ),
];
