import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  endOfLifeTable,
  namedVersions,
  SUPPORT_MATRIX,
  supportedFloors,
  supportMatrixProblems,
} from './lib/support-matrix.ts';

const matrix = readFileSync(SUPPORT_MATRIX, 'utf8');

test('no version the support matrix supports is past its end of life, and each floor has a date', () => {
  assert.deepEqual(supportMatrixProblems(matrix, new Date().toISOString().slice(0, 10)), []);
});

test('the matrix is read as data: floors and the end-of-life table', () => {
  assert.equal(supportedFloors(matrix).get('Node.js'), '22.19');
  assert.ok(endOfLifeTable(matrix).some((row) => row.component === 'PostgreSQL' && row.version === '15'));
});

test('a date that has passed, or a floor without a date, fails the check', () => {
  const lastDate = endOfLifeTable(matrix)
    .map((row) => row.endOfLife)
    .sort()
    .at(-1)!;
  const later = `${Number(lastDate.slice(0, 4)) + 1}${lastDate.slice(4)}`;
  assert.equal(
    supportMatrixProblems(matrix, later).filter((problem) => /end of life/.test(problem)).length,
    endOfLifeTable(matrix).length,
  );
  const postgres14 = matrix.replace('| 15 to 17 ', '| 14 to 17 ');
  assert.notEqual(postgres14, matrix);
  assert.deepEqual(supportMatrixProblems(postgres14, '2026-11-28'), [
    'PostgreSQL: its supported floor 14 has no end-of-life row',
  ]);
});

test('a version is out from the day after its end-of-life date, not on it', () => {
  const kubernetes135 = endOfLifeTable(matrix).find((row) => row.component === 'Kubernetes' && row.version === '1.35');
  assert.equal(kubernetes135?.endOfLife, '2027-02-28');
  assert.deepEqual(supportMatrixProblems(matrix, '2027-02-28'), []);
  assert.deepEqual(supportMatrixProblems(matrix, '2027-03-01'), [
    'Kubernetes 1.35 reached its end of life on 2027-02-28: drop it from the supported range and this table',
  ]);
});

test('every version a supported range names needs a row, not only its floor', () => {
  assert.deepEqual(namedVersions('15 to 17'), ['15', '17', '16']);
  assert.deepEqual(namedVersions('22.19 or later, 24'), ['22.19', '24']);
  const withoutPostgres16 = matrix.replace(/^\| PostgreSQL \| 16 .*\n/m, '');
  assert.notEqual(withoutPostgres16, matrix);
  assert.deepEqual(supportMatrixProblems(withoutPostgres16, '2026-11-28'), [
    'PostgreSQL: supported 16 has no end-of-life row',
  ]);
});
