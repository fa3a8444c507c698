/**
 * NOTICE as a rendering of the release's SBOMs (decision 113): each third-party component with its version, the
 * licence the generator recorded, its source repository and the copyright lines of the licence files the
 * generator gathered as evidence (`--gather-license-texts`); then each licence's text once; then the NOTICE
 * files Apache-2.0 packages ask redistributors to pass on. Nothing is read from installed folders: the same
 * SBOMs give the same bytes.
 */
import { componentKey, componentName, type Sbom, type SbomComponent } from './sbom.ts';

export interface NoticePackage {
  name: string;
  version: string;
  /** The SPDX expression the SBOM records (several declared licences read as a choice, as npm's legacy array). */
  licence: string | undefined;
  source: string | undefined;
  /** The licence files the package ships, by file name, as the SBOM carries them. */
  licenceFiles: { file: string; text: string }[];
  /** Its NOTICE file, when it ships one. */
  notice: string | undefined;
}

/** The licence a component declares, as one SPDX expression. */
export function componentLicence(component: SbomComponent): string | undefined {
  const declared = [
    ...new Set(
      (component.licenses ?? [])
        .map((entry) => entry.expression ?? entry.license?.id ?? entry.license?.name)
        .filter((value): value is string => Boolean(value?.trim()))
        .map((value) => value.trim()),
    ),
  ];
  if (declared.length <= 1) return declared[0];
  return `(${declared.join(' OR ')})`;
}

/** The repository a component names (its `vcs` reference), as a browsable address. */
export function componentSource(component: SbomComponent): string | undefined {
  const raw = component.externalReferences?.find((reference) => reference.type === 'vcs')?.url;
  if (!raw) return undefined;
  return raw
    .replace(/#.*$/, '')
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^ssh:\/\/git@/, 'https://')
    .replace(/^github:/, 'https://github.com/')
    .replace(/^(?!\w+:)([\w.-]+\/[\w.-]+)$/, 'https://github.com/$1')
    .replace(/\.git$/, '');
}

const EVIDENCE_FILE = /^file: (.+)$/;

function evidenceText(text: { content: string; encoding?: string }): string {
  const raw = text.encoding === 'base64' ? Buffer.from(text.content, 'base64').toString('utf8') : text.content;
  return raw.replace(/\r\n?/g, '\n');
}

/** The third-party components of `boms`, each name and version once, sorted as npm sorts names. */
export function noticePackages(boms: Sbom[]): NoticePackage[] {
  const found = new Map<string, NoticePackage>();
  for (const component of boms.flatMap((bom) => bom.components ?? [])) {
    if (component.group === '@portal') continue;
    const key = componentKey(component);
    if (found.has(key)) continue;
    const files: { file: string; text: string }[] = [];
    for (const evidence of component.evidence?.licenses ?? []) {
      const file = EVIDENCE_FILE.exec(evidence.license?.name ?? '')?.[1];
      const text = evidence.license?.text;
      if (file && text) files.push({ file, text: evidenceText(text) });
    }
    files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    found.set(key, {
      name: componentName(component),
      version: component.version ?? '',
      licence: componentLicence(component),
      source: componentSource(component),
      licenceFiles: files.filter(({ file }) => !/^notice$/i.test(file)),
      notice: files.find(({ file }) => /^notice$/i.test(file))?.text,
    });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

// A copyright line, not the licence's own words about copyright ("copyright notice", Apache's "(c) You must
// retain", its appendix's "Copyright [yyyy] [name of copyright owner]").
const COPYRIGHT = /^\s*(\(c\)\s*\d|©|copyright\b)(?!\s+(notice|holders?|owner|license|statement|\[yyyy\]|\{yyyy\})\b)/i;

const RULE = '================================================================================';

/** NOTICE for the packages of the SBOMs. */
export function renderNotice(packages: NoticePackage[]): string {
  const lines: string[] = [
    'Parcel Invoice Portal',
    'Copyright (c) 2026 the Parcel Invoice Portal authors. All rights reserved.',
    '',
    'This software includes the third-party packages below, installed in production (`npm ci --omit=dev`),',
    'compiled into the server (apps/api/dist) or bundled into the web application (apps/web/dist). Each is used',
    'under the licence named beside it. Generated from the release SBOMs by `npm run notice`;',
    '`npm run test:production` fails when it no longer matches them.',
    '',
    RULE,
    'Third-party packages',
    RULE,
    '',
  ];
  const texts = new Map<string, string>();
  const notices: string[] = [];
  for (const pkg of packages) {
    lines.push(`${pkg.name} ${pkg.version}`, `  Licence: ${pkg.licence ?? 'none declared'}`);
    if (pkg.source) lines.push(`  Source: ${pkg.source}`);
    const copyrights = new Set<string>();
    for (const { text } of pkg.licenceFiles) {
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
    if (pkg.notice) notices.push(`--- ${pkg.name} ${pkg.version} ---`, pkg.notice.trim(), '');
    lines.push('');
  }
  lines.push(RULE, 'Licence texts (one per licence, as a package above ships it)', RULE, '');
  for (const [licence, text] of [...texts].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`--- ${licence} ---`, text, '');
  }
  if (notices.length > 0) lines.push(RULE, 'NOTICE files of the packages above', RULE, '', ...notices);
  return `${lines.join('\n').trimEnd()}\n`;
}
