/**
 * `npm run bench:bundle`: builds the SPA and prints the gzip size of the JavaScript each screen loads.
 * The login page loads index.html's scripts: the entry with its preloaded chunks, and the plain ones; the other screens add their
 * lazily loaded chunks on top (found through Vite's manifest).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb, REPO_ROOT } from '@portal/dev-stack';
import { closure, firstLoadFiles, readManifest } from './lib/first-load.ts';

const LOGIN_BUDGET_KB = 160;
const dist = path.join(REPO_ROOT, 'apps/web/dist');

if (!process.argv.includes('--no-build')) await buildWeb();
const manifest = readManifest(dist);
const gzipKb = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;
const first = firstLoadFiles(dist);
const total = (files: Iterable<string>) =>
  [...files].filter((file) => file.endsWith('.js')).reduce((sum, file) => sum + gzipKb(file), 0);

const rows: [string, number][] = [['login page (first load)', total(first)]];
for (const [label, needle] of [
  ['invoice screen (added)', 'InvoiceScreen'],
  ['admin screen (added)', 'AdminUsersScreen'],
  ['forgot-password modal (added)', 'ForgotPasswordModal'],
  ['Sentry SDK, when a DSN is set (added)', 'sentry-sdk'],
] as const) {
  const key = Object.keys(manifest).find((candidate) => candidate.includes(needle));
  if (!key) continue;
  const added = [...closure(manifest, key)].filter((file) => !first.has(file));
  rows.push([label, total(added)]);
}

for (const [label, kb] of rows) console.log(`${label.padEnd(40)} ${kb.toFixed(1).padStart(7)} KB gzip`);
const login = rows[0]?.[1] ?? 0;
console.log(`\nlogin page budget ${LOGIN_BUDGET_KB} KB: ${login <= LOGIN_BUDGET_KB ? 'within' : 'OVER'}`);
