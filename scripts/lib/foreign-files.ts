import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The project holds only what its own people wrote: another project's code or data is installed as a package
 * (node_modules, listed in NOTICE) or read from outside the repository, never copied in. This finds what looks
 * copied in: a file that carries another project's licence header, or a folder that brought its own licence
 * or package manifest.
 */

/** The project's own licence, as its package manifests and any SPDX line of its own state it. */
export const PROJECT_LICENCE = 'UNLICENSED';

/**
 * Phrases that open another project's licence header. Written with `\s+` between the words, so this file does not
 * match itself.
 */
const FOREIGN_HEADERS: { name: string; pattern: RegExp }[] = [
  { name: 'Apache licence header', pattern: /Licensed\s+under\s+the\s+Apache\s+License/i },
  { name: 'MIT licence header', pattern: /Permission\s+is\s+hereby\s+granted,\s+free\s+of\s+charge/i },
  { name: 'EUPL licence header', pattern: /Licensed\s+under\s+the\s+EUPL|European\s+Union\s+Public\s+Licen[cs]e/i },
  { name: 'GPL licence header', pattern: /GNU\s+(Lesser\s+|Affero\s+)?General\s+Public\s+License/i },
  { name: 'BSD licence header', pattern: /Redistribution\s+and\s+use\s+in\s+source\s+and\s+binary\s+forms/i },
  { name: 'MPL licence header', pattern: /Mozilla\s+Public\s+License/i },
  { name: 'ISC licence header', pattern: /Permission\s+to\s+use,\s+copy,\s+modify,\s+and(\/or)?\s+distribute/i },
];
const SPDX_LINE = /SPDX-License-Identifier\s*:\s*([^\s*]+)/;
/** A licence header sits at the top of a file: only so many lines are read. */
const HEADER_LINES = 40;

const VENDOR_FOLDERS = new Set(['vendor', 'vendored', 'third_party', 'third-party', 'thirdparty', 'external']);
const LICENCE_FILE = /^(licen[cs]e|copying|unlicense)([.-].*)?$/i;

export interface ForeignFinding {
  path: string;
  reason: string;
}

/** Why `text`, the start of a file, carries another project's licence header; undefined when it does not. */
export function foreignLicenceHeader(text: string): string | undefined {
  const head = text.split('\n', HEADER_LINES).join('\n');
  const spdx = SPDX_LINE.exec(head)?.[1];
  if (spdx !== undefined && spdx !== PROJECT_LICENCE) return `SPDX-License-Identifier ${spdx}`;
  return FOREIGN_HEADERS.find(({ pattern }) => pattern.test(head))?.name;
}

/**
 * Why the file at `file` (relative to the root, '/'-separated) marks a folder as brought in; undefined when it
 * does not. `manifest` reads a package.json's licence field; `workspaces` are the project's own packages.
 */
export function vendoredMarker(
  file: string,
  workspaces: readonly string[],
  manifestLicence: (file: string) => string | undefined,
): string | undefined {
  const parts = file.split('/');
  const folder = parts.slice(0, -1).find((part) => VENDOR_FOLDERS.has(part.toLowerCase()));
  if (folder) return `inside a "${folder}" folder`;
  const name = parts.at(-1) ?? '';
  const dir = parts.slice(0, -1).join('/');
  if (LICENCE_FILE.test(name) && dir !== '') return 'a folder with a licence file of its own';
  if (name === 'package.json' && dir !== '' && !workspaces.includes(dir)) {
    const licence = manifestLicence(file);
    if (licence !== PROJECT_LICENCE)
      return `a package of its own (package.json with licence ${licence ?? 'unstated'}, not ${PROJECT_LICENCE})`;
  }
  return undefined;
}

/**
 * The repository's files as git tracks them (staged included): what a checkout holds. Untracked files are a
 * working copy's own business until they are added.
 */
function projectFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(listed.split('\0'))].filter(
    (file) => file !== '' && !file.split('/').includes('node_modules') && existsSync(path.join(root, file)),
  );
}

const TEXT_PREFIX_BYTES = 8192;

function readStart(file: string): string | undefined {
  const stats = statSync(file);
  if (!stats.isFile()) return undefined;
  const bytes = readFileSync(file).subarray(0, TEXT_PREFIX_BYTES);
  if (bytes.includes(0)) return undefined; // binary
  return bytes.toString('utf8');
}

/** Every file under `root` that carries another project's licence or sits in a folder brought in. */
export function findForeignFiles(root: string): ForeignFinding[] {
  const rootManifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const workspaces = rootManifest.workspaces ?? [];
  const manifestLicence = (file: string) =>
    (JSON.parse(readFileSync(path.join(root, file), 'utf8')) as { license?: string }).license;
  const findings: ForeignFinding[] = [];
  for (const file of projectFiles(root)) {
    const marker = vendoredMarker(file, workspaces, manifestLicence);
    if (marker) findings.push({ path: file, reason: marker });
    const start = readStart(path.join(root, file));
    const header = start === undefined ? undefined : foreignLicenceHeader(start);
    if (header) findings.push({ path: file, reason: header });
  }
  return findings;
}
