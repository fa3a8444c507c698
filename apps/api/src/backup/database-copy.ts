import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { schemaLevel, type Database } from '../db/client.ts';
import { BLOB_REFERENCES, referenceName } from '../db/blob-references.ts';
import { EPHEMERAL_TABLE_NAMES } from '../db/ephemeral-tables.ts';
import type { BackupLocation } from './location.ts';
import { backupDir, BackupTamperedError, tableFile, type BackupManifest, type BackupTable } from './manifest.ts';
import { digesting, openSealed } from './sealed-file.ts';

/** Both drivers answer raw queries with { rows }. */
async function rowsOf<T>(db: Pick<Database, 'execute'>, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const PAGE_ROWS = 2000;
const INSERT_ROWS = 500;

export interface DatabaseExport {
  tables: BackupTable[];
  sequences: BackupManifest['sequences'];
  migrations: BackupManifest['migrations'];
  /** Every distinct sha256 a row names (BLOB_REFERENCES), as of the same snapshot. */
  blobNames: string[];
}

/** Every base table of the schema, whatever migrations added it: a new table is backed up without a change here. */
function tablesOf(db: Pick<Database, 'execute'>) {
  return rowsOf<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
}

async function columnsOf(db: Pick<Database, 'execute'>, table: string) {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} order by ordinal_position`,
  );
  return rows.map((row) => row.name);
}

/** Distinct blob names over every column of BLOB_REFERENCES. */
export async function namedBlobs(db: Pick<Database, 'execute'>): Promise<string[]> {
  const selects = BLOB_REFERENCES.map((reference) => {
    const { table, column } = referenceName(reference);
    return sql`select ${sql.identifier(column)} as sha256 from ${sql.identifier(table)} where ${sql.identifier(column)} is not null`;
  });
  const rows = await rowsOf<{ sha256: string }>(
    db,
    sql`select distinct sha256 from (${sql.join(selects, sql` union `)}) as named order by sha256`,
  );
  return rows.map((row) => row.sha256);
}

/**
 * Writes every table of the schema but the short-lived ones (EPHEMERAL_TABLES) to
 * `backups/<id>/database/<table>.jsonl.age` of the location, encrypted to the recipients, reading all of them, the sequences and the
 * blob names in one REPEATABLE READ transaction: one snapshot, as if the portal had stopped for it, while it
 * keeps serving. Rows stay the text PostgreSQL wrote (row_to_json), never parsed here, so no value (a bigint,
 * a timestamp's microseconds) changes on the way.
 */
export async function exportDatabase(
  db: Database,
  location: BackupLocation,
  id: string,
  recipients: string[],
): Promise<DatabaseExport> {
  return db.transaction(
    async (tx) => {
      const tables: BackupTable[] = [];
      for (const { name } of await tablesOf(tx)) {
        if (EPHEMERAL_TABLE_NAMES.has(name)) continue;
        if (!/^[a-z_][a-z0-9_]*$/.test(name))
          throw new Error(`table name ${JSON.stringify(name)} is not one the backup can keep`);
        const hash = createHash('sha256');
        let rows = 0;
        // One scan through a cursor, a page at a time: paging by position (`ctid > last order by ctid limit`)
        // sorted the rest of the table for every page, so a table took time in the square of its rows.
        const lines = async function* () {
          await tx.execute(
            sql`declare backup_rows no scroll cursor for select row_to_json(t)::text as row from ${sql.identifier(name)} as t`,
          );
          try {
            for (;;) {
              const page = await rowsOf<{ row: string }>(tx, sql.raw(`fetch forward ${PAGE_ROWS} from backup_rows`));
              if (page.length === 0) return;
              const text = Buffer.from(page.map((entry) => `${entry.row}\n`).join(''));
              hash.update(text);
              rows += page.length;
              yield text;
            }
          } finally {
            // After a failed fetch the transaction is aborted and refuses even this; it closes the cursor then.
            await tx.execute(sql`close backup_rows`).catch(() => {});
          }
        };
        const file = tableFile(name);
        const sealed = await location.writeSealed(`${backupDir(id)}/${file}`, lines(), recipients);
        tables.push({ name, columns: await columnsOf(tx, name), rows, file, sha256: hash.digest('hex'), sealed });
      }
      const sequences: BackupManifest['sequences'] = [];
      const sequenceNames = await rowsOf<{ name: string }>(
        tx,
        sql`select sequence_name as name from information_schema.sequences where sequence_schema = 'public' order by 1`,
      );
      for (const { name } of sequenceNames) {
        const [state] = await rowsOf<{ last_value: string | number; is_called: boolean }>(
          tx,
          sql`select last_value, is_called from ${sql.identifier(name)}`,
        );
        sequences.push({ name, lastValue: String(state!.last_value), isCalled: state!.is_called });
      }
      const { applied, lastWhen } = await schemaLevel(tx);
      return { tables, sequences, migrations: { applied, lastWhen }, blobNames: await namedBlobs(tx) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * Tables that hold at least one row: a restore goes only into a database where this is empty. Short-lived
 * state (a rate-limit window of a server started on it once) mixes no histories and is not counted.
 */
export async function nonEmptyTables(db: Database): Promise<string[]> {
  const found: string[] = [];
  for (const { name } of await tablesOf(db)) {
    if (EPHEMERAL_TABLE_NAMES.has(name)) continue;
    const [row] = await rowsOf<{ any: boolean }>(db, sql`select exists (select 1 from ${sql.identifier(name)}) as any`);
    if (row?.any) found.push(name);
  }
  return found;
}

/** Tables ordered so that one a foreign key points at comes before the table that points. */
async function insertionOrder(db: Pick<Database, 'execute'>, tables: string[]): Promise<string[]> {
  const edges = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const edge of edges) if (edge.child === table && edge.parent !== table) visit(edge.parent);
    visiting.delete(table);
    if (tables.includes(table)) ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

export interface ImportReport {
  rows: Record<string, number>;
  /** Tables or columns of the backup that this release's schema no longer has (dropped by a later migration). */
  dropped: string[];
}

/**
 * Loads the tables of a backup into this (migrated, empty) database in one transaction, then sets every
 * sequence as it was. Columns are matched by name: a column added by a later migration takes its default.
 */
export async function importDatabase(
  db: Database,
  location: BackupLocation,
  manifest: BackupManifest,
  identities: string[],
): Promise<ImportReport> {
  return db.transaction(async (tx) => {
    const present = new Set((await tablesOf(tx)).map((table) => table.name));
    const report: ImportReport = { rows: {}, dropped: [] };
    const byName = new Map(manifest.tables.map((table) => [table.name, table]));
    for (const name of await insertionOrder(
      tx,
      [...byName.keys()].filter((table) => present.has(table)),
    )) {
      const table = byName.get(name)!;
      const current = new Set(await columnsOf(tx, name));
      const columns = table.columns.filter((column) => current.has(column));
      for (const column of table.columns) if (!current.has(column)) report.dropped.push(`${name}.${column}`);
      const identifiers = sql.join(
        columns.map((column) => sql.identifier(column)),
        sql`, `,
      );
      const insert = async (lines: string[]) => {
        await tx.execute(
          sql`insert into ${sql.identifier(name)} (${identifiers})
              select ${identifiers} from json_populate_recordset(null::${sql.identifier(name)}, ${`[${lines.join(',')}]`}::json)`,
        );
      };
      // The encrypted file was checked against the signed manifest before this transaction began; the
      // plaintext is checked too, and a mismatch rolls every row back.
      const plain = digesting();
      const encrypted = await location.openRead(`${backupDir(manifest.id)}/${tableFile(name)}`);
      if (!encrypted) throw new BackupTamperedError(`${tableFile(name)} is missing from the backup.`);
      const decrypted = await openSealed(encrypted, identities);
      let batch: string[] = [];
      let rows = 0;
      const lines = createInterface({ input: Readable.from(plain.pass(decrypted)), crlfDelay: Infinity });
      for await (const line of lines) {
        if (line === '') continue;
        batch.push(line);
        rows += 1;
        if (batch.length === INSERT_ROWS) {
          await insert(batch);
          batch = [];
        }
      }
      if (batch.length) await insert(batch);
      const { sha256 } = plain.digest();
      if (sha256 !== table.sha256 || rows !== table.rows) {
        throw new BackupTamperedError(`${tableFile(name)} decrypts to rows its manifest does not describe.`);
      }
      report.rows[name] = rows;
    }
    for (const table of manifest.tables) if (!present.has(table.name)) report.dropped.push(table.name);
    const sequences = new Set(
      (
        await rowsOf<{ name: string }>(
          tx,
          sql`select sequence_name as name from information_schema.sequences where sequence_schema = 'public'`,
        )
      ).map((row) => row.name),
    );
    for (const sequence of manifest.sequences) {
      if (!sequences.has(sequence.name)) continue;
      await tx.execute(
        sql`select setval(${sequence.name}::regclass, ${sequence.lastValue}::bigint, ${sequence.isCalled})`,
      );
    }
    return report;
  });
}
