import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from '@cantoo/pdf-lib';
import type { EInvoiceContent, EInvoiceParty } from './model.ts';
import { moneyText } from './money-text.ts';
import { quantityText } from './unit-codes.ts';
import { documentTypeName, paymentMeansName } from '@portal/contract/invoice-codes';

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const RIGHT = A4.width - MARGIN;
const BOTTOM = 64;
const INK = rgb(0.12, 0.14, 0.18);
const MUTED = rgb(0.4, 0.44, 0.5);
const RULE = rgb(0.8, 0.83, 0.88);
const BAND = rgb(0.93, 0.95, 0.98);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2024-11-15` → `15 Nov 2024`, the British order; anything else as it is. */
export function britishDate(iso: string | null): string {
  if (!iso) return '—';
  const [year, month, day] = iso.split('-');
  const name = MONTHS[Number(month) - 1];
  return name && day ? `${Number(day)} ${name} ${year}` : iso;
}

interface Style {
  bold?: boolean;
  size?: number;
  muted?: boolean;
  align?: 'left' | 'right';
}

/** Lays text out top to bottom over as many A4 pages as it needs. */
class Layout {
  private page!: PDFPage;
  private top = 0;
  readonly pages: PDFPage[] = [];

  private readonly document: PDFDocument;
  private readonly regular: PDFFont;
  private readonly bold: PDFFont;

  constructor(document: PDFDocument, regular: PDFFont, bold: PDFFont) {
    this.document = document;
    this.regular = regular;
    this.bold = bold;
    this.newPage();
  }

  newPage(): void {
    this.page = this.document.addPage([A4.width, A4.height]);
    this.pages.push(this.page);
    this.top = MARGIN;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.top + height > A4.height - BOTTOM) this.newPage();
  }

  get cursor(): number {
    return this.top;
  }

  advance(points: number): void {
    this.top += points;
  }

  font(style: Style): PDFFont {
    return style.bold ? this.bold : this.regular;
  }

  /** Only what the standard fonts can show: anything else becomes '?', never an exception mid-render. */
  safe(text: string, style: Style = {}): string {
    const font = this.font(style);
    let safe = '';
    for (const char of text.replace(/\s+/g, ' ')) {
      try {
        font.encodeText(char);
        safe += char;
      } catch {
        safe += '?';
      }
    }
    return safe;
  }

  /** Whether the font draws every character itself: it encodes one it lacks as `?` (`₹`, `中`), not an error. */
  canDraw(text: string, style: Style = {}): boolean {
    const font = this.font(style);
    return [...text].every((char) => char === '?' || font.encodeText(char).toString() !== '<3F>');
  }

  width(text: string, style: Style = {}): number {
    return this.font(style).widthOfTextAtSize(text, style.size ?? 9);
  }

  text(text: string, x: number, style: Style = {}, top = this.top): void {
    const size = style.size ?? 9;
    const value = this.safe(text, style);
    const left = style.align === 'right' ? x - this.width(value, style) : x;
    this.page.drawText(value, {
      x: left,
      y: A4.height - top - size,
      size,
      font: this.font(style),
      color: style.muted ? MUTED : INK,
    });
  }

  /** Word-wrapped lines that fit `maxWidth`. */
  wrap(text: string, maxWidth: number, style: Style = {}): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of this.safe(text, style).split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (this.width(candidate, style) <= maxWidth || !line) line = candidate;
      else {
        lines.push(line);
        line = word;
      }
    }
    if (line) lines.push(line);
    return lines.flatMap((long) => this.hardBreak(long, maxWidth, style));
  }

  private hardBreak(line: string, maxWidth: number, style: Style): string[] {
    if (this.width(line, style) <= maxWidth) return [line];
    const pieces: string[] = [];
    let piece = '';
    for (const char of line) {
      if (this.width(piece + char, style) > maxWidth && piece) {
        pieces.push(piece);
        piece = '';
      }
      piece += char;
    }
    return piece ? [...pieces, piece] : pieces;
  }

  rule(top = this.top): void {
    this.page.drawLine({
      start: { x: MARGIN, y: A4.height - top },
      end: { x: RIGHT, y: A4.height - top },
      thickness: 0.6,
      color: RULE,
    });
  }

  band(height: number, top = this.top): void {
    this.page.drawRectangle({ x: MARGIN, y: A4.height - top - height, width: RIGHT - MARGIN, height, color: BAND });
  }
}

/** Money's symbol where the standard fonts can draw it (`€`, `£`), its code where they cannot (`INR`). */
const money = (layout: Layout, amount: string | null, currency: string | null) =>
  moneyText(amount, currency, (text) => layout.canDraw(text.replace(/\s+/g, ' ')));

function heading(layout: Layout, title: string): void {
  layout.ensure(40);
  layout.advance(14);
  layout.text(title.toUpperCase(), MARGIN, { bold: true, size: 8, muted: true });
  layout.advance(12);
  layout.rule();
  layout.advance(6);
}

function partyBlock(layout: Layout, label: string, party: EInvoiceParty, x: number, width: number, top: number) {
  let y = top;
  layout.text(label.toUpperCase(), x, { bold: true, size: 8, muted: true }, y);
  y += 14;
  for (const line of layout.wrap(party.name ?? '—', width, { bold: true, size: 10.5 })) {
    layout.text(line, x, { bold: true, size: 10.5 }, y);
    y += 14;
  }
  for (const addressLine of party.address) {
    for (const line of layout.wrap(addressLine, width)) {
      layout.text(line, x, {}, y);
      y += 12;
    }
  }
  if (party.vatId) {
    layout.text(`VAT ID ${party.vatId}`, x, { muted: true }, y);
    y += 12;
  }
  return y;
}

/** Rows of label and value, values right-aligned: the totals and the payment details. */
function keyValues(layout: Layout, rows: [string, string, boolean?][], left: number) {
  for (const [label, value, strong] of rows) {
    layout.ensure(16);
    if (strong) layout.band(18, layout.cursor - 4);
    layout.text(label, left, { bold: strong, muted: !strong });
    layout.text(value, RIGHT, { bold: strong, align: 'right' });
    layout.advance(strong ? 20 : 14);
  }
}

/**
 * A readable PDF of an XML-only invoice, made once at ingestion so the invoice screen's frame, Download and
 * Print work as for any other invoice. It says on every page that it is a rendering and that the XML is the
 * record. Deterministic (no dates of its own), so re-importing the same XML yields the same bytes.
 */
export async function renderEInvoicePdf(
  content: EInvoiceContent,
  options: { parcelCode: string; profileName: string | null },
): Promise<Uint8Array> {
  const { facts } = content;
  const document = await PDFDocument.create({ updateMetadata: false });
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const layout = new Layout(document, regular, bold);
  const kind = documentTypeName(facts.typeCode);
  const syntax = content.syntax === 'cii' ? 'UN/CEFACT CII' : 'UBL 2.1';
  document.setTitle(`${kind} ${facts.invoiceNumber ?? ''} (rendering of the XML) \u2014 parcel ${options.parcelCode}`);
  document.setSubject(`Rendering of an e-invoice in ${syntax} syntax`);
  document.setCreator('Parcel Invoice Portal');
  document.setProducer('pdf-lib');

  drawLabel(layout, syntax, options.profileName);
  drawTitle(layout, kind, facts);
  drawParties(layout, content);
  drawLines(layout, content);
  drawAmounts(layout, content);
  drawPayment(layout, content);
  drawFooters(layout, regular, facts, options.parcelCode);
  return document.save({ useObjectStreams: true });
}

/** The label first: whoever reads or prints this must not take it for the original. */
function drawLabel(layout: Layout, syntax: string, profileName: string | null): void {
  layout.band(34);
  layout.text(
    `Rendering of an XML e-invoice (${syntax}${profileName ? `, ${profileName}` : ''})`,
    MARGIN + 10,
    {
      bold: true,
    },
    layout.cursor + 6,
  );
  layout.text(
    'Made by the portal from the XML, which is the invoice of record.',
    MARGIN + 10,
    { muted: true, size: 8 },
    layout.cursor + 19,
  );
  layout.advance(52);
}

/** The document type and number, then the dates, the currency and the buyer's reference in a row. */
function drawTitle(layout: Layout, kind: string, facts: EInvoiceContent['facts']): void {
  layout.text(kind, MARGIN, { bold: true, size: 20 });
  layout.text(facts.invoiceNumber ?? '—', RIGHT, { bold: true, size: 12, align: 'right' }, layout.cursor + 4);
  layout.advance(30);
  const dates: [string, string][] = [
    ['Issued', britishDate(facts.issueDate)],
    ['Due', britishDate(facts.dueDate)],
    ['Currency', facts.currency ?? '—'],
    ['Buyer reference', facts.buyerReference ?? '—'],
  ];
  dates.forEach(([label, value], index) => {
    const x = MARGIN + index * 125;
    layout.text(label.toUpperCase(), x, { bold: true, size: 7, muted: true });
    layout.text(value, x, { size: 9.5 }, layout.cursor + 11);
  });
  layout.advance(34);
}

/** Seller and buyer side by side. */
function drawParties(layout: Layout, content: EInvoiceContent): void {
  const columnWidth = (RIGHT - MARGIN) / 2 - 12;
  const sellerEnd = partyBlock(layout, 'From (seller)', content.seller, MARGIN, columnWidth, layout.cursor);
  const buyerEnd = partyBlock(
    layout,
    'To (buyer)',
    content.buyer,
    MARGIN + columnWidth + 24,
    columnWidth,
    layout.cursor,
  );
  layout.advance(Math.max(sellerEnd, buyerEnd) - layout.cursor + 6);
}

/** The invoice lines as a table, its header again on every page it runs onto. */
function drawLines(layout: Layout, content: EInvoiceContent): void {
  if (content.lines.length > 0) {
    heading(layout, `Lines (${content.lines.length})`);
    const columns = { id: MARGIN, name: MARGIN + 34, quantity: RIGHT - 200, price: RIGHT - 90, amount: RIGHT };
    const header = () => {
      layout.text('#', columns.id, { bold: true, size: 8, muted: true });
      layout.text('Description', columns.name, { bold: true, size: 8, muted: true });
      layout.text('Quantity', columns.quantity, { bold: true, size: 8, muted: true, align: 'right' });
      layout.text('Net price', columns.price, { bold: true, size: 8, muted: true, align: 'right' });
      layout.text('Net amount', columns.amount, { bold: true, size: 8, muted: true, align: 'right' });
      layout.advance(14);
    };
    header();
    for (const line of content.lines) {
      const quantity = quantityText(line.quantity, line.unitCode);
      const descriptionWidth = columns.quantity - columns.name - Math.max(60, layout.width(quantity) + 12);
      const description = layout.wrap(line.name ?? '—', descriptionWidth);
      // A line id wider than its column ("LINE-0001") would run into the description: it goes under it instead.
      const idFits = line.id === null || layout.width(line.id) <= columns.name - columns.id - 6;
      const idBelow = idFits ? [] : layout.wrap(`Line ${line.id}`, descriptionWidth, { size: 8, muted: true });
      const height = (description.length + idBelow.length) * 12 + 4;
      const before = layout.pages.length;
      layout.ensure(height);
      if (layout.pages.length !== before) header();
      if (idFits) layout.text(line.id ?? '', columns.id);
      description.forEach((text, index) => layout.text(text, columns.name, {}, layout.cursor + index * 12));
      idBelow.forEach((text, index) =>
        layout.text(text, columns.name, { size: 8, muted: true }, layout.cursor + (description.length + index) * 12),
      );
      layout.text(quantity || '—', columns.quantity, { align: 'right' });
      layout.text(money(layout, line.netPrice, content.facts.currency), columns.price, { align: 'right' });
      layout.text(money(layout, line.netAmount, content.facts.currency), columns.amount, { align: 'right' });
      layout.advance(height);
    }
  }
}

/** Allowances and charges, the VAT breakdown and the totals, the amount due last and strongest. */
function drawAmounts(layout: Layout, content: EInvoiceContent): void {
  const { facts } = content;
  if (content.allowancesCharges.length > 0) {
    heading(layout, 'Allowances and charges');
    keyValues(
      layout,
      content.allowancesCharges.map((entry) => [
        `${entry.charge ? 'Charge' : 'Allowance'}${entry.reason ? `: ${entry.reason}` : ''}`,
        money(layout, entry.amount, facts.currency),
      ]),
      MARGIN,
    );
  }

  if (content.vatBreakdown.length > 0) {
    heading(layout, 'VAT breakdown');
    keyValues(
      layout,
      content.vatBreakdown.map((vat) => [
        `Category ${vat.category ?? '—'}${vat.rate !== null ? ` at ${vat.rate} %` : ''} on ${money(layout, vat.taxableAmount, facts.currency)}`,
        money(layout, vat.taxAmount, facts.currency),
      ]),
      MARGIN,
    );
  }

  heading(layout, 'Totals');
  const totals: [string, string, boolean?][] = [];
  if (content.lineTotal !== null) totals.push(['Sum of lines', money(layout, content.lineTotal, facts.currency)]);
  if (content.allowanceTotal !== null)
    totals.push(['Allowances', money(layout, content.allowanceTotal, facts.currency)]);
  if (content.chargeTotal !== null) totals.push(['Charges', money(layout, content.chargeTotal, facts.currency)]);
  totals.push(['Total without VAT', money(layout, facts.totalNet, facts.currency)]);
  totals.push(['VAT', money(layout, facts.totalTax, facts.currency)]);
  totals.push(['Total with VAT', money(layout, facts.totalGross, facts.currency)]);
  if (content.prepaid !== null) totals.push(['Paid in advance', money(layout, content.prepaid, facts.currency)]);
  totals.push(['Amount due', money(layout, facts.amountDue, facts.currency), true]);
  keyValues(layout, totals, MARGIN);
}

/** How to pay: the means, the account, the reference, the due date and the terms; then the notes. */
function drawPayment(layout: Layout, content: EInvoiceContent): void {
  const { facts } = content;
  heading(layout, 'Payment');
  const payment: [string, string][] = [];
  const means = content.payment.meansCode;
  if (means) payment.push(['Means', paymentMeansName(means)]);
  payment.push(['Account (IBAN)', facts.iban ?? '—']);
  if (content.payment.bic) payment.push(['BIC', content.payment.bic]);
  if (content.payment.accountName) payment.push(['Account name', content.payment.accountName]);
  if (content.payment.reference) payment.push(['Reference', content.payment.reference]);
  payment.push(['Due', britishDate(facts.dueDate)]);
  keyValues(layout, payment, MARGIN);
  if (content.payment.terms) paragraph(layout, content.payment.terms);

  if (content.notes.length > 0) {
    heading(layout, 'Notes');
    for (const note of content.notes) paragraph(layout, note);
  }
}

/** On every page: what this is, for which parcel, and the page number. */
function drawFooters(layout: Layout, regular: PDFFont, facts: EInvoiceContent['facts'], parcelCode: string): void {
  layout.pages.forEach((page, index) => {
    const footer = `Rendering of the XML e-invoice ${facts.invoiceNumber ?? ''} for parcel ${parcelCode}  \u00b7  page ${index + 1} of ${layout.pages.length}`;
    const text = layout.safe(footer, { size: 7.5 });
    page.drawText(text, {
      x: (A4.width - regular.widthOfTextAtSize(text, 7.5)) / 2,
      y: 30,
      size: 7.5,
      font: regular,
      color: MUTED,
    });
  });
}

function paragraph(layout: Layout, text: string): void {
  for (const line of layout.wrap(text, RIGHT - MARGIN)) {
    layout.ensure(12);
    layout.text(line, MARGIN, { muted: true });
    layout.advance(12);
  }
  layout.advance(4);
}
