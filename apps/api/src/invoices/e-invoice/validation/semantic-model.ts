import type { EInvoiceSyntax } from '../model.ts';

/**
 * The invoice as EN 16931-1 names it, for the business rules: every term a rule reads, in either syntax. A
 * term the document does not carry is null (a group: undefined, a repeated group: empty), so a rule over
 * a fragment reads only what is there. Texts are trimmed, as written.
 */
export interface SemanticInvoice {
  syntax: EInvoiceSyntax;
  /** A UBL CreditNote document (CII says credit note only through the type code). */
  creditNote: boolean;
  /** BT-24, BT-23 */
  specification: string | null;
  profile: string | null;
  /** BT-10, BT-13 */
  buyerReference: string | null;
  orderReference: string | null;
  /** BT-22: each invoice note */
  notes: string[];
  /** BT-1, BT-2, BT-3, BT-5, BT-6, BT-7, BT-8, BT-9, BT-10 */
  number: string | null;
  issueDate: string | null;
  typeCode: string | null;
  currency: string | null;
  taxCurrency: string | null;
  taxPointDate: string | null;
  taxPointDateCode: string | null;
  dueDate: string | null;
  /** BT-20 */
  paymentTerms: string | null;
  /** BT-20 as written, line breaks kept (the XRechnung cash-discount lines are read line by line). */
  paymentTermsText: string | null;
  /**
   * BG-19 as the syntax states it: UBL in a PaymentMandate, CII through any of its terms (BT-89, BT-90, BT-91),
   * since CII has no element for the group.
   */
  directDebit: { mandate: string | null; creditorId: string | null; debitedAccount: string | null } | undefined;
  /** BG-3: BT-25 of each preceding invoice reference */
  precedingInvoices: { number: string | null }[];
  seller: SemanticParty | undefined;
  buyer: SemanticParty | undefined;
  /** BG-10 */
  payee: { name: string | null } | undefined;
  /** BG-11 */
  taxRepresentative: { name: string | null; vatId: string | null; address: SemanticAddress | undefined } | undefined;
  /** BG-13 */
  delivery: { date: string | null; address: SemanticAddress | undefined } | undefined;
  /** BG-14 */
  period: SemanticPeriod | undefined;
  /** BG-16 */
  paymentMeans: SemanticPaymentMeans[];
  /** BG-20 and BG-21 */
  allowancesCharges: SemanticAllowanceCharge[];
  /** BG-22 */
  totals: SemanticTotals | undefined;
  /**
   * BT-110: every tax total stated in the invoice currency (or in none). More than one is a contradiction
   * the rules report, so all are kept.
   */
  taxTotals: string[];
  /** BT-111: in the VAT accounting currency. */
  taxTotalAccounting: string | null;
  /** BG-23 */
  vatBreakdown: SemanticVatBreakdown[];
  /** BG-24: BT-122 of each, and the media type and file name of its attached document (BT-125) */
  supportingDocuments: { reference: string | null; mimeCode: string | null; filename: string | null }[];
  /**
   * BT-151 wherever the document writes an item's VAT category: a code-list rule checks every code written,
   * also in a line the document type does not expect (an InvoiceLine in a UBL CreditNote).
   */
  itemCategories: string[];
  /** The currency of every amount, as its `currencyID` states it. */
  amountCurrencies: string[];
  /** BG-25 */
  lines: SemanticLine[];
  /** Scheme identifiers and codes wherever the document writes them, for the code-list rules. */
  written: WrittenCodes;
  /** Every identifier written with a scheme (electronic addresses, party and legal identifiers). */
  schemedIdentifiers: { scheme: string; value: string }[];
  /** The local name of every element that holds neither text nor elements. */
  emptyElements: string[];
  /** What only UBL's syntax rules (UBL-SR-*) ask about: how often it repeats what the standard has once. */
  ublOccurrences?: UblOccurrences;
}

/** Each kind of scheme identifier or code, every time the document writes one (trimmed, as written). */
export interface WrittenCodes {
  /** BT-18's scheme (UNTDID 1153) */
  objectSchemes: string[];
  /** BT-21 (UNTDID 4451; CII only) */
  noteSubjects: string[];
  /** BT-29, BT-46, BT-60's schemes (ISO 6523 ICD) */
  partySchemes: string[];
  /** BT-30, BT-47, BT-61's schemes (ISO 6523 ICD) */
  registrationSchemes: string[];
  /** BT-158's scheme (UNTDID 7143) */
  classificationSchemes: string[];
  /** BT-157's scheme (ISO 6523 ICD) */
  itemSchemes: string[];
  /** BT-121 (VATEX) */
  exemptionCodes: string[];
  /** BT-130 and BT-150 (UN/ECE Rec 20 and 21) */
  unitCodes: string[];
  /** BT-34 and BT-49's schemes (EAS) */
  endpointSchemes: string[];
  /** BT-71's scheme (ISO 6523 ICD) */
  deliverySchemes: string[];
}

export interface UblOccurrences {
  /** The tax scheme id of each PartyTaxScheme of the seller and of the buyer, as written. */
  sellerTaxSchemes: (string | null)[];
  buyerTaxSchemes: (string | null)[];
  /** Every PaymentID (BT-83) of every PaymentMeans. */
  paymentIds: string[];
  /** Every amount UBL's amount data type covers (not prices, nor a price's allowance), as written. */
  amounts: string[];
  /** Every binary object (an attached document, BT-125) and the attributes it carries. */
  binaryObjects: { mimeCode: string | null; filename: string | null }[];
  /** Every AdditionalDocumentReference: its type code and whether its ID names a scheme. */
  documentReferences: { typeCode: string | null; scheme: boolean }[];
  /** The type code of each DocumentReference of each line, line by line. */
  lineDocumentReferences: (string | null)[][];
  /** How many TaxTotal elements carry subtotals, and how many do not. */
  taxTotalsWithSubtotals: number;
  taxTotalsWithoutSubtotals: number;
  /** How often each UBL-SR cardinality rule's element occurs, once per element of its context. */
  cardinalities: Record<string, number[]>;
  /** Every date the Peppol date format rule reads (issue, due, tax point, period, delivery), as written. */
  dates: string[];
}

export interface SemanticAddress {
  /** BT-40, BT-55, BT-69, BT-80 */
  country: string | null;
  /** BT-37, BT-52, BT-77 and BT-38, BT-53, BT-78 */
  city: string | null;
  postCode: string | null;
}

export interface SemanticParty {
  /** BT-27 / BT-44 */
  name: string | null;
  /** BT-29 / BT-46 */
  identifiers: string[];
  /** BT-30 / BT-47 */
  legalId: string | null;
  /** BT-31 / BT-48 */
  vatId: string | null;
  /** BT-32 (seller only) */
  taxRegistrationId: string | null;
  /** BT-34 / BT-49, with its scheme */
  electronicAddress: { value: string | null; scheme: string | null } | undefined;
  /** BG-5 / BG-8 */
  address: SemanticAddress | undefined;
  /** BG-6 / BG-9: BT-41, BT-42, BT-43 (and the buyer's) */
  contact: { name: string | null; telephone: string | null; email: string | null } | undefined;
}

export interface SemanticPeriod {
  start: string | null;
  end: string | null;
}

export interface SemanticPaymentMeans {
  /** BT-81 */
  code: string | null;
  /** BG-17: BT-84 of each credit transfer */
  creditTransfers: { account: string | null }[];
  /** BT-87, and whether BG-18 is there at all */
  cardNumber: string | null;
  card: boolean;
  /** BG-19 in this payment instruction: BT-89 and BT-91 */
  mandate: { id: string | null; account: string | null } | undefined;
}

export interface SemanticAllowanceCharge {
  charge: boolean;
  /** The charge indicator as written (`true`, `false`, `1` …). */
  indicator: string | null;
  /** BT-94 / BT-101 */
  percentage: string | null;
  /** BT-92 / BT-99 */
  amount: string | null;
  /** BT-93 / BT-100 */
  base: string | null;
  /** BT-95 / BT-102 */
  category: string | null;
  /** BT-96 / BT-103 */
  rate: string | null;
  /** BT-97 / BT-104 */
  reason: string | null;
  /** BT-98 / BT-105 */
  reasonCode: string | null;
}

export interface SemanticTotals {
  /** BT-106 … BT-115 */
  lineTotal: string | null;
  allowanceTotal: string | null;
  chargeTotal: string | null;
  withoutVat: string | null;
  withVat: string | null;
  prepaid: string | null;
  rounding: string | null;
  payable: string | null;
}

export interface SemanticVatBreakdown {
  /** BT-116 … BT-121 */
  taxable: string | null;
  tax: string | null;
  category: string | null;
  rate: string | null;
  exemptionReason: string | null;
  exemptionCode: string | null;
}

export interface SemanticLineAllowanceCharge {
  charge: boolean;
  indicator: string | null;
  /** BT-138 / BT-143 */
  percentage: string | null;
  /** BT-136 / BT-141, and the base amount BT-137 / BT-142 */
  amount: string | null;
  base: string | null;
  reason: string | null;
  reasonCode: string | null;
}

export interface SemanticLine {
  /** BT-126, BT-129, BT-130, BT-131 */
  id: string | null;
  quantity: string | null;
  unitCode: string | null;
  netAmount: string | null;
  /** BG-26 */
  period: SemanticPeriod | undefined;
  /** BG-27 and BG-28 */
  allowancesCharges: SemanticLineAllowanceCharge[];
  /** BT-146, BT-148 */
  netPrice: string | null;
  grossPrice: string | null;
  /** BT-147 and the indicator of the price's allowance (a charge there is no EN 16931 term) */
  priceDiscount: string | null;
  priceAllowanceIndicator: string | null;
  /** BT-149 and BT-150 */
  baseQuantity: string | null;
  baseQuantityUnit: string | null;
  /** BT-151, BT-152 */
  category: string | null;
  rate: string | null;
  /** BT-153 */
  itemName: string | null;
  /** BT-157 and BT-158 with their schemes */
  standardIds: { value: string | null; scheme: string | null }[];
  classifications: { value: string | null; scheme: string | null }[];
  /** BT-159 */
  originCountry: string | null;
  /** BG-32: BT-160 and BT-161 */
  attributes: { name: string | null; value: string | null }[];
}
