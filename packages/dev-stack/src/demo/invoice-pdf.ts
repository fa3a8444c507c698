import { createHash } from 'node:crypto';
import { PDFDocument, type PDFFont, type PDFPage, type RGB, StandardFonts, rgb } from '@cantoo/pdf-lib';

/*
 * Demo invoices for seeding and tests. Everything shown is derived from the parcel code and
 * variant through a hash, so the same input always yields byte-identical PDFs (content-addressed
 * storage then deduplicates re-seeding) while different parcel codes still look different.
 */

const CARRIER = {
  name: 'Northwind Parcel Ltd',
  tagline: 'Parcel carrier \u2014 group data exchange',
  contact: 'billing@northwind-parcel.example  \u00b7  0161 555 0142',
  address: 'Unit 4, Harbour Trade Park, Salford M50 3XZ, United Kingdom',
  registration: 'Registered in England & Wales No. 09876543  \u00b7  VAT No. GB 123 4567 89',
  bank: { name: 'Northbank plc', sortCode: '20-45-77', account: '43918207' },
};

const VAT_RATE_PERCENT = 20;
const FUEL_SURCHARGE_PERMILLE = 45; // 4.5 %, applied to delivery charges only
const PAYMENT_DAYS = 30;

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;

const COLOURS = {
  navy: rgb(0.086, 0.165, 0.29),
  navySoft: rgb(0.66, 0.74, 0.86),
  accent: rgb(0.96, 0.6, 0.1),
  ink: rgb(0.12, 0.14, 0.18),
  muted: rgb(0.42, 0.46, 0.53),
  rule: rgb(0.84, 0.86, 0.9),
  panel: rgb(0.955, 0.962, 0.975),
  white: rgb(1, 1, 1),
};

interface Address {
  name: string;
  lines: string[];
}

interface LineItem {
  service: string;
  detail: string;
  weightKg?: number;
  qty: number;
  unitPence: number;
}

interface InvoiceData {
  parcelCode: string;
  variant: number;
  number: string;
  account: string;
  invoiceDate: Date;
  shipDate: Date;
  dueDate: Date;
  sender: Address;
  recipient: Address;
  items: LineItem[];
}

const SENDERS: Address[] = [
  { name: 'Bramble & Finch Homewares', lines: ['Unit 12, Riverside Industrial Estate', 'Leeds', 'LS10 1QT'] },
  { name: 'Copperleaf Coffee Roasters Ltd', lines: ['48 Mill Lane', 'Bristol', 'BS3 4DE'] },
  { name: 'Harbour Lights Books', lines: ['3 Quay Street', 'Whitby', 'YO21 3PP'] },
  { name: 'Kestrel Cycle Parts Ltd', lines: ['Plot 7, Meadowbank Business Park', 'Nottingham', 'NG7 2RU'] },
  { name: 'Little Acorn Toys', lines: ['22 Station Road', 'Harrogate', 'HG1 1SS'] },
  { name: 'Greystone Outdoor Supply', lines: ['The Old Dairy, Church Street', 'Keswick', 'CA12 4DX'] },
];

const RECIPIENTS: Address[] = [
  { name: 'Ms Amelia Hart', lines: ['Flat 4, 17 Victoria Road', 'Cambridge', 'CB4 3LF'] },
  { name: 'Mr Daniel Okafor', lines: ['9 Beech Grove', 'Manchester', 'M20 6HS'] },
  { name: 'Priya Nair', lines: ['112 Kingsway', 'Cardiff', 'CF10 3AB'] },
  { name: 'Hollins Veterinary Practice', lines: ['Attn: Reception, 5 Market Place', 'Ludlow', 'SY8 1AH'] },
  { name: 'Mr Callum Fraser', lines: ['27 Dundonald Street', 'Edinburgh', 'EH3 6RX'] },
  { name: 'Sofia Marchetti', lines: ['2 The Crescent', 'Belfast', 'BT7 1NH'] },
  { name: 'Thornbury Dental Care', lines: ['14 High Street', 'Thornbury', 'BS35 2AQ'] },
];

const DELIVERY_SERVICES = [
  { service: 'Next Day Delivery', detail: 'Tracked, delivered by 17:00', basePence: 695, perKgPence: 38 },
  { service: 'Next Day Pre-10:30', detail: 'Tracked, timed morning delivery', basePence: 1195, perKgPence: 45 },
  { service: 'Standard Delivery', detail: 'Tracked, 2\u20133 working days', basePence: 445, perKgPence: 29 },
  { service: 'Economy 48', detail: 'Delivered within 48 hours', basePence: 395, perKgPence: 24 },
];

const ADD_ONS = [
  { service: 'Signature on delivery', detail: 'Proof of delivery captured', unitPence: 120 },
  { service: 'Saturday delivery', detail: 'Weekend delivery slot', unitPence: 650 },
  { service: 'Enhanced cover', detail: 'Loss and damage up to \u00a31,000', unitPence: 375 },
  { service: 'Remote area surcharge', detail: 'Highlands & Islands zone', unitPence: 890 },
  { service: 'Oversize handling', detail: 'Longest side over 120 cm', unitPence: 1200 },
  { service: 'Address correction', detail: 'Address amended in transit', unitPence: 450 },
];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

/** Deterministic stream of pseudo-random integers drawn from SHA-256 of a seed. */
class SeededRandom {
  private block = Buffer.alloc(0);
  private offset = 0;
  private counter = 0;

  private readonly seed: string;

  constructor(seed: string) {
    this.seed = seed;
  }

  /** Uniform-enough integer in [0, n): modulo bias over 32 bits is irrelevant for demo data. */
  int(n: number): number {
    if (this.offset + 4 > this.block.length) {
      this.block = createHash('sha256').update(`${this.seed}\u0000${this.counter++}`).digest();
      this.offset = 0;
    }
    const value = this.block.readUInt32BE(this.offset);
    this.offset += 4;
    return value % n;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Picks `count` distinct items, in pool order so the table reads naturally. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(this.int(items.length));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
  }
}

function buildInvoiceData(parcelCode: string, variant: number): InvoiceData {
  const random = new SeededRandom(`demo-invoice\u0000${parcelCode}\u0000${variant}`);
  const invoiceDate = new Date(Date.UTC(2025, 0, 6) + random.int(330) * DAY_MS);
  const shipDate = new Date(invoiceDate.getTime() - (1 + random.int(6)) * DAY_MS);
  const dueDate = new Date(invoiceDate.getTime() + PAYMENT_DAYS * DAY_MS);
  const year = String(invoiceDate.getUTCFullYear()).slice(2);
  const revision = variant === 0 ? '' : `-R${variant}`;

  const delivery = random.pick(DELIVERY_SERVICES);
  const weightKg = (5 + random.int(245)) / 10;
  const deliveryItem: LineItem = {
    service: delivery.service,
    detail: delivery.detail,
    weightKg,
    qty: 1 + random.int(3),
    unitPence: delivery.basePence + Math.round(delivery.perKgPence * weightKg),
  };
  const addOns = random.sample(ADD_ONS, random.int(4)).map((addOn) => ({ ...addOn, qty: 1 }));
  const fuelPence = Math.round((lineTotal(deliveryItem) * FUEL_SURCHARGE_PERMILLE) / 1000);
  const fuelItem: LineItem = {
    service: `Fuel surcharge (${FUEL_SURCHARGE_PERMILLE / 10}%)`,
    detail: 'On delivery charges',
    qty: 1,
    unitPence: fuelPence,
  };

  return {
    parcelCode,
    variant,
    number: `NWP-${year}${String(random.int(1_000_000)).padStart(6, '0')}${revision}`,
    account: `C-${String(10_000 + random.int(90_000))}`,
    invoiceDate,
    shipDate,
    dueDate,
    sender: random.pick(SENDERS),
    recipient: random.pick(RECIPIENTS),
    items: [deliveryItem, ...addOns, fuelItem],
  };
}

function lineTotal(item: LineItem): number {
  return item.unitPence * item.qty;
}

function formatDate(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

function formatMoney(pence: number): string {
  const pounds = Math.floor(pence / 100).toLocaleString('en-GB');
  return `\u00a3${pounds}.${String(pence % 100).padStart(2, '0')}`;
}

/** Helvetica only covers WinAnsi; anything else would make pdf-lib throw mid-render. */
function toWinAnsi(font: PDFFont, text: string): string {
  let safe = '';
  for (const char of text) {
    if (char < ' ') continue;
    try {
      font.encodeText(char);
      safe += char;
    } catch {
      safe += '?';
    }
  }
  return safe;
}

interface TextStyle {
  font: PDFFont;
  size: number;
  color?: RGB;
  align?: 'left' | 'right' | 'center';
}

/** Drawing helpers that take distances from the top of the page, which is how layouts are read. */
class Canvas {
  private readonly page: PDFPage;

  constructor(page: PDFPage) {
    this.page = page;
  }

  text(value: string, x: number, top: number, style: TextStyle): void {
    const width = style.font.widthOfTextAtSize(value, style.size);
    const left = style.align === 'right' ? x - width : style.align === 'center' ? x - width / 2 : x;
    this.page.drawText(value, {
      x: left,
      y: A4.height - top,
      font: style.font,
      size: style.size,
      color: style.color ?? COLOURS.ink,
    });
  }

  box(x: number, top: number, width: number, height: number, color: RGB): void {
    this.page.drawRectangle({ x, y: A4.height - top - height, width, height, color });
  }

  dashedRule(x1: number, x2: number, top: number): void {
    this.page.drawLine({
      start: { x: x1, y: A4.height - top },
      end: { x: x2, y: A4.height - top },
      thickness: 0.75,
      color: COLOURS.muted,
      dashArray: [4, 3],
    });
  }

  rule(x1: number, x2: number, top: number, color: RGB = COLOURS.rule, thickness = 0.75): void {
    this.page.drawLine({
      start: { x: x1, y: A4.height - top },
      end: { x: x2, y: A4.height - top },
      thickness,
      color,
    });
  }
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Shrinks, then truncates, so an unexpectedly long parcel code cannot overflow its panel. */
function fitText(font: PDFFont, text: string, size: number, maxWidth: number, minSize: number) {
  let fitted = size;
  while (fitted > minSize && font.widthOfTextAtSize(text, fitted) > maxWidth) fitted -= 0.5;
  let value = text;
  while (value.length > 1 && font.widthOfTextAtSize(value, fitted) > maxWidth) {
    value = `${value.slice(0, -2)}\u2026`;
  }
  return { value, size: fitted };
}

const RIGHT = A4.width - MARGIN;
const CONTENT_WIDTH = A4.width - 2 * MARGIN;

function drawHeader(canvas: Canvas, fonts: Fonts, data: InvoiceData): void {
  canvas.box(0, 0, A4.width, 128, COLOURS.navy);
  canvas.box(0, 128, A4.width, 4, COLOURS.accent);

  // A simple parcel mark: an accent square with a strip of "tape" across it.
  canvas.box(MARGIN, 34, 36, 36, COLOURS.accent);
  canvas.box(MARGIN + 15, 34, 6, 36, COLOURS.navy);
  canvas.box(MARGIN, 49, 36, 6, COLOURS.navy);

  canvas.text(CARRIER.name, MARGIN + 50, 52, { font: fonts.bold, size: 19, color: COLOURS.white });
  canvas.text(CARRIER.tagline, MARGIN + 50, 67, { font: fonts.regular, size: 9.5, color: COLOURS.navySoft });
  canvas.text(CARRIER.contact, MARGIN, 106, { font: fonts.regular, size: 8, color: COLOURS.navySoft });

  canvas.text('INVOICE', RIGHT, 58, { font: fonts.bold, size: 28, color: COLOURS.white, align: 'right' });
  const labelStyle = { font: fonts.regular, size: 8.5, color: COLOURS.navySoft, align: 'right' } as const;
  const valueStyle = { font: fonts.bold, size: 9.5, color: COLOURS.white, align: 'right' } as const;
  const labelRight = RIGHT - 92;
  canvas.text('Invoice no.', labelRight, 84, labelStyle);
  canvas.text(data.number, RIGHT, 84, valueStyle);
  canvas.text('Invoice date', labelRight, 98, labelStyle);
  canvas.text(formatDate(data.invoiceDate), RIGHT, 98, valueStyle);
  if (data.variant !== 0) {
    canvas.text(`Revision ${data.variant}`, RIGHT, 112, { ...labelStyle, size: 8 });
  }
}

function drawParcelPanel(canvas: Canvas, fonts: Fonts, data: InvoiceData, totalPence: number): void {
  const top = 156;
  const height = 66;
  canvas.box(MARGIN, top, CONTENT_WIDTH, height, COLOURS.panel);
  canvas.box(MARGIN, top, 4, height, COLOURS.accent);

  canvas.text('PARCEL CODE', MARGIN + 18, top + 20, { font: fonts.bold, size: 7.5, color: COLOURS.muted });
  const code = fitText(fonts.bold, toWinAnsi(fonts.bold, data.parcelCode), 22, 200, 10);
  canvas.text(code.value, MARGIN + 18, top + 48, { font: fonts.bold, size: code.size, color: COLOURS.navy });

  const facts: [string, string][] = [
    ['Account', data.account],
    ['Shipped', formatDate(data.shipDate)],
    ['Payment due', formatDate(data.dueDate)],
    ['Amount due', formatMoney(totalPence)],
  ];
  const columnWidth = 66;
  facts.forEach(([label, value], index) => {
    const x = MARGIN + 240 + index * columnWidth;
    const valueFont = index === facts.length - 1 ? fonts.bold : fonts.regular;
    canvas.text(label.toUpperCase(), x, top + 26, { font: fonts.bold, size: 6.5, color: COLOURS.muted });
    canvas.text(value, x, top + 42, { font: valueFont, size: 9, color: COLOURS.ink });
  });
}

function drawAddress(canvas: Canvas, fonts: Fonts, label: string, address: Address, x: number): void {
  const top = 252;
  canvas.text(label, x, top, { font: fonts.bold, size: 7.5, color: COLOURS.muted });
  canvas.rule(x, x + CONTENT_WIDTH / 2 - 20, top + 7);
  canvas.text(address.name, x, top + 24, { font: fonts.bold, size: 10.5 });
  [...address.lines, 'United Kingdom'].forEach((line, index) => {
    canvas.text(line, x, top + 39 + index * 13, { font: fonts.regular, size: 9.5, color: COLOURS.ink });
  });
}

const COLUMNS = {
  service: MARGIN + 12,
  weight: RIGHT - 228,
  qty: RIGHT - 172,
  unit: RIGHT - 92,
  amount: RIGHT - 12,
};

/** Returns the distance from the top where the table ends. */
function drawItems(canvas: Canvas, fonts: Fonts, items: LineItem[]): number {
  const top = 352;
  const headerHeight = 24;
  const rowHeight = 32;
  canvas.box(MARGIN, top, CONTENT_WIDTH, headerHeight, COLOURS.navy);
  const head = { font: fonts.bold, size: 8, color: COLOURS.white } as const;
  canvas.text('SERVICE', COLUMNS.service, top + 15.5, head);
  canvas.text('WEIGHT', COLUMNS.weight, top + 15.5, { ...head, align: 'right' });
  canvas.text('QTY', COLUMNS.qty, top + 15.5, { ...head, align: 'right' });
  canvas.text('UNIT PRICE', COLUMNS.unit, top + 15.5, { ...head, align: 'right' });
  canvas.text('AMOUNT', COLUMNS.amount, top + 15.5, { ...head, align: 'right' });

  items.forEach((item, index) => {
    const rowTop = top + headerHeight + index * rowHeight;
    if (index % 2 === 1) canvas.box(MARGIN, rowTop, CONTENT_WIDTH, rowHeight, COLOURS.panel);
    const body = { font: fonts.regular, size: 9.5, color: COLOURS.ink } as const;
    const numbers = { ...body, align: 'right' } as const;
    canvas.text(item.service, COLUMNS.service, rowTop + 14, { ...body, font: fonts.bold });
    canvas.text(item.detail, COLUMNS.service, rowTop + 25, { ...body, size: 7.5, color: COLOURS.muted });
    const weight = item.weightKg === undefined ? '\u2014' : `${item.weightKg.toFixed(1)} kg`;
    canvas.text(weight, COLUMNS.weight, rowTop + 19, numbers);
    canvas.text(String(item.qty), COLUMNS.qty, rowTop + 19, numbers);
    canvas.text(formatMoney(item.unitPence), COLUMNS.unit, rowTop + 19, numbers);
    canvas.text(formatMoney(lineTotal(item)), COLUMNS.amount, rowTop + 19, numbers);
  });

  const bottom = top + headerHeight + items.length * rowHeight;
  canvas.rule(MARGIN, RIGHT, bottom, COLOURS.navy, 1);
  return bottom;
}

function drawTotals(canvas: Canvas, fonts: Fonts, top: number, subtotal: number, vat: number): void {
  const left = RIGHT - 210;
  const rows: [string, string][] = [
    ['Subtotal', formatMoney(subtotal)],
    [`VAT (${VAT_RATE_PERCENT}%)`, formatMoney(vat)],
  ];
  rows.forEach(([label, value], index) => {
    const rowTop = top + 20 + index * 18;
    canvas.text(label, left + 12, rowTop, { font: fonts.regular, size: 9.5, color: COLOURS.muted });
    canvas.text(value, COLUMNS.amount, rowTop, { font: fonts.regular, size: 9.5, align: 'right' });
  });
  const totalTop = top + 48;
  canvas.box(left, totalTop, RIGHT - left, 30, COLOURS.navy);
  canvas.text('Total due (GBP)', left + 12, totalTop + 19, { font: fonts.bold, size: 10, color: COLOURS.white });
  canvas.text(formatMoney(subtotal + vat), COLUMNS.amount, totalTop + 19.5, {
    font: fonts.bold,
    size: 13,
    color: COLOURS.white,
    align: 'right',
  });
}

function drawPaymentTerms(canvas: Canvas, fonts: Fonts, top: number, data: InvoiceData): void {
  canvas.text('PAYMENT TERMS', MARGIN, top + 20, { font: fonts.bold, size: 7.5, color: COLOURS.muted });
  const lines = [
    `Payment is due within ${PAYMENT_DAYS} days of the invoice date, by ${formatDate(data.dueDate)}.`,
    `Please quote ${data.number} as the payment reference.`,
    'Late payments may incur interest under the Late Payment of',
    'Commercial Debts (Interest) Act 1998.',
  ];
  lines.forEach((line, index) => {
    const color = index >= 2 ? COLOURS.muted : COLOURS.ink;
    canvas.text(line, MARGIN, top + 36 + index * 12.5, { font: fonts.regular, size: 8.5, color });
  });
}

/** A tear-off slip, as on paper invoices, so the payment details sit in one predictable place. */
function drawRemittance(canvas: Canvas, fonts: Fonts, data: InvoiceData, totalPence: number): void {
  const top = 640;
  canvas.dashedRule(MARGIN, RIGHT, top);
  canvas.text('Please detach and return with your payment', RIGHT, top - 5, {
    font: fonts.regular,
    size: 6.5,
    color: COLOURS.muted,
    align: 'right',
  });
  canvas.text('REMITTANCE ADVICE', MARGIN, top + 22, { font: fonts.bold, size: 7.5, color: COLOURS.muted });

  const code = fitText(fonts.bold, toWinAnsi(fonts.bold, data.parcelCode), 9, 80, 6);
  const fields: [string, string, number][] = [
    ['Account', data.account, 9],
    ['Invoice no.', data.number, 9],
    ['Parcel code', code.value, code.size],
    ['Amount due', formatMoney(totalPence), 9],
  ];
  fields.forEach(([label, value, size], index) => {
    const rowTop = top + 40 + index * 15;
    canvas.text(label, MARGIN, rowTop, { font: fonts.regular, size: 8.5, color: COLOURS.muted });
    canvas.text(value, MARGIN + 70, rowTop, { font: fonts.bold, size, color: COLOURS.ink });
  });

  const boxLeft = RIGHT - 240;
  canvas.box(boxLeft, top + 30, RIGHT - boxLeft, 62, COLOURS.panel);
  canvas.box(boxLeft, top + 30, 3, 62, COLOURS.navy);
  canvas.text('Pay by bank transfer', boxLeft + 14, top + 46, { font: fonts.bold, size: 9, color: COLOURS.navy });
  const bank: [string, string][] = [
    ['Bank', CARRIER.bank.name],
    ['Sort code / account', `${CARRIER.bank.sortCode}  /  ${CARRIER.bank.account}`],
    ['Reference', data.number],
  ];
  bank.forEach(([label, value], index) => {
    const rowTop = top + 61 + index * 11.5;
    canvas.text(label, boxLeft + 14, rowTop, { font: fonts.regular, size: 7.5, color: COLOURS.muted });
    canvas.text(value, RIGHT - 12, rowTop, { font: fonts.bold, size: 7.5, color: COLOURS.ink, align: 'right' });
  });
}

function drawFooter(canvas: Canvas, fonts: Fonts): void {
  const top = A4.height - 66;
  canvas.text('Thank you for shipping with Northwind Parcel.', A4.width / 2, top - 22, {
    font: fonts.bold,
    size: 9.5,
    color: COLOURS.navy,
    align: 'center',
  });
  canvas.rule(MARGIN, RIGHT, top);
  const small = { font: fonts.regular, size: 7.5, color: COLOURS.muted, align: 'center' } as const;
  canvas.text(`${CARRIER.name}  \u00b7  ${CARRIER.address}`, A4.width / 2, top + 16, small);
  canvas.text(CARRIER.registration, A4.width / 2, top + 28, small);
  canvas.text('Demonstration invoice  \u00b7  Page 1 of 1', A4.width / 2, top + 40, small);
  canvas.box(0, A4.height - 8, A4.width, 8, COLOURS.navy);
}

/**
 * Renders a single-page A4 demo invoice. `variant` (a non-negative integer, default 0) yields a
 * different but equally deterministic invoice for the same parcel, e.g. to exercise replacement.
 */
export async function renderDemoInvoicePdf(parcelCode: string, variant = 0): Promise<Uint8Array> {
  if (!Number.isSafeInteger(variant) || variant < 0) {
    throw new RangeError(`variant must be a non-negative integer, got ${variant}`);
  }
  const data = buildInvoiceData(parcelCode, variant);
  const subtotal = data.items.reduce((sum, item) => sum + lineTotal(item), 0);
  const vat = Math.round((subtotal * VAT_RATE_PERCENT) / 100);

  // updateMetadata: false stops pdf-lib stamping "now" and its own producer into the Info dictionary.
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const issued = new Date(data.invoiceDate.getTime() + 9 * 3_600_000);
  doc.setTitle(`Invoice ${data.number} \u2014 parcel ${parcelCode}`);
  doc.setAuthor(CARRIER.name);
  doc.setSubject(`Parcel invoice ${parcelCode}`);
  doc.setCreator('Parcel Invoice Portal demo data');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);

  const canvas = new Canvas(doc.addPage([A4.width, A4.height]));
  drawHeader(canvas, fonts, data);
  drawParcelPanel(canvas, fonts, data, subtotal + vat);
  drawAddress(canvas, fonts, 'BILL TO (SENDER)', data.sender, MARGIN);
  drawAddress(canvas, fonts, 'DELIVER TO (RECIPIENT)', data.recipient, MARGIN + CONTENT_WIDTH / 2 + 10);
  const tableBottom = drawItems(canvas, fonts, data.items);
  drawTotals(canvas, fonts, tableBottom, subtotal, vat);
  drawPaymentTerms(canvas, fonts, tableBottom, data);
  drawRemittance(canvas, fonts, data, subtotal + vat);
  drawFooter(canvas, fonts);

  return doc.save({ useObjectStreams: true });
}
