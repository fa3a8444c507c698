import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** A tiny but well-formed-enough PDF whose bytes differ per label. */
export const fakePdf = (label: string, padTo = 0) => {
  const text = `%PDF-1.7\n% invoice ${label}\n`;
  return Buffer.concat([
    Buffer.from(text),
    Buffer.alloc(Math.max(0, padTo - text.length - 6), 0x20),
    Buffer.from('\n%%EOF'),
  ]);
};

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every file under the store's folder (temporary ones included), so a test can see nothing was left. */
export async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
