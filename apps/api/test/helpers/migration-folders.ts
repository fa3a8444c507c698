import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationJournal } from '../../src/db/client.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/db/migrations', import.meta.url));

export interface JournalEntry {
  tag: string;
  when: number;
  /** Replaces the entry's SQL file (a migration as it once shipped, or one a test adds). */
  sql?: string;
}

/**
 * A copy of this release's migrations folder whose journal lists `entries` (some of this release's, as they
 * are or as they once were, and any a test adds): a database can be taken to an earlier or a later level
 * with drizzle's own migrator.
 */
export async function migrationsFolderWith(entries: JournalEntry[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-migrations-'));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  for (const entry of entries) {
    if (entry.sql !== undefined) await writeFile(path.join(dir, `${entry.tag}.sql`), entry.sql);
  }
  const journal = {
    version: '7',
    dialect: 'postgresql',
    entries: entries.map((entry, idx) => ({ idx, version: '7', when: entry.when, tag: entry.tag, breakpoints: true })),
  };
  await writeFile(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal, null, 2));
  return dir;
}

export const releaseJournal = () => readMigrationJournal(MIGRATIONS_DIR);
