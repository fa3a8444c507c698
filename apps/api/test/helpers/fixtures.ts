import { asc, count, eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { invoiceVersions, users } from '../../src/db/schema.ts';
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

/** Every stored version of a parcel code, oldest first: the history no product screen shows yet. */
export async function invoiceVersionsOf(database: DatabaseHandle, parcelCode: string) {
  return database.db
    .select()
    .from(invoiceVersions)
    .where(eq(invoiceVersions.parcelCode, parcelCode))
    .orderBy(asc(invoiceVersions.id));
}

/** How many administrators the allowlist holds. */
export async function adminCount(database: DatabaseHandle) {
  const [row] = await database.db.select({ total: count() }).from(users).where(eq(users.admin, true));
  return row?.total ?? 0;
}
