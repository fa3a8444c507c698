/**
 * What is read from an e-invoice: the EN 16931 terms the portal stores and serves (`facts`), and the rest
 * of what a readable rendering shows. Amounts are decimal strings exactly as written, dates ISO
 * `YYYY-MM-DD`, and a term the invoice does not carry is null.
 */

export type EInvoiceSyntax = 'cii' | 'ubl';

export interface EInvoiceFacts {
  /** BT-24, the specification identifier (e.g. `urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`). */
  profile: string | null;
  /** BT-1 */
  invoiceNumber: string | null;
  /** BT-3: 380 invoice, 381 credit note, 384 corrected invoice … */
  typeCode: string | null;
  /** BT-2 */
  issueDate: string | null;
  /** BT-9 */
  dueDate: string | null;
  /** BT-5 */
  currency: string | null;
  /** BT-27 */
  sellerName: string | null;
  /** BT-31 */
  sellerVatId: string | null;
  /** BT-44 */
  buyerName: string | null;
  /** BT-10 */
  buyerReference: string | null;
  /** BT-109 */
  totalNet: string | null;
  /** BT-110 */
  totalTax: string | null;
  /** BT-112 */
  totalGross: string | null;
  /** BT-115 */
  amountDue: string | null;
  /** BT-84 of the first payment means, the payment account (an IBAN for SEPA transfers) */
  iban: string | null;
  /**
   * BT-84 of every payment means (BG-16 repeats), as written, each once: a second means may name another
   * account, and the change guard compares the whole set.
   */
  paymentAccounts: string[];
  /**
   * Invoice lines (BG-25); 0 for profiles without lines (Factur-X MINIMUM, BASIC WL). Sub-lines are not
   * counted in either syntax (UBL nests them in their line, CII names the parent line).
   */
  lineCount: number;
}

export interface EInvoiceParty {
  name: string | null;
  vatId: string | null;
  /** Street lines, then postcode and city, then country code: as much as the invoice says. */
  address: string[];
}

export interface EInvoiceLine {
  id: string | null;
  name: string | null;
  quantity: string | null;
  unitCode: string | null;
  netPrice: string | null;
  /** BT-131 */
  netAmount: string | null;
}

export interface EInvoiceVatBreakdown {
  category: string | null;
  rate: string | null;
  taxableAmount: string | null;
  taxAmount: string | null;
}

export interface EInvoiceAllowanceCharge {
  /** true for a charge (BG-21), false for an allowance (BG-20) */
  charge: boolean;
  amount: string | null;
  reason: string | null;
}

export interface EInvoiceContent {
  syntax: EInvoiceSyntax;
  facts: EInvoiceFacts;
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  lines: EInvoiceLine[];
  vatBreakdown: EInvoiceVatBreakdown[];
  allowancesCharges: EInvoiceAllowanceCharge[];
  /** BT-106, BT-107, BT-108, BT-113 */
  lineTotal: string | null;
  allowanceTotal: string | null;
  chargeTotal: string | null;
  prepaid: string | null;
  payment: {
    /** BT-81 */
    meansCode: string | null;
    /** BT-85 */
    accountName: string | null;
    /** BT-86 */
    bic: string | null;
    /** BT-83 */
    reference: string | null;
    /** BT-20 */
    terms: string | null;
  };
  /** BT-22 */
  notes: string[];
}

const PROFILE_LEVEL_NAMES = {
  minimum: 'MINIMUM',
  basicwl: 'BASIC WL',
  basic: 'BASIC',
  en16931: 'EN 16931',
  extended: 'EXTENDED',
};

/** Known specification identifiers (BT-24), for people: the identifier itself stays the fact. */
export function profileName(profile: string | null, syntax: EInvoiceSyntax, hybrid: boolean): string | null {
  if (!profile) return null;
  const id = profile.toLowerCase();
  if (id.includes('xrechnung')) {
    const version = /xrechnung_(\d+(?:\.\d+)*)/.exec(id)?.[1];
    return version ? `XRechnung ${version}` : 'XRechnung';
  }
  if (id.includes('peppol.eu:2017:poacc:billing:3.0')) return 'Peppol BIS Billing 3.0';
  const facturx = /factur-x\.eu:1p0:(minimum|basicwl|basic|en16931|extended)/.exec(id)?.[1];
  if (facturx) {
    return `Factur-X ${PROFILE_LEVEL_NAMES[facturx as keyof typeof PROFILE_LEVEL_NAMES]}`;
  }
  // ZUGFeRD 2.0 named its profiles itself; 2.1 and later use Factur-X's identifiers (matched above). Its BASIC
  // and EXTENDED carry the EN 16931 identifier as a prefix, so they must be told apart before that is read.
  const zugferd = /zugferd\.de:2p0:(minimum|basicwl|basic|en16931|extended)/.exec(id)?.[1];
  if (zugferd) return `ZUGFeRD 2.0 ${PROFILE_LEVEL_NAMES[zugferd as keyof typeof PROFILE_LEVEL_NAMES]}`;
  const [core, relation] = id.split('#');
  // The bare identifier, or a CIUS this portal does not know (`#compliant#…`: still EN 16931 itself). An
  // extension (`#conformant#…`) is more than EN 16931, so it is not named as if it were the standard.
  if (core === 'urn:cen.eu:en16931:2017' && (relation === undefined || relation === 'compliant')) {
    // Factur-X and ZUGFeRD name their EN 16931 profile with the standard's own identifier.
    if (hybrid) return 'Factur-X EN 16931';
    return syntax === 'cii' ? 'EN 16931 (CII)' : 'EN 16931 (UBL)';
  }
  return null;
}
