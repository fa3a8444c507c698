import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const { satisfies } = createRequire(import.meta.url)('./check-node.cjs') as {
  satisfies: (version: string, range: string) => boolean;
};
const ENGINES = '^22.19.0 || >=24.0.0';

test('the floors of both lines are met, and nothing below them', () => {
  for (const version of ['22.19.0', '22.22.1', '24.0.0', '24.21.0', '26.1.0']) {
    assert.equal(satisfies(version, ENGINES), true, version);
  }
  for (const version of ['20.20.2', '22.12.0', '22.18.9', '23.11.0', '18.0.0']) {
    assert.equal(satisfies(version, ENGINES), false, version);
  }
});

test('a range it cannot read is an error, not a silent pass', () => {
  assert.throws(() => satisfies('24.0.0', '~24.1'), /cannot read the engines range/);
});
