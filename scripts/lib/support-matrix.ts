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

/** The first version number of each component's "Supported" cell: its floor. */
export function supportedFloors(text = readFileSync(SUPPORT_MATRIX, 'utf8')): Map<string, string> {
  const floors = new Map<string, string>();
  for (const [component = '', , supported = ''] of tableRows(text, /^\| Component\s+\| Tested\s+\| Supported/)) {
    const floor = /\d+(\.\d+)?/.exec(supported)?.[0];
    if (floor) floors.set(component, floor);
  }
  return floors;
}

/** What is wrong with the matrix on `today` (YYYY-MM-DD): versions past their end of life, floors without a date. */
export function supportMatrixProblems(text: string, today: string): string[] {
  const table = endOfLifeTable(text);
  const problems: string[] = [];
  for (const row of table) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.endOfLife))
      problems.push(`${row.component} ${row.version}: "${row.endOfLife}" is no date`);
    else if (row.endOfLife <= today)
      problems.push(
        `${row.component} ${row.version} reached its end of life on ${row.endOfLife}: drop it from the supported range and this table`,
      );
  }
  const floors = supportedFloors(text);
  for (const component of DATED_COMPONENTS) {
    const floor = floors.get(component);
    if (!floor) problems.push(`${component}: no supported range`);
    else if (
      !table.some(
        (row) => row.component === component && (row.version === floor || floor.startsWith(`${row.version}.`)),
      )
    )
      problems.push(`${component}: its supported floor ${floor} has no end-of-life row`);
  }
  return problems;
}
