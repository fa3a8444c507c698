import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { DEFAULT_VISIBLE_TEXT_LIMITS, readVisibleAccounts } from './visible-text.ts';

async function pdfSaying(...lines: string[]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  lines.forEach((line, index) => page.drawText(line, { x: 50, y: 780 - index * 20, size: 11, font }));
  return document.save();
}

describe('readVisibleAccounts', () => {
  it('finds the IBANs the pages show, and leaves the bytes it was given as they were', async () => {
    const pdf = await pdfSaying(
      'Bankverbindung',
      'IBAN DE02 1203 0000 0000 2020 51 · BIC BYLADEM1001',
      'Summe 529,87 EUR',
    );
    const copy = pdf.slice();
    assert.deepEqual(await readVisibleAccounts(pdf), {
      ibans: ['DE02120300000000202051'],
      accounts: ['DE02120300000000202051'],
    });
    assert.deepEqual(pdf, copy);
  });

  it('answers why, instead of throwing, for what it cannot read or what is over its limits', async () => {
    const broken = await readVisibleAccounts(new TextEncoder().encode('%PDF-1.7\nnot really a PDF\n%%EOF\n'));
    assert.match('unreadable' in broken ? broken.unreadable : '', /^PDF.js could not read it \(.+\)$/);
    const pdf = await pdfSaying('IBAN DE02 1203 0000 0000 2020 51');
    assert.deepEqual(await readVisibleAccounts(pdf, { ...DEFAULT_VISIBLE_TEXT_LIMITS, maxChars: 10 }), {
      unreadable: 'its text is longer than 10 characters',
    });
    assert.deepEqual(await readVisibleAccounts(pdf, { ...DEFAULT_VISIBLE_TEXT_LIMITS, timeoutMs: 0 }), {
      unreadable: 'it took longer than 0 ms',
    });
  });
});
