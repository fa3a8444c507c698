import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { endOfLifeTable, SUPPORT_MATRIX, supportedFloors, supportMatrixProblems } from './lib/support-matrix.ts';

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
