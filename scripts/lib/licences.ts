/**
 * The third-party packages production runs and their licences: what `npm run notice` writes to NOTICE and what
 * `npm run test:production` checks against the allow-list of decision 81. A package is read from the folder npm
 * installed it in (its package.json and its licence files), so the list is what the image carries, not what a
 * registry says.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Licences production may carry: permissive ones whose only duty is to keep the notice (NOTICE does).
 * Anything else — copyleft, source-available (FSL, BUSL, SSPL, Elastic, Commons Clause), none at all — fails.
 */
export const ALLOWED_LICENCES = new Set([
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC0-1.0',
  'CC-BY-4.0',
  'ISC',
  'MIT',
  'MIT-0',
  'Python-2.0',
  'Unlicense',
  'Zlib',
]);

/** Licences that are named outright as refused, so a failure says why rather than just "not allowed". */
const SOURCE_AVAILABLE = /(^|[\s(])(FSL|BUSL|SSPL|Elastic|Commons-Clause|PolyForm)|Commons Clause/i;

export interface InstalledPackage {
  name: string;
  version: string;
  /** The SPDX expression as declared (`license`, else the legacy `licenses` array joined with OR). */
  licence: string | undefined;
  repository: string | undefined;
  /** The package's folder. */
  dir: string;
}

function declaredLicence(manifest: Record<string, unknown>): string | undefined {
  const { license, licenses } = manifest;
  if (typeof license === 'string' && license.trim()) return license.trim();
  if (license && typeof license === 'object' && typeof (license as { type?: unknown }).type === 'string')
    return (license as { type: string }).type;
  // The field before npm 2: an array of {type, url}; any of them may be chosen.
  if (Array.isArray(licenses)) {
    const types = licenses.map((entry: { type?: unknown }) => entry?.type).filter((t) => typeof t === 'string');
    if (types.length > 0) return types.length === 1 ? types[0] : `(${types.join(' OR ')})`;
  }
  return undefined;
}

function repositoryOf(manifest: Record<string, unknown>): string | undefined {
  const { repository } = manifest;
  const raw =
    typeof repository === 'string' ? repository : ((repository as { url?: string } | undefined)?.url ?? undefined);
  if (!raw) return undefined;
  return raw
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^github:/, 'https://github.com/')
    .replace(/^(?!\w+:)([\w.-]+\/[\w.-]+)$/, 'https://github.com/$1')
    .replace(/\.git$/, '');
}

/**
 * Every package installed under `root`'s node_modules folders (nested ones and the workspaces' own included),
 * once per name and version. Workspace links (the repository's own packages) are not third-party and are skipped.
 */
export function installedPackages(root: string): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visitModules = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(modules, entry.name);
      if (entry.name.startsWith('@') && entry.isDirectory()) {
        for (const scoped of readdirSync(full, { withFileTypes: true })) {
          if (scoped.isDirectory()) visitPackage(path.join(full, scoped.name));
        }
      } else if (entry.isDirectory()) {
        visitPackage(full);
      }
    }
  };
  const visitPackage = (dir: string) => {
    const manifestPath = path.join(dir, 'package.json');
    if (existsSync(manifestPath)) {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
      const name = String(manifest.name ?? path.basename(dir));
      const version = String(manifest.version ?? '');
      const key = `${name}@${version}`;
      if (!found.has(key))
        found.set(key, { name, version, licence: declaredLicence(manifest), repository: repositoryOf(manifest), dir });
    }
    visitModules(path.join(dir, 'node_modules'));
  };
  visitModules(path.join(root, 'node_modules'));
  for (const workspace of ['apps', 'packages']) {
    const base = path.join(root, workspace);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      if (entry.isDirectory()) visitModules(path.join(base, entry.name, 'node_modules'));
    }
  }
  visitModules(path.join(root, 'e2e', 'node_modules'));
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The licence identifiers of an SPDX expression that must all hold for it (one branch of each OR suffices). */
export function licenceVerdict(expression: string | undefined): { allowed: boolean; reason: string } {
  if (!expression) return { allowed: false, reason: 'no licence declared' };
  if (SOURCE_AVAILABLE.test(expression)) return { allowed: false, reason: `source-available licence ${expression}` };
  const allowed = (text: string): boolean => {
    const trimmed = text
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .trim();
    const orParts = splitTop(trimmed, 'OR');
    if (orParts.length > 1) return orParts.some(allowed);
    const andParts = splitTop(trimmed, 'AND');
    if (andParts.length > 1) return andParts.every(allowed);
    // "MIT WITH exception" is MIT with more permission.
    const id = trimmed.replace(/\s+WITH\s+.*$/, '').replace(/\+$/, '');
    return ALLOWED_LICENCES.has(id);
  };
  return allowed(expression)
    ? { allowed: true, reason: expression }
    : { allowed: false, reason: `licence ${expression} is not on the allow-list` };
}

/** Splits at `operator` outside parentheses. */
function splitTop(text: string, operator: 'AND' | 'OR'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  const tokens = text.split(/(\(|\)|\s+)/);
  let offset = 0;
  for (const token of tokens) {
    if (token === '(') depth += 1;
    else if (token === ')') depth -= 1;
    else if (depth === 0 && token === operator) {
      parts.push(text.slice(start, offset));
      start = offset + token.length;
    }
    offset += token.length;
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** The licence files a package ships (LICENSE, LICENCE, COPYING, with or without an extension). */
function licenceFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^(licen[cs]e|copying)([.-].*)?$/i.test(name))
    .sort()
    .map((name) => path.join(dir, name));
}

function noticeFile(dir: string): string | undefined {
  const name = readdirSync(dir).find((entry) => /^notice(\.(md|txt))?$/i.test(entry));
  return name ? path.join(dir, name) : undefined;
}

// A copyright line, not the licence's own words about copyright ("copyright notice", Apache's "(c) You must
// retain", its appendix's "Copyright [yyyy] [name of copyright owner]").
const COPYRIGHT = /^\s*(\(c\)\s*\d|©|copyright\b)(?!\s+(notice|holders?|owner|license|statement|\[yyyy\]|\{yyyy\})\b)/i;

/**
 * NOTICE: the project's own notice, then every third-party package with its version, licence, home and the
 * copyright lines of its licence file; then, once per licence, the licence's text as a package ships it (its
 * copyright lines left out, they are listed per package above); then the NOTICE files Apache-2.0 packages ask
 * redistributors to pass on. Deterministic: the same installed tree gives the same bytes.
 */
export function renderNotice(packages: InstalledPackage[]): string {
  const lines: string[] = [
    'Parcel Invoice Portal',
    'Copyright (c) 2026 the Parcel Invoice Portal authors. All rights reserved.',
    '',
    'This software includes the third-party packages below, installed in production (`npm ci --omit=dev`) or',
    'compiled into the server (apps/api/dist). Each is used under the licence named beside it. Generated by',
    '`npm run notice`; `npm run test:production` fails when it no longer matches the production install.',
    '',
    '================================================================================',
    'Third-party packages',
    '================================================================================',
    '',
  ];
  const texts = new Map<string, string>();
  const notices: string[] = [];
  for (const pkg of packages) {
    lines.push(`${pkg.name} ${pkg.version}`, `  Licence: ${pkg.licence ?? 'none declared'}`);
    if (pkg.repository) lines.push(`  Source: ${pkg.repository}`);
    const files = licenceFiles(pkg.dir);
    const copyrights = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
      for (const line of text.split('\n')) if (COPYRIGHT.test(line)) copyrights.add(line.trim());
      const key = pkg.licence ?? 'none declared';
      if (!texts.has(key)) {
        texts.set(
          key,
          text
            .split('\n')
            .filter((line) => !COPYRIGHT.test(line))
            .join('\n')
            .trim(),
        );
      }
    }
    for (const copyright of [...copyrights].sort()) lines.push(`  ${copyright}`);
    const notice = noticeFile(pkg.dir);
    if (notice) {
      notices.push(
        `--- ${pkg.name} ${pkg.version} ---`,
        readFileSync(notice, 'utf8').replace(/\r\n?/g, '\n').trim(),
        '',
      );
    }
    lines.push('');
  }
  lines.push(
    '================================================================================',
    'Licence texts (one per licence, as a package above ships it)',
    '================================================================================',
    '',
  );
  for (const [licence, text] of [...texts].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`--- ${licence} ---`, text, '');
  }
  if (notices.length > 0) {
    lines.push(
      '================================================================================',
      'NOTICE files of the packages above',
      '================================================================================',
      '',
      ...notices,
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A table of licence → packages, for the test's log and a review. */
export function licenceTable(packages: InstalledPackage[]): string {
  const byLicence = new Map<string, string[]>();
  for (const pkg of packages) {
    const key = pkg.licence ?? '(none)';
    byLicence.set(key, [...(byLicence.get(key) ?? []), `${pkg.name}@${pkg.version}`]);
  }
  return [...byLicence]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(
      ([licence, names]) =>
        `${String(names.length).padStart(4)}  ${licence}${names.length <= 3 ? `  (${names.join(', ')})` : ''}`,
    )
    .join('\n');
}

/** A package folder read as installed (a package compiled into the API's bundles, found in the dev tree). */
export function packageAt(dir: string): InstalledPackage {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  return {
    name: String(manifest.name),
    version: String(manifest.version),
    licence: declaredLicence(manifest),
    repository: repositoryOf(manifest),
    dir,
  };
}

/**
 * What production carries from third parties: the packages installed in `installRoot` by
 * `npm ci --omit=dev` and those compiled into the API's bundles (their folders in `bundledDirs`), each once.
 */
export function productionPackages(installRoot: string, bundledDirs: string[]): InstalledPackage[] {
  const all = new Map<string, InstalledPackage>();
  for (const pkg of [...installedPackages(installRoot), ...bundledDirs.map(packageAt)]) {
    all.set(`${pkg.name}@${pkg.version}`, all.get(`${pkg.name}@${pkg.version}`) ?? pkg);
  }
  return [...all.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** Every package whose licence production may not carry, with the reason. */
export function refusedPackages(packages: InstalledPackage[]): string[] {
  return packages.flatMap((pkg) => {
    const verdict = licenceVerdict(pkg.licence);
    return verdict.allowed ? [] : [`${pkg.name}@${pkg.version}: ${verdict.reason}`];
  });
}
