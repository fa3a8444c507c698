import { hasValidIbanChecksum, normalAccount } from '../../iban.ts';
import { eachOf, blank, onlyFor, violatedIf, type Rule, type RuleFlag, type Violation } from '../rule.ts';
import type { SemanticAddress, SemanticInvoice, SemanticPaymentMeans } from '../semantic-model.ts';

/**
 * The XRechnung CIUS (KoSIT, XRechnung 3.0): the German public sector's rules on top of EN 16931, for an
 * invoice whose specification identifier (BT-24) names XRechnung. The messages are the standard's own, in
 * German as it publishes them; the plain sentences say what they mean for whoever books the invoice.
 */
/** XRechnung's identifiers, from 1.x (`urn:xoev-de:kosit:standard:xrechnung_1.2`) to 3.x. */
const XRECHNUNG = /urn:(xeinkauf\.de|xoev-de):kosit:(standard:)?xrechnung/;
const CIUS_ID = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
/** The identifiers XRechnung 3.0 accepts: the CIUS, its extension, and the commercial vehicles profile. */
const XRECHNUNG_IDS = new Set([
  CIUS_ID,
  `${CIUS_ID}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`,
  `${CIUS_ID}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`,
]);

export const declaresXRechnung = (invoice: SemanticInvoice) => XRECHNUNG.test(invoice.specification ?? '');

/** Codes of BT-3 XRechnung expects: partial, commercial, corrected, self-billed invoice, credit note, construction. */
const XRECHNUNG_TYPE_CODES = new Set(['326', '380', '384', '389', '381', '875', '876', '877']);
/** VAT categories for which the seller must be identified for VAT (all but O, not subject to VAT). */
const TAXED_CATEGORIES = new Set(['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M']);
const CREDIT_TRANSFER = new Set(['30', '58']);
const CARD = new Set(['48', '54', '55']);

/** A cash-discount line of BT-20: `#SKONTO#TAGE=14#PROZENT=2.00#` with an optional `#BASISBETRAG=…#`. */
const SKONTO_LINE = /^#SKONTO#TAGE=[0-9]+#PROZENT=[0-9]+\.[0-9]{2}(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;
const THREE_DIGITS = /([0-9].*){3,}/;
const EMAIL = /^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$/;

const xr = (
  id: string,
  flag: RuleFlag,
  element: string,
  message: string,
  check: (invoice: SemanticInvoice) => Violation[],
  plain?: string,
): Rule => ({ id, flag, element, message, ...(plain ? { plain } : {}), check });

/** A term every invoice of this CIUS carries. */
const required = (
  id: string,
  element: string,
  message: string,
  value: (i: SemanticInvoice) => string | null | undefined,
  plain?: string,
) => xr(id, 'fatal', element, message, (i) => violatedIf(blank(value(i))), plain);

/** A term an address carries whenever the address is there. */
const inAddress = (
  id: string,
  element: string,
  message: string,
  address: (i: SemanticInvoice) => SemanticAddress | undefined,
  field: 'city' | 'postCode',
) => xr(id, 'fatal', element, message, (i) => violatedIf(!!address(i) && blank(address(i)![field])));

/** A term of the seller's contact, whenever the contact is there. */
const inContact = (id: string, element: string, message: string, field: 'name' | 'telephone' | 'email') =>
  xr(id, 'fatal', element, message, (i) => violatedIf(!!i.seller?.contact && blank(i.seller.contact[field])));

const normalized = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();

/** BR-DE-18: each line of BT-20 that starts with `#` is a cash-discount line, and a line break ends the last. */
function skontoFaults(terms: string | null): string | null {
  if (terms === null) return null;
  const marked = terms.split(/\r?\n/).filter((line) => line.trim().startsWith('#'));
  if (marked.length === 0) return null;
  const wrong = marked.find((line) => !SKONTO_LINE.test(normalized(line)));
  if (wrong !== undefined) return normalized(wrong);
  const tail = terms.split(/#.+#/).at(-1) ?? '';
  return /^\s*\n/.test(tail) ? null : 'no line break after the last cash-discount line';
}

const notAnIban = (account: string | null | undefined) =>
  !hasValidIbanChecksum(normalAccount(account ?? '')) ||
  !/^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$/.test(account?.replace(/\s+/g, '') ?? '');

/** The payment instructions of one kind (by BT-81), each named by its place. */
const meansOf = (i: SemanticInvoice, codes: Set<string>) =>
  i.paymentMeans
    .map((means, index) => ({ means, at: `payment means ${index + 1}` }))
    .filter(({ means }) => codes.has(means.code ?? ''));

const meansRule = (
  id: string,
  flag: RuleFlag,
  element: string,
  message: string,
  codes: Set<string>,
  fails: (means: SemanticPaymentMeans, invoice: SemanticInvoice) => boolean,
) =>
  xr(id, flag, element, message, (i) =>
    meansOf(i, codes)
      .filter(({ means }) => fails(means, i))
      .map(({ means, at }) => ({ at, value: means.code })),
  );

/** CII has no element for BG-19: for it, any of BT-89, BT-90, BT-91 states the direct debit. */
const hasDirectDebit = (means: SemanticPaymentMeans, i: SemanticInvoice) =>
  means.mandate !== undefined || (i.syntax === 'cii' && i.directDebit !== undefined);
const hasCreditTransfer = (means: SemanticPaymentMeans) => means.creditTransfers.length > 0;

export const XRECHNUNG_RULES: Rule[] = onlyFor(declaresXRechnung, [
  xr(
    'BR-DE-1',
    'fatal',
    'BG-16',
    'Eine Rechnung (INVOICE) muss Angaben zu "PAYMENT INSTRUCTIONS" (BG-16) enthalten.',
    (i) => violatedIf(i.paymentMeans.length === 0),
    'The invoice does not say how it is to be paid, which XRechnung requires.',
  ),
  xr(
    'BR-DE-2',
    'fatal',
    'BG-6',
    'Die Gruppe "SELLER CONTACT" (BG-6) muss übermittelt werden.',
    (i) => violatedIf(!!i.seller && !i.seller.contact),
    "The seller's contact (a person or department, telephone and e-mail) is missing, which XRechnung requires.",
  ),
  inAddress(
    'BR-DE-3',
    'BT-37',
    'Das Element "Seller city" (BT-37) muss übermittelt werden.',
    (i) => i.seller?.address,
    'city',
  ),
  inAddress(
    'BR-DE-4',
    'BT-38',
    'Das Element "Seller post code" (BT-38) muss übermittelt werden.',
    (i) => i.seller?.address,
    'postCode',
  ),
  inContact('BR-DE-5', 'BT-41', 'Das Element "Seller contact point" (BT-41) muss übermittelt werden.', 'name'),
  inContact(
    'BR-DE-6',
    'BT-42',
    'Das Element "Seller contact telephone number" (BT-42) muss übermittelt werden.',
    'telephone',
  ),
  inContact('BR-DE-7', 'BT-43', 'Das Element "Seller contact email address" (BT-43) muss übermittelt werden.', 'email'),
  inAddress(
    'BR-DE-8',
    'BT-52',
    'Das Element "Buyer city" (BT-52) muss übermittelt werden.',
    (i) => i.buyer?.address,
    'city',
  ),
  inAddress(
    'BR-DE-9',
    'BT-53',
    'Das Element "Buyer post code" (BT-53) muss übermittelt werden.',
    (i) => i.buyer?.address,
    'postCode',
  ),
  inAddress(
    'BR-DE-10',
    'BT-77',
    'Das Element "Deliver to city" (BT-77) muss übermittelt werden, wenn die Gruppe "DELIVER TO ADDRESS" (BG-15) übermittelt wird.',
    (i) => i.delivery?.address,
    'city',
  ),
  inAddress(
    'BR-DE-11',
    'BT-78',
    'Das Element "Deliver to post code" (BT-78) muss übermittelt werden, wenn die Gruppe "DELIVER TO ADDRESS" (BG-15) übermittelt wird.',
    (i) => i.delivery?.address,
    'postCode',
  ),
  xr('BR-DE-14', 'fatal', 'BT-119', 'Das Element "VAT category rate" (BT-119) muss übermittelt werden.', (i) =>
    eachOf(
      i.vatBreakdown,
      (entry, index) => `VAT breakdown ${entry.category ?? index + 1}`,
      (entry) => blank(entry.rate),
    ),
  ),
  required(
    'BR-DE-15',
    'BT-10',
    'Das Element "Buyer reference" (BT-10) muss übermittelt werden.',
    (i) => i.buyerReference,
    'The buyer reference (for public buyers the Leitweg-ID) is missing: the buyer cannot route the invoice.',
  ),
  xr(
    'BR-DE-16',
    'fatal',
    'BT-31',
    'Wenn in einer Rechnung die Steuercodes S, Z, E, AE, K, G, L oder M verwendet werden, muss mindestens eines der Elemente "Seller VAT identifier" (BT-31), "Seller tax registration identifier" (BT-32) oder "SELLER TAX REPRESENTATIVE PARTY" (BG-11) übermittelt werden.',
    (i) => {
      const categories = [...i.allowancesCharges.map((entry) => entry.category), ...i.itemCategories];
      const taxed = categories.some((category) => TAXED_CATEGORIES.has(category ?? ''));
      const identified = !blank(i.seller?.vatId) || !blank(i.seller?.taxRegistrationId) || !!i.taxRepresentative;
      return violatedIf(taxed && !identified);
    },
    'VAT is charged, but the seller gives neither a VAT number nor a tax number.',
  ),
  xr(
    'BR-DE-17',
    'warning',
    'BT-3',
    'Mit dem Element "Invoice type code" (BT-3) sollen ausschließlich folgende Codes aus der Codeliste UNTDID 1001 übermittelt werden: 326 (Partial invoice), 380 (Commercial invoice), 384 (Corrected invoice), 389 (Self-billed invoice) und 381 (Credit note), 875 (Partial construction invoice), 876 (Partial final construction invoice), 877 (Final construction invoice).',
    (i) => violatedIf(!XRECHNUNG_TYPE_CODES.has(i.typeCode ?? ''), { value: i.typeCode }),
  ),
  xr(
    'BR-DE-18',
    'fatal',
    'BT-20',
    'Die Informationen zur Gewährung von Skonto müssen wie folgt im Element "Payment terms" (BT-20) übermittelt werden: Anzugeben ist im ersten Segment "SKONTO", im zweiten "TAGE=n", im dritten "PROZENT=n" und optional im vierten "BASISBETRAG=n". Jedes Segment beginnt und endet mit "#", die Zeile endet mit einem Zeilenumbruch.',
    (i) => {
      const fault = skontoFaults(i.paymentTermsText);
      return violatedIf(fault !== null, { value: fault });
    },
    'A cash-discount line in the payment terms is not written the way XRechnung prescribes (#SKONTO#TAGE=…#PROZENT=…#).',
  ),
  meansRule(
    'BR-DE-19',
    'warning',
    'BT-84',
    '"Payment account identifier" (BT-84) soll eine korrekte IBAN enthalten, wenn in "Payment means type code" (BT-81) mit dem Code 58 SEPA als Zahlungsmittel gefordert wird.',
    new Set(['58']),
    (means) => notAnIban(means.creditTransfers[0]?.account),
  ),
  meansRule(
    'BR-DE-20',
    'warning',
    'BT-91',
    '"Debited account identifier" (BT-91) soll eine korrekte IBAN enthalten, wenn in "Payment means type code" (BT-81) mit dem Code 59 SEPA als Zahlungsmittel gefordert wird.',
    new Set(['59']),
    (means, i) => notAnIban(means.mandate?.account ?? i.directDebit?.debitedAccount),
  ),
  xr(
    'BR-DE-21',
    'warning',
    'BT-24',
    'Das Element "Specification identifier" (BT-24) soll syntaktisch der Kennung des Standards XRechnung entsprechen.',
    (i) => violatedIf(!XRECHNUNG_IDS.has(i.specification ?? ''), { value: i.specification }),
  ),
  xr(
    'BR-DE-22',
    'fatal',
    'BT-125',
    'Das "filename"-Attribut aller "EmbeddedDocumentBinaryObject"-Elemente muss eindeutig sein.',
    (i) => {
      const names = i.supportingDocuments.map((entry) => entry.filename).filter((name) => name !== null);
      const repeated = names.filter((name, index) => names.indexOf(name) !== index);
      return violatedIf(repeated.length > 0, { value: [...new Set(repeated)].join(', ') });
    },
  ),
  meansRule(
    'BR-DE-23-a',
    'fatal',
    'BG-17',
    'Wenn BT-81 "Payment means type code" einen Schlüssel für Überweisungen enthält (30, 58), muss BG-17 "CREDIT TRANSFER" übermittelt werden.',
    CREDIT_TRANSFER,
    (means) => !hasCreditTransfer(means),
  ),
  meansRule(
    'BR-DE-23-b',
    'fatal',
    'BG-17',
    'Wenn BT-81 "Payment means type code" einen Schlüssel für Überweisungen enthält (30, 58), dürfen BG-18 und BG-19 nicht übermittelt werden.',
    CREDIT_TRANSFER,
    (means) => means.card || means.mandate !== undefined,
  ),
  meansRule(
    'BR-DE-24-a',
    'fatal',
    'BG-18',
    'Wenn BT-81 "Payment means type code" einen Schlüssel für Kartenzahlungen enthält (48, 54, 55), muss genau BG-18 "PAYMENT CARD INFORMATION" übermittelt werden.',
    CARD,
    (means) => !means.card,
  ),
  meansRule(
    'BR-DE-24-b',
    'fatal',
    'BG-18',
    'Wenn BT-81 "Payment means type code" einen Schlüssel für Kartenzahlungen enthält (48, 54, 55), dürfen BG-17 und BG-19 nicht übermittelt werden.',
    CARD,
    (means) => hasCreditTransfer(means) || means.mandate !== undefined,
  ),
  meansRule(
    'BR-DE-25-a',
    'fatal',
    'BG-19',
    'Wenn BT-81 "Payment means type code" einen Schlüssel für Lastschriften enthält (59), muss genau BG-19 "DIRECT DEBIT" übermittelt werden.',
    new Set(['59']),
    (means, i) => !hasDirectDebit(means, i),
  ),
  meansRule(
    'BR-DE-25-b',
    'fatal',
    'BG-19',
    'Wenn BT-81 "Payment means type code" einen Schlüssel für Lastschriften enthält (59), dürfen BG-17 und BG-18 nicht übermittelt werden.',
    new Set(['59']),
    (means) => hasCreditTransfer(means) || means.card,
  ),
  xr(
    'BR-DE-26',
    'warning',
    'BG-3',
    'Wenn im Element "Invoice type code" (BT-3) der Code 384 (Corrected invoice) übergeben wird, soll PRECEDING INVOICE REFERENCE BG-3 mind. einmal vorhanden sein.',
    (i) => violatedIf(i.typeCode === '384' && i.precedingInvoices.length === 0),
  ),
  xr('BR-DE-27', 'warning', 'BT-42', 'In BT-42 sollen mindestens drei Ziffern enthalten sein.', (i) =>
    violatedIf(!!i.seller?.contact && !THREE_DIGITS.test(normalized(i.seller.contact.telephone)), {
      value: i.seller?.contact?.telephone ?? null,
    }),
  ),
  xr(
    'BR-DE-28',
    'warning',
    'BT-43',
    'In BT-43 soll genau ein @-Zeichen enthalten sein, welches nicht von einem Leerzeichen, einem Punkt, aber mindestens zwei Zeichen auf beiden Seiten flankiert werden soll. Ein Punkt sollte nicht am Anfang oder am Ende stehen.',
    (i) =>
      violatedIf(!!i.seller?.contact && !EMAIL.test(normalized(i.seller.contact.email)), {
        value: i.seller?.contact?.email ?? null,
      }),
  ),
  xr(
    'BR-DE-30',
    'fatal',
    'BT-90',
    'Wenn "DIRECT DEBIT" BG-19 vorhanden ist, dann muss "Bank assigned creditor identifier" BT-90 übermittelt werden.',
    (i) => violatedIf(!!i.directDebit && blank(i.directDebit.creditorId)),
  ),
  xr(
    'BR-DE-31',
    'fatal',
    'BT-91',
    'Wenn "DIRECT DEBIT" BG-19 vorhanden ist, dann muss "Debited account identifier" BT-91 übermittelt werden.',
    (i) => violatedIf(!!i.directDebit && blank(i.directDebit.debitedAccount)),
  ),
]);
