import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { BLOB_REFERENCES, NOT_BLOB_REFERENCES, referenceName } from './blob-references.ts';
import * as schema from './schema.ts';

describe('blob references', () => {
  it('declares every *sha256 column of the schema either as naming a blob or as not', () => {
    const declared = new Set(
      [...BLOB_REFERENCES, ...NOT_BLOB_REFERENCES].map((column) => {
        const { table, column: name } = referenceName(column);
        return `${table}.${name}`;
      }),
    );
    const hashColumns = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => value instanceof PgTable)
      .flatMap((table) => {
        const config = getTableConfig(table);
        return config.columns
          .filter((column) => /sha256$/.test(column.name))
          .map((column) => `${config.name}.${column.name}`);
      });
    assert.ok(hashColumns.includes('invoices.sha256'));
    for (const column of hashColumns) {
      assert.ok(
        declared.has(column),
        `${column} holds a hash: add it to BLOB_REFERENCES (backup copies and verify checks the blobs it names) or to NOT_BLOB_REFERENCES`,
      );
    }
  });
});
