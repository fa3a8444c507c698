import { isCiiRoot, readCii } from './cii.ts';
import { type EInvoiceContent, profileName } from './model.ts';
import { loadPdfWithinBudget, PdfAttachmentError, readPdfAttachments, type PdfAttachment } from './pdf-attachments.ts';
import { textCopyOf } from './pdf-text-copy.ts';
import { ByteBudget, ReadingBudgetError } from './reading-budget.ts';
import { isUblRoot, readUbl } from './ubl.ts';
import { validateInvoiceXml, type ValidationReport } from './validation/validate.ts';
import { DEFAULT_VISIBLE_TEXT_LIMITS, readVisibleAccounts, type VisibleAccounts } from './visible-text.ts';
import { DEFAULT_XML_LIMITS, decodeXmlBytes, parseXml, XmlRefusedError, type XmlLimits } from './xml-tree.ts';

/**
 * `pdf`: a PDF with no invoice XML we read; `facturx`: a hybrid PDF (ZUGFeRD 2.x / Factur-X, or an XRechnung
 * attached the same way) with its XML; `cii` and `ubl`: an invoice that is XML only.
 */
export type InvoiceFormat = 'pdf' | 'facturx' | 'cii' | 'ubl';

export interface ReadInvoice {
  format: InvoiceFormat;
  /** What the XML says; null for a plain PDF. */
  content: EInvoiceContent | null;
  /** A name for people (`Factur-X EN 16931`, `XRechnung 3.0`, `Peppol BIS Billing 3.0`), when the profile is known. */
  profileName: string | null;
  /** The invoice XML: the attachment of a hybrid, or the whole body of an XML-only invoice. */
  xml: Uint8Array | null;
  /**
   * For a PDF, plain or hybrid: the accounts its pages show, to hold against a hybrid's XML and against the
   * versions before, or why its text could not be read. Null for XML only (no pages) and for a PDF whose
   * structure could not be read at all.
   */
  visibleAccounts: VisibleAccounts | null;
  /** Why an attached XML (or a hybrid's text) was not read, for the ingest answer; the PDF is stored all the same. */
  warnings: string[];
  /**
   * The invoice XML checked against the EN 16931 business rules, here where it is parsed (inside the reader's
   * budget) so the tree is walked once more instead of parsed again; null for a plain PDF.
   */
  validation: ValidationReport | null;
}

/** The body is not an invoice the portal takes: refused with this message (a 400). */
export class InvoiceRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvoiceRefusedError';
  }
}

export interface ReadInvoiceLimits {
  xml: XmlLimits;
  /** Largest attached XML once decompressed. */
  maxAttachmentBytes: number;
  /**
   * The one byte budget of a PDF: everything decompressed from it on any path (its object and
   * cross-reference streams, the attached XML, the streams its visible text is read from) and the page
   * content read again each time it is drawn again (reading-budget.ts).
   */
  maxDecodedBytes: number;
  /**
   * Leaves the EN 16931 check out (the report is null): only for the benchmark's measure of what the check
   * adds to ingestion. Every upload is checked, whatever the policy: the metric counts invalid arrivals.
   */
  skipValidation?: boolean;
}

export const DEFAULT_READ_LIMITS: ReadInvoiceLimits = {
  xml: DEFAULT_XML_LIMITS,
  maxAttachmentBytes: 10 * 1024 * 1024,
  maxDecodedBytes: 20 * 1024 * 1024,
};

const PDF_MAGIC = '%PDF-';

/** Names the ZUGFeRD, Factur-X and XRechnung specifications give the attached XML, most specific first. */
const INVOICE_ATTACHMENT_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];

export function startsAsPdf(bytes: Uint8Array): boolean {
  return (
    bytes.length >= PDF_MAGIC.length &&
    Buffer.from(bytes.subarray(0, PDF_MAGIC.length)).toString('latin1') === PDF_MAGIC
  );
}

/** An XML document's first character, after an optional byte-order mark and white space, is `<`. */
export function startsAsXml(bytes: Uint8Array): boolean {
  let index = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) index = 3;
  else if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
    // UTF-16: the first code unit after the mark, skipping white space.
    const bigEndian = bytes[0] === 0xfe;
    for (index = 2; index + 1 < bytes.length; index += 2) {
      const unit = bigEndian ? (bytes[index]! << 8) | bytes[index + 1]! : bytes[index]! | (bytes[index + 1]! << 8);
      if (!isXmlSpace(unit)) return unit === 0x3c;
    }
    return false;
  }
  while (index < bytes.length && isXmlSpace(bytes[index]!)) index += 1;
  return index < bytes.length ? bytes[index] === 0x3c : false;
}

const isXmlSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * Reads an invoice as it arrives: a PDF (plain or hybrid) or an XML-only CII or UBL invoice. Refuses (with
 * InvoiceRefusedError) only what is not an invoice at all: bytes that are neither PDF nor XML, and XML that
 * is malformed, hostile or of another kind. A PDF is refused only when it is built to cost more than its
 * budget (ReadingBudgetError, pdf-structure-budget.ts); an attached XML it cannot read becomes a warning.
 * Untrusted uploads are read through the reader pool (reader-pool.ts), which adds a memory and time limit.
 */
export async function readInvoice(
  bytes: Uint8Array,
  limits: ReadInvoiceLimits = DEFAULT_READ_LIMITS,
): Promise<ReadInvoice> {
  if (startsAsPdf(bytes)) return readPdf(bytes, limits);
  if (!startsAsXml(bytes)) {
    throw new InvoiceRefusedError(
      'The body is neither a PDF (it must start with "%PDF-") nor an XML e-invoice (it must start with "<").',
    );
  }
  try {
    const { content, validation } = readXmlInvoice(bytes, limits.xml, limits.skipValidation);
    return {
      format: content.syntax,
      content,
      profileName: profileName(content.facts.profile, content.syntax, false),
      xml: bytes,
      visibleAccounts: null,
      warnings: [],
      validation,
    };
  } catch (error) {
    if (error instanceof XmlRefusedError) throw new InvoiceRefusedError(error.message);
    throw error;
  }
}

/** Parses and maps an XML invoice; XmlRefusedError names what is wrong. */
export function readXml(bytes: Uint8Array, limits: XmlLimits): EInvoiceContent {
  return readXmlInvoice(bytes, limits, true).content;
}

/** Parses, maps and validates an XML invoice; XmlRefusedError names what is wrong. */
function readXmlInvoice(
  bytes: Uint8Array,
  limits: XmlLimits,
  skipValidation = false,
): { content: EInvoiceContent; validation: ValidationReport | null } {
  const root = parseXml(decodeXmlBytes(bytes), limits);
  if (isCiiRoot(root) || isUblRoot(root)) {
    return {
      content: isCiiRoot(root) ? readCii(root) : readUbl(root),
      validation: skipValidation ? null : validateInvoiceXml(root),
    };
  }
  if (root.local === 'CrossIndustryDocument') {
    throw new XmlRefusedError(
      'The XML is a ZUGFeRD 1.0 invoice (CrossIndustryDocument); the portal reads ZUGFeRD 2.x / Factur-X, XRechnung and Peppol BIS 3.0.',
    );
  }
  // Names are as long as the sender made them: the message (an answer, an audit entry) quotes a bounded part.
  const namespace = root.ns ? ` in namespace ${clip(root.ns)}` : ' without a namespace';
  throw new XmlRefusedError(
    `The XML is not an e-invoice: its root element is "${clip(root.local)}"${namespace}, where a CII invoice (CrossIndustryInvoice) or a UBL 2.1 Invoice or CreditNote was expected.`,
  );
}

const clip = (name: string) => (name.length > 100 ? `${name.slice(0, 100)}…` : name);

async function readPdf(bytes: Uint8Array, limits: ReadInvoiceLimits): Promise<ReadInvoice> {
  const plain = (warnings: string[], visibleAccounts: VisibleAccounts | null = null): ReadInvoice => ({
    format: 'pdf',
    content: null,
    profileName: null,
    xml: null,
    visibleAccounts,
    warnings,
    validation: null,
  });
  const budget = new ByteBudget(limits.maxDecodedBytes);
  let document;
  let attachments: PdfAttachment[];
  try {
    document = await loadPdfWithinBudget(bytes, budget);
    attachments = readPdfAttachments(document, { maxFileBytes: limits.maxAttachmentBytes, budget });
  } catch (error) {
    if (!(error instanceof PdfAttachmentError)) throw error;
    return plain([`No invoice XML could be looked for in the PDF: ${error.message}. It is stored as a plain PDF.`]);
  }
  const candidates = attachments
    .filter((attachment) => attachment.name.toLowerCase().endsWith('.xml'))
    .sort((a, b) => rank(a.name) - rank(b.name));
  const warnings: string[] = [];
  let invoice: { xml: Uint8Array; content: EInvoiceContent; validation: ValidationReport | null } | undefined;
  for (const candidate of candidates) {
    try {
      const xml = candidate.read();
      invoice = { xml, ...readXmlInvoice(xml, limits.xml, limits.skipValidation) };
      break;
    } catch (error) {
      if (!(error instanceof XmlRefusedError || error instanceof PdfAttachmentError)) throw error;
      // Another XML (an order, a delivery note) may be attached beside the invoice: only a known name warns.
      if (rank(candidate.name) < INVOICE_ATTACHMENT_NAMES.length || candidates.length === 1) {
        warnings.push(
          `The attached "${candidate.name}" could not be read: ${error.message} The PDF is stored as a plain PDF.`,
        );
      }
    }
  }
  // After the XML: the copy decodes the document's streams in place, and the attachments are read from it.
  const copy = await textCopyOf(document, budget, DEFAULT_VISIBLE_TEXT_LIMITS.maxPages).catch((error: unknown) => {
    if (error instanceof ReadingBudgetError) throw error;
    // A structure pdf-lib loaded but cannot walk or save: its text is not read, and the guard says so.
    return {
      unreadable: `its pages could not be prepared for reading (${String((error as Error).message).slice(0, 200)})`,
    };
  });
  const visibleAccounts = 'unreadable' in copy ? copy : await readVisibleAccounts(copy.bytes);
  if ('unreadable' in visibleAccounts) {
    warnings.push(
      invoice
        ? `The PDF's visible text could not be compared with its XML: ${visibleAccounts.unreadable}.`
        : `The PDF's visible text could not be read to compare its bank details: ${visibleAccounts.unreadable}.`,
    );
  }
  if (!invoice) return plain(warnings, visibleAccounts);
  const { content, xml, validation } = invoice;
  return {
    format: 'facturx',
    content,
    profileName: profileName(content.facts.profile, content.syntax, true),
    xml,
    visibleAccounts,
    warnings,
    validation,
  };
}

function rank(name: string): number {
  const index = INVOICE_ATTACHMENT_NAMES.indexOf(name.toLowerCase());
  return index === -1 ? INVOICE_ATTACHMENT_NAMES.length : index;
}
