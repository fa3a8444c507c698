import {
  ATTACHMENT_MIME_TYPES,
  ISO_3166_COUNTRIES,
  ISO_4217_CURRENCIES,
  UNTDID_1001_CREDIT_NOTE_TYPES,
  UNTDID_1001_INVOICE_TYPES,
  UNTDID_2005_VAT_POINT_DATES,
  UNTDID_2475_VAT_POINT_DATES,
  UNTDID_4461_PAYMENT_MEANS,
  UNTDID_5189_ALLOWANCE_REASONS,
  UNTDID_5305_VAT_CATEGORIES,
  UNTDID_7161_CHARGE_REASONS,
} from '../code-lists.ts';
import type { Rule, Violation } from '../rule.ts';
import {
  EAS_SCHEMES,
  ISO_6523_ICD,
  UNTDID_1153_REFERENCE_QUALIFIERS,
  UNTDID_4451_TEXT_SUBJECTS,
  UNTDID_7143_ITEM_TYPES,
  VATEX_EXEMPTION_REASONS,
} from '../scheme-code-lists.ts';
import type { SemanticInvoice, WrittenCodes } from '../semantic-model.ts';
import { UNECE_REC20_REC21_UNITS } from '../unit-code-list.ts';

/** Each code the invoice writes for these terms that its list does not hold. */
function outside(list: Set<string>, values: { at?: string; value: string | null | undefined }[]): Violation[] {
  return values
    .filter((entry): entry is { at?: string; value: string } => entry.value != null && !list.has(entry.value))
    .map((entry) => ({ ...(entry.at ? { at: entry.at } : {}), value: entry.value }));
}

const codeRule = (
  id: string,
  element: string,
  message: string,
  list: Set<string>,
  values: (i: SemanticInvoice) => { at?: string; value: string | null | undefined }[],
  plain?: string,
): Rule => ({
  id,
  flag: 'fatal',
  element,
  message,
  ...(plain ? { plain } : {}),
  check: (i) => outside(list, values(i)),
});

/** A rule over every code of one kind the document writes. */
const writtenRule = (
  id: string,
  element: string,
  message: string,
  list: Set<string>,
  kind: keyof WrittenCodes,
  plain?: string,
) => codeRule(id, element, message, list, (i) => i.written[kind].map((value) => ({ value })), plain);

/** UBL has a document type for each (its own subset of UNTDID 1001); CII's one document takes either. */
const CII_DOCUMENT_TYPES = new Set([...UNTDID_1001_INVOICE_TYPES, ...UNTDID_1001_CREDIT_NOTE_TYPES]);
const documentTypesOf = (i: SemanticInvoice) =>
  i.syntax === 'cii' ? CII_DOCUMENT_TYPES : i.creditNote ? UNTDID_1001_CREDIT_NOTE_TYPES : UNTDID_1001_INVOICE_TYPES;

const lineNamed = (i: SemanticInvoice) => i.lines.map((line, index) => ({ line, at: `line ${line.id ?? index + 1}` }));

export const CODE_LIST_RULES: Rule[] = [
  {
    id: 'BR-CL-01',
    flag: 'fatal',
    element: 'BT-3',
    message: 'The document type code MUST be coded by the invoice and credit note related code lists of UNTDID 1001.',
    plain: 'The document type is not one an invoice or credit note may have.',
    check: (i) => outside(documentTypesOf(i), [{ value: i.typeCode }]),
  },
  codeRule(
    'BR-CL-03',
    'currencyID',
    'currencyID MUST be coded using ISO code list 4217 alpha-3.',
    ISO_4217_CURRENCIES,
    (i) => i.amountCurrencies.map((value) => ({ value })),
  ),
  codeRule(
    'BR-CL-04',
    'BT-5',
    'Invoice currency code MUST be coded using ISO code list 4217 alpha-3.',
    ISO_4217_CURRENCIES,
    (i) => [{ value: i.currency }],
    'The invoice currency is not a currency code (such as EUR).',
  ),
  codeRule(
    'BR-CL-05',
    'BT-6',
    'Tax currency code MUST be coded using ISO code list 4217 alpha-3.',
    ISO_4217_CURRENCIES,
    (i) => [{ value: i.taxCurrency }],
  ),
  {
    id: 'BR-CL-06',
    flag: 'fatal',
    element: 'BT-8',
    message: 'Value added tax point date code MUST be coded using a restriction of UNTDID 2005.',
    // UBL writes the code from UNTDID 2005, CII from UNTDID 2475 (its binding maps one onto the other).
    check: (i) =>
      outside(i.syntax === 'cii' ? UNTDID_2475_VAT_POINT_DATES : UNTDID_2005_VAT_POINT_DATES, [
        { value: i.taxPointDateCode },
      ]),
  },
  writtenRule(
    'BR-CL-07',
    'BT-18',
    'Object identifier identification scheme identifier MUST be coded using a restriction of UNTDID 1153.',
    UNTDID_1153_REFERENCE_QUALIFIERS,
    'objectSchemes',
  ),
  writtenRule(
    'BR-CL-08',
    'BT-21',
    'Subject Code MUST be coded using a restriction of UNTDID 4451.',
    UNTDID_4451_TEXT_SUBJECTS,
    'noteSubjects',
  ),
  writtenRule(
    'BR-CL-10',
    'BT-29',
    'Any identifier identification scheme identifier MUST be coded using one of the ISO 6523 ICD list.',
    // SEPA: a party identifier may be the SEPA creditor identifier (BT-90), which has no ICD.
    new Set([...ISO_6523_ICD, 'SEPA']),
    'partySchemes',
  ),
  writtenRule(
    'BR-CL-11',
    'BT-30',
    'Any registration identifier identification scheme identifier MUST be coded using one of the ISO 6523 ICD list.',
    ISO_6523_ICD,
    'registrationSchemes',
  ),
  writtenRule(
    'BR-CL-13',
    'BT-158',
    'Item classification identifier identification scheme identifier MUST be coded using one of the UNTDID 7143 list.',
    UNTDID_7143_ITEM_TYPES,
    'classificationSchemes',
  ),
  codeRule(
    'BR-CL-14',
    'BT-40',
    'Country codes in an invoice MUST be coded using ISO code list 3166-1.',
    ISO_3166_COUNTRIES,
    (i) => [
      { at: 'seller', value: i.seller?.address?.country },
      { at: 'buyer', value: i.buyer?.address?.country },
      { at: 'seller tax representative', value: i.taxRepresentative?.address?.country },
      { at: 'deliver to', value: i.delivery?.address?.country },
    ],
    'A country is not written as a two-letter country code (such as DE).',
  ),
  codeRule(
    'BR-CL-15',
    'BT-159',
    'Country codes in an invoice MUST be coded using ISO code list 3166-1.',
    ISO_3166_COUNTRIES,
    (i) => lineNamed(i).map(({ line, at }) => ({ at, value: line.originCountry })),
  ),
  codeRule(
    'BR-CL-16',
    'BT-81',
    'Payment means in an invoice MUST be coded using UNCL4461 code list.',
    UNTDID_4461_PAYMENT_MEANS,
    (i) => i.paymentMeans.map((means, index) => ({ at: `payment means ${index + 1}`, value: means.code })),
  ),
  codeRule(
    'BR-CL-17',
    'BT-118',
    'Invoice tax categories MUST be coded using UNCL5305 code list.',
    UNTDID_5305_VAT_CATEGORIES,
    (i) => [
      ...i.vatBreakdown.map((entry, index) => ({ at: `VAT breakdown ${index + 1}`, value: entry.category })),
      ...i.allowancesCharges.map((entry, index) => ({
        at: `${entry.charge ? 'charge' : 'allowance'} ${index + 1}`,
        value: entry.category,
      })),
    ],
  ),
  codeRule(
    'BR-CL-18',
    'BT-151',
    'Invoice tax categories MUST be coded using UNCL5305 code list.',
    UNTDID_5305_VAT_CATEGORIES,
    (i) => i.itemCategories.map((value) => ({ value })),
  ),
  codeRule(
    'BR-CL-19',
    'BT-98',
    'Coded allowance reasons MUST belong to the UNCL 5189 code list.',
    UNTDID_5189_ALLOWANCE_REASONS,
    (i) => [
      ...i.allowancesCharges
        .filter((entry) => !entry.charge)
        .map((entry, index) => ({ at: `allowance ${index + 1}`, value: entry.reasonCode })),
      ...lineNamed(i).flatMap(({ line, at }) =>
        line.allowancesCharges.filter((entry) => !entry.charge).map((entry) => ({ at, value: entry.reasonCode })),
      ),
    ],
  ),
  codeRule(
    'BR-CL-20',
    'BT-105',
    'Coded charge reasons MUST belong to the UNCL 7161 code list.',
    UNTDID_7161_CHARGE_REASONS,
    (i) => [
      ...i.allowancesCharges
        .filter((entry) => entry.charge)
        .map((entry, index) => ({ at: `charge ${index + 1}`, value: entry.reasonCode })),
      ...lineNamed(i).flatMap(({ line, at }) =>
        line.allowancesCharges.filter((entry) => entry.charge).map((entry) => ({ at, value: entry.reasonCode })),
      ),
    ],
  ),
  writtenRule(
    'BR-CL-21',
    'BT-157',
    'Item standard identifier scheme identifier MUST belong to the ISO 6523 ICD code list.',
    ISO_6523_ICD,
    'itemSchemes',
  ),
  codeRule(
    'BR-CL-22',
    'BT-121',
    'Tax exemption reason code identifier scheme identifier MUST belong to the CEF VATEX code list.',
    VATEX_EXEMPTION_REASONS,
    // The list is upper case; a code written in lower case is the same code.
    (i) => i.written.exemptionCodes.map((value) => ({ value: value.toUpperCase() })),
  ),
  writtenRule(
    'BR-CL-23',
    'BT-130',
    'Unit code MUST be coded according to the UN/ECE Recommendation 20 with Rec 21 extension.',
    UNECE_REC20_REC21_UNITS,
    'unitCodes',
    'A quantity is given in a unit that is not a unit code of UN/ECE Recommendation 20 or 21.',
  ),
  codeRule('BR-CL-24', 'BT-125', 'For Mime code in attribute use MIMEMediaType.', ATTACHMENT_MIME_TYPES, (i) =>
    i.supportingDocuments.map((entry, index) => ({ at: `supporting document ${index + 1}`, value: entry.mimeCode })),
  ),
  writtenRule(
    'BR-CL-25',
    'BT-34',
    'Endpoint identifier scheme identifier MUST belong to the CEF EAS code list.',
    EAS_SCHEMES,
    'endpointSchemes',
  ),
  writtenRule(
    'BR-CL-26',
    'BT-71',
    'Delivery location identifier scheme identifier MUST belong to the ISO 6523 ICD code list.',
    ISO_6523_ICD,
    'deliverySchemes',
  ),
];
