/**
 * Hostile uploads, made by code rather than kept as binary files, so each says how it is built. The PDFs
 * are the smallest shape that pdf-lib's loader acts on: one indirect object that is an object stream or a
 * cross-reference stream, and a trailer. Nothing here is a valid invoice; all of it is something a
 * security review sent, or its relatives.
 */
import { buffer } from 'node:stream/consumers';
import { createDeflate, deflateSync } from 'node:zlib';
import { AFRelationship, type PDFContext, PDFDocument, PDFName, PDFRawStream, type PDFRef } from '@cantoo/pdf-lib';

const MB = 1024 * 1024;

/** Bytes of one indirect stream object `1 0 obj` with the dictionary entries given, in a minimal PDF. */
function pdfWithStream(dictionary: string, contents: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from(`%PDF-1.7\n1 0 obj\n<< ${dictionary} /Length ${contents.length} >>\nstream\n`, 'latin1'),
    contents,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 2 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

const STREAM_TYPES = {
  object: '/Type /ObjStm /N 1 /First 4',
  'cross-reference': '/Type /XRef /Size 3 /W [1 2 1]',
};

/**
 * The review's bomb: `megabytes` of zeros, Flate-compressed twice (250 MB → 250 KB → under a kilobyte), as
 * an object stream or a cross-reference stream, which pdf-lib decoded whole while loading. About 700 bytes.
 */
export async function chainedFlatePdf(kind: keyof typeof STREAM_TYPES, megabytes = 250): Promise<Buffer> {
  const twice = deflateSync(await deflatedZeros(megabytes), { level: 9 });
  return pdfWithStream(`${STREAM_TYPES[kind]} /Filter [/FlateDecode /FlateDecode]`, twice);
}

/** A single Flate filter, as real PDFs have, over `megabytes` of zeros: about a thousandth of that in bytes. */
export async function flateObjectStreamPdf(megabytes: number): Promise<Buffer> {
  return pdfWithStream(`${STREAM_TYPES.object} /Filter /FlateDecode`, await deflatedZeros(megabytes));
}

/** Zeros deflated a megabyte at a time: making the bomb must not take the memory it is meant to cost. */
async function deflatedZeros(megabytes: number, fill = 0): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const output = buffer(deflate);
  const zeros = Buffer.alloc(MB, fill);
  for (let written = 0; written < megabytes; written += 1) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  return output;
}

/** A cross-reference stream of a few bytes that declares a hundred million entries. */
export function crossReferenceEntriesPdf(): Buffer {
  return pdfWithStream('/Type /XRef /Size 100000000 /W [1 2 1]', Buffer.from([1, 0, 0, 0]));
}

/** A CII root, so the reader cannot refuse the document by its root element before reading the rest. */
const CII_OPEN = '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">';
const CII_CLOSE = '</rsm:CrossIndustryInvoice>';

/** Elements nested as deep as `megabytes` of `<a>` go. */
export function deepXml(megabytes: number): Buffer {
  const depth = Math.floor((megabytes * MB) / 3);
  return Buffer.from(`${CII_OPEN}${'<a>'.repeat(depth)}${CII_CLOSE}`);
}

/** One element with as many attributes as `megabytes` hold. */
export function manyAttributesXml(megabytes: number): Buffer {
  const count = Math.floor((megabytes * MB) / 12);
  const attributes = Array.from({ length: count }, (_, index) => `a${index}="x"`).join(' ');
  return Buffer.from(`${CII_OPEN}<e ${attributes}/>${CII_CLOSE}`);
}

/** `megabytes` of empty sibling elements: more of them than the element limit, each cheap to write. */
export function manyElementsXml(megabytes: number): Buffer {
  return Buffer.from(`${CII_OPEN}${'<e/>'.repeat(Math.floor((megabytes * MB) / 4))}${CII_CLOSE}`);
}

/** Character references only, within every limit but slow to read: the time budget's case. */
export function slowTextXml(megabytes: number): Buffer {
  return Buffer.from(`${CII_OPEN}<e>${'&#x41;'.repeat(Math.floor((megabytes * MB) / 6))}</e>${CII_CLOSE}`);
}

/**
 * How far this process's resident memory rose above where it started while `run` ran (a reader process's
 * memory is its own: the pool reports it, `peakRssBytes`). Sampled every few milliseconds, and taken from the
 * process's high-water mark when that rose (it catches a peak inside one synchronous step, which the
 * samples cannot).
 */
export async function peakRssGrowth<T>(run: () => Promise<T>): Promise<{ result: T; growthMb: number; ms: number }> {
  const start = process.memoryUsage.rss();
  const highWaterKb = process.resourceUsage().maxRSS;
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  const started = performance.now();
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage.rss());
    const highWaterAfterKb = process.resourceUsage().maxRSS;
    if (highWaterAfterKb > highWaterKb) peak = Math.max(peak, highWaterAfterKb * 1024);
    return { result, growthMb: (peak - start) / MB, ms: performance.now() - started };
  } finally {
    clearInterval(sampler);
  }
}

/** A stream already Flate-compressed, registered as it is (pdf-lib's own helpers would compress it again). */
function flateStream(context: PDFContext, compressed: Uint8Array, entries: Record<string, unknown> = {}): PDFRef {
  const dict = context.obj({ ...entries, Filter: 'FlateDecode', Length: compressed.length });
  return context.register(PDFRawStream.of(dict, compressed));
}

/** `megabytes` of spaces (the emptiest content a page can have), deflated: about a thousandth of that in bytes. */
const deflatedSpaces = (megabytes: number) => deflatedZeros(megabytes, 0x20);

/** A page whose text says where to pay, so the PDFs below are otherwise what an invoice looks like. */
async function invoicePage(document: PDFDocument) {
  const page = document.addPage([595, 842]);
  page.drawText('Invoice 4711 - IBAN DE02 1203 0000 0000 2020 51', { x: 50, y: 780, size: 11 });
  return page;
}

/**
 * The shapes a content-stream bomb takes: PDF.js reads every page's content, every form each time a page
 * draws it, and every font program, with decoders that have no output limit. Each is a valid PDF that
 * pdf-lib loads and PDF.js would read (for minutes, in gigabytes).
 */
export const contentBombs = {
  /** The review's bomb: one page whose content stream is `megabytes` of spaces (2,000 → about 2 MB). */
  async onePage(megabytes = 2000): Promise<Buffer> {
    const document = await PDFDocument.create();
    const page = await invoicePage(document);
    page.node.set(PDFName.of('Contents'), flateStream(document.context, await deflatedSpaces(megabytes)));
    return Buffer.from(await document.save({ useObjectStreams: false }));
  },

  /** `pages` pages of 4 MB of content each: each within the budget, together far past it. */
  async severalPages(pages = 25): Promise<Buffer> {
    const document = await PDFDocument.create();
    const content = await deflatedSpaces(4);
    for (let index = 0; index < pages; index += 1) {
      const page = await invoicePage(document);
      page.node.set(PDFName.of('Contents'), flateStream(document.context, content));
    }
    return Buffer.from(await document.save({ useObjectStreams: false }));
  },

  /** One 1 MB content stream that the page's /Contents names `times` times over. */
  async repeatedContents(times = 5000): Promise<Buffer> {
    const document = await PDFDocument.create();
    const page = await invoicePage(document);
    const content = flateStream(document.context, await deflatedSpaces(1));
    page.node.set(PDFName.of('Contents'), document.context.obj(Array.from({ length: times }, () => content)));
    return Buffer.from(await document.save({ useObjectStreams: false }));
  },

  /**
   * Forms that each draw the form below them 16 times, `levels` deep, over a 64 KB form: a page drawing the
   * top one draws the bottom one 16^levels times (16^6 × 64 KB = 1 TB), from a file of a few kilobytes.
   * Saved with object streams, so the page and form dictionaries also sit in compressed object streams.
   */
  async nestedForms(levels = 6): Promise<Buffer> {
    const document = await PDFDocument.create();
    const { context } = document;
    const page = await invoicePage(document);
    const form = (content: Uint8Array, resources?: PDFRef) =>
      flateStream(context, deflateSync(content), {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 595, 842],
        ...(resources ? { Resources: { XObject: { F: resources } } } : {}),
      });
    let below = form(Buffer.alloc(64 * 1024, 0x20));
    for (let level = 0; level < levels; level += 1) below = form(Buffer.from('/F Do\n'.repeat(16)), below);
    const contents = context.register(context.flateStream('q /Top Do Q'));
    page.node.set(PDFName.of('Contents'), context.obj([page.node.get(PDFName.of('Contents'))!, contents]));
    page.node.setXObject(PDFName.of('Top'), below);
    return Buffer.from(await document.save({ useObjectStreams: true }));
  },

  /** A form that draws itself: a reader that follows it never finishes. */
  async selfDrawingForm(): Promise<Buffer> {
    const document = await PDFDocument.create();
    const { context } = document;
    const page = await invoicePage(document);
    const dict = context.obj({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10] });
    const self = context.register(PDFRawStream.of(dict, Buffer.from('/Me Do')));
    dict.set(PDFName.of('Resources'), context.obj({ XObject: { Me: self } }));
    const contents = context.register(context.flateStream('/Me Do'));
    page.node.set(PDFName.of('Contents'), context.obj([page.node.get(PDFName.of('Contents'))!, contents]));
    page.node.setXObject(PDFName.of('Me'), self);
    return Buffer.from(await document.save({ useObjectStreams: false }));
  },

  /** The page's font program, which PDF.js decodes to map glyphs to text, `megabytes` of zeros. */
  async fontProgram(megabytes = 500): Promise<Buffer> {
    const document = await PDFDocument.create();
    const { context } = document;
    const page = await invoicePage(document);
    const program = flateStream(context, await deflatedZeros(megabytes), { Length1: megabytes * MB });
    const descriptor = context.obj({
      Type: 'FontDescriptor',
      FontName: 'Bomb',
      Flags: 32,
      FontBBox: [0, 0, 1000, 1000],
      ItalicAngle: 0,
      Ascent: 800,
      Descent: -200,
      CapHeight: 700,
      StemV: 80,
      FontFile2: program,
    });
    const font = context.obj({ Type: 'Font', Subtype: 'TrueType', BaseFont: 'Bomb', FontDescriptor: descriptor });
    page.node.setFontDictionary(PDFName.of('Bomb'), context.register(font));
    const contents = context.register(context.flateStream('BT /Bomb 12 Tf 50 700 Td (pay) Tj ET'));
    page.node.set(PDFName.of('Contents'), context.obj([page.node.get(PDFName.of('Contents'))!, contents]));
    return Buffer.from(await document.save({ useObjectStreams: false }));
  },

  /**
   * A hybrid whose attached XML is real and whose page content is 12 MB of spaces, each under the default
   * 20 MB budget alone: `xml` is padded to 9 MB, so only a budget both paths count against refuses it.
   */
  async attachmentAndContent(xml: Uint8Array): Promise<Buffer> {
    const document = await PDFDocument.create();
    const page = await invoicePage(document);
    page.node.set(PDFName.of('Contents'), flateStream(document.context, await deflatedSpaces(12)));
    const padded = Buffer.concat([xml, Buffer.alloc(9 * MB - xml.length, 0x20)]);
    await document.attach(padded, 'factur-x.xml', { mimeType: 'text/xml', afRelationship: AFRelationship.Data });
    return Buffer.from(await document.save({ useObjectStreams: false }));
  },
};
