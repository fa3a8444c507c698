/**
 * docs/support-matrix.md read as data: the floor of each component's supported range, and the end-of-life
 * table. What the support matrix test holds them to.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';

export const SUPPORT_MATRIX = path.join(REPO_ROOT, 'docs/support-matrix.md');

/** Components whose supported floor must have an end-of-life row. */
export const DATED_COMPONENTS = ['Node.js', 'PostgreSQL', 'Kubernetes'];

export interface EndOfLife {
  component: string;
  version: string;
  endOfLife: string;
}

function tableRows(text: string, header: RegExp): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => header.test(line));
  if (start < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

export function endOfLifeTable(text = readFileSync(SUPPORT_MATRIX, 'utf8')): EndOfLife[] {
  return tableRows(text, /^\| Component\s+\| Version\s+\| End of life/).map(
    ([component = '', version = '', endOfLife = '']) => ({
      component,
      version,
      endOfLife,
    }),
  );
}

function supportedCells(text: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const [component = '', , supported = ''] of tableRows(text, /^\| Component\s+\| Tested\s+\| Supported/))
    cells.set(component, supported);
  return cells;
}

/** The first version number of each component's "Supported" cell: its floor. */
export function supportedFloors(text = readFileSync(SUPPORT_MATRIX, 'utf8')): Map<string, string> {
  const floors = new Map<string, string>();
  for (const [component, supported] of supportedCells(text)) {
    const floor = /\d+(\.\d+)?/.exec(supported)?.[0];
    if (floor) floors.set(component, floor);
  }
  return floors;
}

/**
 * Every version a "Supported" cell names: each number, and each major between the ends of an "A to B" range
 * ("15 to 17" names 15, 16 and 17; "22.19 or later, 24" names 22.19 and 24).
 */
export function namedVersions(supported: string): string[] {
  const versions = new Set(supported.match(/\d+(\.\d+)?/g) ?? []);
  for (const [, from, to] of supported.matchAll(/\b(\d+) to (\d+)\b/g)) {
    for (let major = Number(from); major <= Number(to); major += 1) versions.add(String(major));
  }
  return [...versions];
}

/** What is wrong with the matrix on `today` (YYYY-MM-DD): versions past their end of life, floors without a date. */
export function supportMatrixProblems(text: string, today: string): string[] {
  const table = endOfLifeTable(text);
  const problems: string[] = [];
  for (const row of table) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.endOfLife))
      problems.push(`${row.component} ${row.version}: "${row.endOfLife}" is no date`);
    // The end-of-life date is the project's last day of fixes: the version is out from the day after.
    else if (row.endOfLife < today)
      problems.push(
        `${row.component} ${row.version} reached its end of life on ${row.endOfLife}: drop it from the supported range and this table`,
      );
  }
  const cells = supportedCells(text);
  const hasRow = (component: string, version: string) =>
    table.some(
      (row) => row.component === component && (row.version === version || version.startsWith(`${row.version}.`)),
    );
  for (const component of DATED_COMPONENTS) {
    const supported = cells.get(component);
    const floor = supportedFloors(text).get(component);
    if (!supported || !floor) {
      problems.push(`${component}: no supported range`);
      continue;
    }
    if (!hasRow(component, floor)) problems.push(`${component}: its supported floor ${floor} has no end-of-life row`);
    for (const version of namedVersions(supported).filter((named) => named !== floor && !hasRow(component, named)))
      problems.push(`${component}: supported ${version} has no end-of-life row`);
  }
  return problems;
}
