/**
 * Hostile uploads, made by code rather than kept as binary files, so each says how it is built. The PDFs
 * are the smallest shape that pdf-lib's loader acts on: one indirect object that is an object stream or a
 * cross-reference stream, and a trailer. Nothing here is a valid invoice; all of it is something a
 * security review sent, or its relatives.
 */
import { buffer } from 'node:stream/consumers';
import { createDeflate, deflateSync } from 'node:zlib';

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
async function deflatedZeros(megabytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const output = buffer(deflate);
  const zeros = Buffer.alloc(MB);
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
 * How far this process's resident memory rose above where it started while `run` ran: the reader's workers
 * are threads of this process, so their memory is in it. Sampled every few milliseconds, and taken from the
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
