/**
 * The script a page loads before it can draw: index.html's entry chunk and its static imports (Vite's
 * manifest), and the plain scripts index.html names. The login page's goal for it is asserted by
 * `npm run test:production` and printed by `npm run bench:frontend` and `npm run bench:bundle`, all from here.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export function readManifest(dist: string): Record<string, ManifestChunk> {
  return JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
}

/** A chunk and everything it imports statically, once each. */
export function closure(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

/** The login page's script until the network is idle, brotli as sent, at most (decisions 14, 41, 111 and 123). */
export const LOGIN_FIRST_LOAD_BUDGET_BYTES = 70 * 1024;

export function firstLoadFiles(dist: string): Set<string> {
  const manifest = readManifest(dist);
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the Vite manifest');
  const files = closure(manifest, entryKey);
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  for (const [, src] of html.matchAll(/<script(?![^>]*type="module")[^>]*\ssrc="\/([^"]+)"/g)) files.add(src!);
  return files;
}

/** Bytes of the brotli twins the server sends (the build writes a .br beside every text file). */
export function brotliBytes(dist: string, files: Iterable<string>): number {
  return [...files]
    .filter((file) => file.endsWith('.js'))
    .reduce((sum, file) => sum + statSync(path.join(dist, `${file}.br`)).size, 0);
}

/** The login page's first-load script in bytes as sent (brotli). */
export const loginFirstLoadBytes = (dist: string) => brotliBytes(dist, firstLoadFiles(dist));
