import { textOf, type XmlElement } from '../xml-tree.ts';

/**
 * UBL's syntax binding lets many elements repeat that EN 16931 has once: its rules UBL-SR-* say how often each
 * may occur. One entry each: where it is counted (the document, each line, each payment instruction …), the
 * path of local names below that, and how many are allowed.
 */
type Context =
  | 'document'
  | 'line'
  | 'payee'
  | 'taxRepresentative'
  | 'delivery'
  | 'paymentMeans'
  | 'allowance'
  | 'charge'
  | 'billingReference'
  | 'supportingDocument'
  | 'vatBreakdown';

export interface Cardinality {
  id: string;
  element: string;
  message: string;
  context: Context;
  path: string[];
  /** Only the elements at the end of the path this holds for (a document type code, a tax scheme). */
  where?: (element: XmlElement, parent: XmlElement) => boolean;
  /** At most this many; with `exactly`, this many and no other number. */
  max: number;
  exactly?: boolean;
}

const child = (element: XmlElement, local: string) => element.children.find((entry) => entry.local === local);
const isVat = (scheme: XmlElement) =>
  textOf(child(child(scheme, 'TaxScheme') ?? scheme, 'ID'))?.toUpperCase() === 'VAT';
const once = (id: string, element: string, message: string, context: Context, ...path: string[]): Cardinality => ({
  id,
  element,
  message,
  context,
  path,
  max: 1,
});

export const UBL_CARDINALITIES: Cardinality[] = [
  once(
    'UBL-SR-01',
    'BT-12',
    'Contract identifier shall occur maximum once.',
    'document',
    'ContractDocumentReference',
    'ID',
  ),
  once(
    'UBL-SR-02',
    'BT-15',
    'Receive advice identifier shall occur maximum once',
    'document',
    'ReceiptDocumentReference',
    'ID',
  ),
  once(
    'UBL-SR-03',
    'BT-16',
    'Despatch advice identifier shall occur maximum once',
    'document',
    'DespatchDocumentReference',
    'ID',
  ),
  {
    ...once(
      'UBL-SR-04',
      'BT-18',
      'Invoice object identifier shall occur maximum once',
      'document',
      'AdditionalDocumentReference',
      'ID',
    ),
    where: (_, parent) => textOf(child(parent, 'DocumentTypeCode')) === '130',
  },
  once('UBL-SR-05', 'BT-20', 'Payment terms shall occur maximum once', 'document', 'PaymentTerms', 'Note'),
  once(
    'UBL-SR-06',
    'BG-3',
    'Preceding invoice reference shall occur maximum once',
    'billingReference',
    'InvoiceDocumentReference',
  ),
  once('UBL-SR-08', 'BG-14', 'Invoice period shall occur maximum once', 'document', 'InvoicePeriod'),
  once(
    'UBL-SR-09',
    'BT-27',
    'Seller name shall occur maximum once',
    'document',
    'AccountingSupplierParty',
    'Party',
    'PartyLegalEntity',
    'RegistrationName',
  ),
  once(
    'UBL-SR-10',
    'BT-28',
    'Seller trader name shall occur maximum once',
    'document',
    'AccountingSupplierParty',
    'Party',
    'PartyName',
    'Name',
  ),
  once(
    'UBL-SR-11',
    'BT-30',
    'Seller legal registration identifier shall occur maximum once',
    'document',
    'AccountingSupplierParty',
    'Party',
    'PartyLegalEntity',
    'CompanyID',
  ),
  {
    ...once(
      'UBL-SR-13',
      'BT-32',
      'Seller tax registration shall occur maximum once',
      'document',
      'AccountingSupplierParty',
      'Party',
      'PartyTaxScheme',
      'CompanyID',
    ),
    where: (_, scheme) => !isVat(scheme),
  },
  once(
    'UBL-SR-14',
    'BT-33',
    'Seller additional legal information shall occur maximum once',
    'document',
    'AccountingSupplierParty',
    'Party',
    'PartyLegalEntity',
    'CompanyLegalForm',
  ),
  once(
    'UBL-SR-15',
    'BT-44',
    'Buyer name shall occur maximum once',
    'document',
    'AccountingCustomerParty',
    'Party',
    'PartyLegalEntity',
    'RegistrationName',
  ),
  once(
    'UBL-SR-16',
    'BT-46',
    'Buyer identifier shall occur maximum once',
    'document',
    'AccountingCustomerParty',
    'Party',
    'PartyIdentification',
    'ID',
  ),
  once(
    'UBL-SR-17',
    'BT-47',
    'Buyer legal registration identifier shall occur maximum once',
    'document',
    'AccountingCustomerParty',
    'Party',
    'PartyLegalEntity',
    'CompanyID',
  ),
  once(
    'UBL-SR-22',
    'BT-62',
    'Seller tax representative name shall occur maximum once, if the Seller has a tax representative',
    'taxRepresentative',
    'PartyName',
    'Name',
  ),
  once(
    'UBL-SR-23',
    'BT-63',
    'Seller tax representative VAT identifier shall occur maximum once, if the Seller has a tax representative',
    'taxRepresentative',
    'PartyTaxScheme',
    'CompanyID',
  ),
  once('UBL-SR-24', 'BG-13', 'Deliver to information shall occur maximum once', 'document', 'Delivery'),
  once(
    'UBL-SR-25',
    'BT-70',
    'Deliver to party name shall occur maximum once',
    'delivery',
    'DeliveryParty',
    'PartyName',
    'Name',
  ),
  once('UBL-SR-26', 'BT-83', 'Payment reference shall occur maximum once', 'paymentMeans', 'PaymentID'),
  once('UBL-SR-27', 'BT-82', 'Payment means text shall occur maximum once', 'paymentMeans', 'PaymentMeansCode'),
  once(
    'UBL-SR-28',
    'BT-89',
    'Mandate reference identifier shall occur maximum once',
    'paymentMeans',
    'PaymentMandate',
    'ID',
  ),
  once(
    'UBL-SR-30',
    'BT-97',
    'Document level allowance reason shall occur maximum once',
    'allowance',
    'AllowanceChargeReason',
  ),
  once(
    'UBL-SR-31',
    'BT-104',
    'Document level charge reason shall occur maximum once',
    'charge',
    'AllowanceChargeReason',
  ),
  once(
    'UBL-SR-32',
    'BT-120',
    'VAT exemption reason text shall occur maximum once',
    'vatBreakdown',
    'TaxCategory',
    'TaxExemptionReason',
  ),
  once(
    'UBL-SR-33',
    'BT-123',
    'Supporting document description shall occur maximum once',
    'supportingDocument',
    'DocumentDescription',
  ),
  once('UBL-SR-34', 'BT-127', 'Invoice line note shall occur maximum once', 'line', 'Note'),
  once(
    'UBL-SR-35',
    'BT-132',
    'Referenced purchase order line identifier shall occur maximum once',
    'line',
    'OrderLineReference',
    'LineID',
  ),
  once('UBL-SR-36', 'BG-26', 'Invoice line period shall occur maximum once', 'line', 'InvoicePeriod'),
  once(
    'UBL-SR-37',
    'BT-147',
    'Item price discount shall occur maximum once',
    'line',
    'Price',
    'AllowanceCharge',
    'Amount',
  ),
  once('UBL-SR-39', 'BT-11', 'Project reference shall occur maximum once.', 'document', 'ProjectReference', 'ID'),
  once(
    'UBL-SR-40',
    'BT-45',
    'Buyer trade name shall occur maximum once',
    'document',
    'AccountingCustomerParty',
    'Party',
    'PartyName',
    'Name',
  ),
  once('UBL-SR-45', 'BT-9', 'Due Date shall occur maximum once', 'document', 'PaymentMeans', 'PaymentDueDate'),
  once(
    'UBL-SR-46',
    'BT-82',
    'Payment means text shall occur maximum once',
    'document',
    'PaymentMeans',
    'PaymentMeansCode',
    '@name',
  ),
  {
    ...once(
      'UBL-SR-48',
      'BT-151',
      'Invoice lines shall have one and only one classified tax category.',
      'line',
      'Item',
      'ClassifiedTaxCategory',
    ),
    exactly: true,
  },
  once(
    'UBL-SR-49',
    'BT-8',
    'Value tax point date shall occur maximum once',
    'document',
    'InvoicePeriod',
    'DescriptionCode',
  ),
  once('UBL-SR-50', 'BT-154', 'Item description shall occur maximum once', 'line', 'Item', 'Description'),
  once('UBL-SR-52', 'BT-128', 'Document reference shall occur maximum once', 'line', 'DocumentReference'),
  once(
    'UBL-SR-54',
    'BG-18',
    'An Invoice shall contain maximum one Payment Card account (BG-18).',
    'document',
    'PaymentMeans',
    'CardAccount',
  ),
  once(
    'UBL-SR-55',
    'BG-19',
    'An Invoice shall contain maximum one Payment Mandate (BG-19).',
    'document',
    'PaymentMeans',
    'PaymentMandate',
  ),
  once(
    'UBL-SR-56',
    'BT-17',
    'An Invoice shall contain maximum one Originator document reference identifier (BT-17).',
    'document',
    'OriginatorDocumentReference',
    'ID',
  ),
];

/**
 * The elements each context names in a UBL document, in one pass over the root's children: a document of
 * thousands of lines is not filtered once per context.
 */
function contexts(root: XmlElement): Record<Context, XmlElement[]> {
  const found: Record<Context, XmlElement[]> = {
    document: [root],
    line: [],
    payee: [],
    taxRepresentative: [],
    delivery: [],
    paymentMeans: [],
    allowance: [],
    charge: [],
    billingReference: [],
    supportingDocument: [],
    vatBreakdown: [],
  };
  const creditNoteLines: XmlElement[] = [];
  for (const entry of root.children) {
    const context = ROOT_CHILD_CONTEXTS.get(entry.local);
    if (context) found[context].push(entry);
    else if (entry.local === 'CreditNoteLine') creditNoteLines.push(entry);
    else if (entry.local === 'AllowanceCharge') {
      const indicator = textOf(child(entry, 'ChargeIndicator'));
      if (indicator === 'false') found.allowance.push(entry);
      else if (indicator === 'true') found.charge.push(entry);
    } else if (entry.local === 'TaxTotal')
      for (const subtotal of entry.children) if (subtotal.local === 'TaxSubtotal') found.vatBreakdown.push(subtotal);
  }
  // An InvoiceLine in a CreditNote (or the reverse) is counted too, the invoice lines first.
  for (const line of creditNoteLines) found.line.push(line);
  return found;
}

/** The root's children that are each one element of a context, by local name. */
const ROOT_CHILD_CONTEXTS = new Map<string, Context>([
  ['InvoiceLine', 'line'],
  ['PayeeParty', 'payee'],
  ['TaxRepresentativeParty', 'taxRepresentative'],
  ['Delivery', 'delivery'],
  ['PaymentMeans', 'paymentMeans'],
  ['BillingReference', 'billingReference'],
  ['AdditionalDocumentReference', 'supportingDocument'],
]);

/**
 * How many elements the path reaches below one element (`@name`: an attribute of the last), counted as the
 * tree is descended: nothing is collected, since this runs for every line of a document of thousands.
 */
function countBelow(element: XmlElement, parent: XmlElement, rule: Cardinality, step = 0): number {
  const { path, where } = rule;
  if (step === path.length) return where && !where(element, parent) ? 0 : 1;
  const local = path[step]!;
  if (local.startsWith('@')) return element.attributes[local.slice(1)] !== undefined ? 1 : 0;
  // Indexed, not for…of: an iterator per element visited, for every line, is garbage a large document notices.
  const { children } = element;
  let count = 0;
  for (let index = 0; index < children.length; index += 1)
    if (children[index]!.local === local) count += countBelow(children[index]!, element, rule, step + 1);
  return count;
}

/** Each cardinality rule's count in each of its context elements, by rule id. */
export function ublCardinalities(root: XmlElement): Record<string, number[]> {
  const byContext = contexts(root);
  const counts: Record<string, number[]> = {};
  for (const rule of UBL_CARDINALITIES) {
    const elements = byContext[rule.context];
    const perElement = new Array<number>(elements.length);
    for (let index = 0; index < elements.length; index += 1)
      perElement[index] = countBelow(elements[index]!, elements[index]!, rule);
    counts[rule.id] = perElement;
  }
  return counts;
}
